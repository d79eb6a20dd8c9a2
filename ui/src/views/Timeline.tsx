/**
 * A subject's timeline, oldest first: every version with its status, the SUPERSEDES /
 * RETRACTS links between them, tombstones and in-place refinements; under `asOf` it is the
 * timeline as memory held it then.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from 'urql';

import { useSession } from '../app/context';
import { useTime } from '../app/time';
import { ErrorNote, Loading } from '../components/Notice';
import { StatusBadge, Value, When } from '../components/Value';
import { graphql } from '../gql';

const HistoryQuery = graphql(`
  query SubjectHistory($space: String!, $subject: String!, $asOf: DateTime) {
    history(space: $space, subject: $subject, asOf: $asOf) {
      subject
      entries { status value fact { ...FactFields } }
    }
  }
`);

function subjectFromHash(): string {
  const [view, ...rest] = window.location.hash.replace(/^#\/?/, '').split('/');
  return view === 'timeline' && rest.length ? decodeURIComponent(rest.join('/')) : '';
}

const short = (id: string) => id.slice(0, 8);

export function TimelineView() {
  const { space } = useSession();
  const { asOf } = useTime();
  const [input, setInput] = useState(subjectFromHash());
  const [subject, setSubject] = useState(subjectFromHash());
  useEffect(() => {
    const follow = () => { const s = subjectFromHash(); if (s) { setInput(s); setSubject(s); } };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const [{ data, error, fetching }] = useQuery({
    query: HistoryQuery, variables: { space, subject, asOf }, pause: !subject,
  });
  const submit = (e: FormEvent) => { e.preventDefault(); setSubject(input.trim()); };
  const entries = data?.history.entries ?? [];
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <form className="filters" onSubmit={submit}>
        <label>Subject <input value={input} onChange={(e) => setInput(e.target.value)} required /></label>
        <button type="submit">Show timeline</button>
      </form>
      {asOf ? <p className="muted">As memory held it at {new Date(asOf).toLocaleString()}.</p> : null}
      <ErrorNote error={error} />
      {fetching && !data ? <Loading what="timeline" /> : null}
      {data && entries.length === 0 ? <p>No version of this subject{asOf ? ' at that time' : ''}.</p> : null}
      <ol className="timeline">
        {entries.map((entry, i) => (
          <li key={`${entry.fact.id}-${i}`} className={`version status-line-${entry.status.toLowerCase()}`}>
            <p className="version-head">
              <StatusBadge status={entry.status} /> <Value text={entry.value} label={data?.history.subject} />
            </p>
            <p className="muted">
              #{short(entry.fact.id)} · recorded <When at={entry.fact.recordedAt} />
              {entry.fact.retiredAt ? <> · retired <When at={entry.fact.retiredAt} /></> : null}
              {entry.fact.source ? <> · from <Value text={entry.fact.source} /></> : null}
              {entry.fact.scope ? <> · scope <Value text={entry.fact.scope} /></> : null}
            </p>
            {entry.fact.supersedes.length ? (
              <p className="link-line">supersedes {entry.fact.supersedes.map((s) => `#${short(s)}`).join(', ')}</p>
            ) : null}
            {entry.fact.retracts.length ? (
              <p className="link-line">retracts {entry.fact.retracts.map((s) => `#${short(s)}`).join(', ')}</p>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
