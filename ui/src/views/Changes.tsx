/**
 * What changed between two times: two time pickers and a clock (what memory held, or what
 * was true in the world), then every slot whose current values differ between them, grouped
 * by subject, each with the values before and after, the events that did it and a link to
 * the subject's timeline. Read a page of slots at a time (`changes`).
 */
import { useState, type FormEvent } from 'react';

import { useSession } from '../app/context';
import { useFreshQuery } from '../app/refresh';
import { ErrorNote, Loading } from '../components/Notice';
import { MoreButton, usePaging } from '../components/Pages';
import { Value, When } from '../components/Value';
import { graphql } from '../gql';
import type { ChangesBetweenQuery, Clock } from '../gql/graphql';

const PAGE = 50;

const ChangesQuery = graphql(`
  query ChangesBetween($space: String!, $from: DateTime!, $to: DateTime, $clock: Clock!,
                       $first: Int, $after: String) {
    changes(space: $space, from: $from, to: $to, clock: $clock, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        cursor
        node {
          subject
          scope
          kind
          before { factId value }
          after { factId value }
          causes { step factId at event }
        }
      }
    }
  }
`);

type SlotChange = ChangesBetweenQuery['changes']['edges'][number]['node'];

interface Window {
  from: string;
  to: string | null;
  clock: Clock;
}

const KIND_TEXT = { ADDED: 'added', REMOVED: 'removed', CHANGED: 'changed' };
const STEP_TEXT = { STARTED: 'became current', STOPPED: 'stopped being current',
  REFINED: 'refined in place' };

/** `datetime-local` text (local wall-clock time) as an instant, or null. */
function instant(text: string): string | null {
  const t = Date.parse(text);
  return text && !Number.isNaN(t) ? new Date(t).toISOString() : null;
}

function localInput(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const short = (id: string) => `#${id.slice(0, 8)}`;

function Values({ facts, subject }: { facts: SlotChange['before']; subject: string }) {
  if (!facts.length) return <span className="muted">(nothing)</span>;
  return (
    <>
      {facts.map((f, i) => (
        <span key={f.factId}>{i ? ', ' : ''}<Value text={f.value} label={subject} /></span>
      ))}
    </>
  );
}

function Change({ change }: { change: SlotChange }) {
  return (
    <li className={`slot-change change-${change.kind.toLowerCase()}`} data-subject={change.subject}>
      <p className="version-head">
        <span className="badge">{KIND_TEXT[change.kind]}</span>{' '}
        {change.scope !== 'global' ? <span className="muted">scope <Value text={change.scope} />: </span> : null}
        <span data-testid="before"><Values facts={change.before} subject={change.subject} /></span>
        {' → '}
        <span data-testid="after"><Values facts={change.after} subject={change.subject} /></span>
      </p>
      <ul className="causes">
        {change.causes.map((c) => (
          <li key={`${c.step}-${c.factId}`} className="muted">
            {short(c.factId)} {STEP_TEXT[c.step]}
            {c.at ? <> at <When at={c.at} /></> : null}
            {c.event ? <> by event <code>{c.event}</code></> : null}
          </li>
        ))}
      </ul>
    </li>
  );
}

function ChangesPage({ window, after, last, onMore }: {
  window: Window; after: string | null; last: boolean; onMore: (cursor: string) => void;
}) {
  const { space } = useSession();
  const [{ data, error, fetching }] = useFreshQuery({ query: ChangesQuery,
    variables: { space, ...window, first: PAGE, after } });
  const changes = (data?.changes.edges ?? []).map((e) => e.node);
  const bySubject = new Map<string, SlotChange[]>();
  for (const c of changes) bySubject.set(c.subject, [...(bySubject.get(c.subject) ?? []), c]);
  return (
    <>
      <ErrorNote error={error} />
      {fetching && !data ? <Loading what="changes" /> : null}
      {after === null && data ? (
        <p className="muted" role="status" data-testid="changes-total">
          {data.changes.totalCount === 0 ? 'Nothing changed between those times.'
            : `${data.changes.totalCount} slot${data.changes.totalCount === 1 ? '' : 's'} changed.`}
        </p>
      ) : null}
      {[...bySubject].map(([subject, found]) => (
        <section key={subject} className="change-group" aria-label={`Changes of ${subject}`}>
          <h3>
            <a href={`#timeline/${encodeURIComponent(subject)}`}>
              <span className="sr-only">Timeline of </span><Value text={subject} />
            </a>
          </h3>
          <ul className="timeline">{found.map((c) => <Change key={`${c.subject}|${c.scope}`} change={c} />)}</ul>
        </section>
      ))}
      {last ? <MoreButton pageInfo={data?.changes.pageInfo} onMore={onMore} what="changes" /> : null}
    </>
  );
}

export function ChangesView() {
  const [fromText, setFromText] = useState(() => localInput(Date.now() - 86400e3));
  const [toText, setToText] = useState('');
  const [clock, setClock] = useState<Clock>('RECORDED');
  const [window, setWindow] = useState<Window | null>(null);
  const [problem, setProblem] = useState('');
  const { afters, more } = usePaging(JSON.stringify(window));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const from = instant(fromText);
    const to = toText ? instant(toText) : null;
    if (!from) { setProblem('Choose the first time.'); return; }
    if (to !== null && Date.parse(to) <= Date.parse(from)) {
      setProblem('The first time must come before the second.');
      return;
    }
    setProblem('');
    setWindow({ from, to, clock });
  };
  return (
    <section aria-labelledby="changes-title">
      <h2 id="changes-title">Changes</h2>
      <form className="filters" onSubmit={submit}>
        <label>From <input type="datetime-local" step={1} value={fromText} required
          onChange={(e) => setFromText(e.target.value)} /></label>
        <label>To <input type="datetime-local" step={1} value={toText}
          onChange={(e) => setToText(e.target.value)} aria-describedby="changes-to-hint" /></label>
        <span id="changes-to-hint" className="hint">Empty: now.</span>
        <label>Clock{' '}
          <select value={clock} onChange={(e) => setClock(e.target.value as Clock)}>
            <option value="RECORDED">What memory held (recorded)</option>
            <option value="VALID">What was true in the world (valid)</option>
          </select>
        </label>
        <button type="submit">Show changes</button>
      </form>
      {problem ? <p className="error" role="alert">{problem}</p> : null}
      {window ? afters.map((after, i) => (
        <ChangesPage key={after ?? ''} window={window} after={after}
          last={i === afters.length - 1} onMore={more} />
      )) : null}
    </section>
  );
}
