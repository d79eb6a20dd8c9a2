/**
 * Write: structured facts (`rememberFacts`, no model call) and free text (`remember`, one
 * extraction call, offered when the server has a model: `serverInfo.llmConfigured`); each
 * result line is shown as graphmem wrote it, with the facts it overlaps by entities.
 */
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';

import { explain } from '../api/errors';
import { useSession } from '../app/context';
import { ErrorNote } from '../components/Notice';
import { UndoButton } from '../components/UndoButton';
import { Value } from '../components/Value';
import { graphql } from '../gql';
import type { RememberFactsMutation } from '../gql/graphql';

const RememberFacts = graphql(`
  mutation RememberFacts($space: String!, $facts: [FactInput!]!, $text: String!, $source: String!) {
    rememberFacts(space: $space, facts: $facts, text: $text, source: $source) {
      action subject value factId conflictId message eventId redacted
      collisions { factId subject value }
    }
  }
`);

const RememberText = graphql(`
  mutation RememberText($space: String!, $text: String!, $source: String!) {
    remember(space: $space, text: $text, source: $source) {
      action subject value factId conflictId message eventId redacted
      collisions { factId subject value }
    }
  }
`);

type Line = RememberFactsMutation['rememberFacts'][number];

function Results({ lines }: { lines: Line[] }) {
  if (!lines.length) return null;
  const event = lines.find((l) => l.eventId)?.eventId;
  const redacted = [...new Set(lines.flatMap((l) => l.redacted))];
  const changed = lines.some((l) => l.action !== 'DEDUP' && l.action !== 'SKIP');
  return (
    <>
    <ul className="results" role="status" aria-label="Results">
      {lines.map((l, i) => (
        <li key={i} className={`action-${l.action.toLowerCase()}`}>
          <Value text={l.message} />
          {l.collisions.length ? (
            <span className="muted"> · overlaps by entities with{' '}
              {l.collisions.map((c, j) => (
                <span key={c.factId}>{j ? ', ' : ''}<Value text={c.subject} /> = <Value text={c.value} /></span>
              ))}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
    {redacted.length ? (
      <p className="muted" data-testid="redacted">Redacted before storing: {redacted.join(', ')}.</p>
    ) : null}
    {event && changed ? <UndoButton key={event} eventId={event} what="this write" /> : null}
    </>
  );
}

function FactForm() {
  const { space } = useSession();
  const [subject, setSubject] = useState('');
  const [value, setValue] = useState('');
  const [scope, setScope] = useState('');
  const [confidence, setConfidence] = useState('0.95');
  const [source, setSource] = useState('');
  const [text, setText] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [state, run] = useMutation(RememberFacts);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const conf = Number(confidence);
    const fact = { subject: subject.trim(), value, scope: scope.trim() || null,
      confidence: Number.isFinite(conf) ? conf : null };
    const r = await run({ space, facts: [fact], text, source: source.trim() });
    setError(r.error ? explain(r.error) : null);
    setLines(r.data?.rememberFacts ?? []);
  };
  return (
    <form className="card" onSubmit={submit}>
      <h3>Remember a fact</h3>
      <div className="grid-form">
        <label>Subject <input value={subject} onChange={(e) => setSubject(e.target.value)} required /></label>
        <label>Value <input value={value} onChange={(e) => setValue(e.target.value)} required /></label>
        <label>Scope <input value={scope} onChange={(e) => setScope(e.target.value)} /></label>
        <label>Confidence <input type="number" min={0} max={1} step={0.01} value={confidence}
          onChange={(e) => setConfidence(e.target.value)} /></label>
        <label>Source <input value={source} onChange={(e) => setSource(e.target.value)} /></label>
        <label className="wide">Sentence it came from <input value={text} onChange={(e) => setText(e.target.value)} /></label>
      </div>
      <button type="submit" disabled={state.fetching}>Remember</button>
      <ErrorNote error={error} />
      <Results lines={lines} />
    </form>
  );
}

function TextForm() {
  const { space } = useSession();
  const [text, setText] = useState('');
  const [source, setSource] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [state, run] = useMutation(RememberText);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await run({ space, text, source: source.trim() });
    setError(r.error ? explain(r.error) : null);
    setLines(r.data?.remember ?? []);
  };
  return (
    <form className="card" onSubmit={submit}>
      <h3>Remember a message</h3>
      <p className="muted">One extraction call by the configured model.</p>
      <label htmlFor="remember-text">Message</label>
      <textarea id="remember-text" rows={3} value={text} onChange={(e) => setText(e.target.value)} required />
      <label>Source <input value={source} onChange={(e) => setSource(e.target.value)} /></label>
      <button type="submit" disabled={state.fetching}>Remember</button>
      <ErrorNote error={error} />
      <Results lines={lines} />
    </form>
  );
}

export function WriteView() {
  const { server } = useSession();
  return (
    <section aria-labelledby="write-title">
      <h2 id="write-title">Write</h2>
      <FactForm />
      {server?.llmConfigured ? <TextForm /> : (
        <div className="card">
          <h3>Remember a message</h3>
          <p className="muted">This server has no model configured (GRAPHMEM_LLM_BASE_URL and
            GRAPHMEM_LLM_MODEL), so it cannot extract facts from a message; structured facts
            above need none.</p>
        </div>
      )}
    </section>
  );
}
