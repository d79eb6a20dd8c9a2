/**
 * A subject's timeline, oldest first: every version with its status, the SUPERSEDES /
 * RETRACTS links both ways (what a version replaced, and what replaced it), tombstones and
 * in-place refinements. It is read from the newest end a page at a time (`last`, then
 * `before` for earlier versions), as memory held it at `asOf` and true at `validAt`.
 */
import { useEffect, useState, type FormEvent } from 'react';

import { useSession } from '../app/context';
import { useFreshQuery } from '../app/refresh';
import { useTime } from '../app/time';
import { ErrorNote, Loading } from '../components/Notice';
import { usePaging } from '../components/Pages';
import { UndoButton } from '../components/UndoButton';
import { StatusBadge, Value, When } from '../components/Value';
import { graphql } from '../gql';
import type { SubjectHistoryQuery } from '../gql/graphql';

const PAGE = 50;

const HistoryQuery = graphql(`
  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime, $validAt: DateTime,
                       $last: Int, $before: String) {
    history(space: $space, subject: $subject, asOf: $asOf, validAt: $validAt, last: $last,
            before: $before) {
      subject
      totalCount
      pageInfo { hasPreviousPage startCursor }
      edges {
        cursor
        node {
          status
          value
          fact {
            ...FactFields
            supersededBy { factId value status recordedAt retracts }
          }
        }
      }
    }
  }
`);

type Entry = SubjectHistoryQuery['history']['edges'][number]['node'];

function subjectFromHash(): string {
  const [view, ...rest] = window.location.hash.replace(/^#\/?/, '').split('/');
  return view === 'timeline' && rest.length ? decodeURIComponent(rest.join('/')) : '';
}

const short = (id: string) => `#${id.slice(0, 8)}`;

type Undone = (message: string) => void;

function Version({ entry, subject, onUndone }: {
  entry: Entry; subject: string; onUndone: Undone;
}) {
  const { fact } = entry;
  const next = entry.status === 'REFINED' ? null : fact.supersededBy;
  return (
    <li className={`version status-line-${entry.status.toLowerCase()}`} data-fact={fact.factId}>
      <p className="version-head">
        <StatusBadge status={entry.status} /> <Value text={entry.value} label={subject} />
        {entry.status === 'REFINED' ? <span className="muted"> (refined in place to the next value)</span> : null}
      </p>
      <p className="muted">
        {short(fact.factId)} · recorded <When at={fact.recordedAt} />
        {fact.retiredAt ? <> · retired <When at={fact.retiredAt} /></> : null}
        {fact.source ? <> · from <Value text={fact.source} /></> : null}
        {fact.scope ? <> · scope <Value text={fact.scope} /></> : null}
        {fact.validFrom || fact.validTo ? <> · valid <When at={fact.validFrom} /> to <When at={fact.validTo} /></> : null}
      </p>
      {fact.supersedes.length ? (
        <p className="link-line">supersedes {fact.supersedes.map(short).join(', ')}</p>
      ) : null}
      {fact.retracts.length ? (
        <p className="link-line">retracts {fact.retracts.map(short).join(', ')}</p>
      ) : null}
      {next ? (
        <p className="link-line">
          {next.retracts.includes(fact.factId) ? 'retracted by' : 'superseded by'}{' '}
          {short(next.factId)} (<Value text={next.value} />, recorded <When at={next.recordedAt} />)
        </p>
      ) : null}
      {fact.undoneBy ? (
        <p className="link-line">undone by event <code>{fact.undoneBy}</code></p>
      ) : null}
      {fact.eventId && entry.status !== 'REFINED' ? (
        <div className="link-line">
          recorded by event <code>{fact.eventId}</code>
          {fact.undoneBy ? null : (
            <UndoButton eventId={fact.eventId} what={`the write of ${short(fact.factId)}`}
              onDone={onUndone} />
          )}
        </div>
      ) : null}
    </li>
  );
}

function HistoryPage({ subject, before, earliest, onEarlier, onTotal, onUndone }: {
  subject: string; before: string | null; earliest: boolean;
  onEarlier: (cursor: string) => void; onTotal: (total: number | null) => void;
  onUndone: Undone;
}) {
  const { space } = useSession();
  const { asOf, validAt } = useTime();
  const [{ data, error, fetching }] = useFreshQuery({ query: HistoryQuery,
    variables: { space, subject, asOf, validAt, last: PAGE, before } });
  const history = data?.history;
  useEffect(() => { if (before === null) onTotal(history ? history.totalCount : null); },
    [before, history, onTotal]);
  const info = history?.pageInfo;
  return (
    <>
      {earliest && info?.hasPreviousPage && info.startCursor ? (
        <li className="earlier">
          <button type="button" onClick={() => onEarlier(info.startCursor ?? '')}>Show earlier versions</button>
        </li>
      ) : null}
      {error ? <li><ErrorNote error={error} /></li> : null}
      {fetching && !data ? <li><Loading what="timeline" /></li> : null}
      {(history?.edges ?? []).map((edge) => (
        <Version key={edge.cursor} entry={edge.node} subject={history?.subject ?? subject}
          onUndone={onUndone} />
      ))}
    </>
  );
}

export function TimelineView() {
  const { space } = useSession();
  const { asOf, validAt } = useTime();
  const [input, setInput] = useState(subjectFromHash());
  const [subject, setSubject] = useState(subjectFromHash());
  const [total, setTotal] = useState<number | null>(null);
  const [undone, setUndone] = useState<string | null>(null);
  useEffect(() => setUndone(null), [space, subject]);
  const { afters: befores, more: earlier } = usePaging(`${space}|${subject}|${asOf}|${validAt}`);
  useEffect(() => {
    const follow = () => { const s = subjectFromHash(); if (s) { setInput(s); setSubject(s); } };
    window.addEventListener('hashchange', follow);
    follow();  // the hash may have changed between the first render and this listener
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const submit = (e: FormEvent) => { e.preventDefault(); setSubject(input.trim()); };
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <form className="filters" onSubmit={submit}>
        <label>Subject <input value={input} onChange={(e) => setInput(e.target.value)} required /></label>
        <button type="submit">Show timeline</button>
      </form>
      {asOf ? <p className="muted">As memory held it at {new Date(asOf).toLocaleString()}.</p> : null}
      {validAt ? <p className="muted">Only what was true at {new Date(validAt).toLocaleString()}.</p> : null}
      {subject && total !== null ? (
        <p className="muted" role="status">
          {total === 0 ? `No version of this subject${asOf || validAt ? ' at that time' : ''}.`
            : `${total} entr${total === 1 ? 'y' : 'ies'}, oldest first.`}
        </p>
      ) : null}
      {undone ? <p role="status" className="undo-done timeline-undo">{undone}</p> : null}
      {subject ? (
        <ol className="timeline">
          {[...befores].reverse().map((before, i) => (
            <HistoryPage key={before ?? ''} subject={subject} before={before} earliest={i === 0}
              onEarlier={earlier} onTotal={setTotal} onUndone={setUndone} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}
