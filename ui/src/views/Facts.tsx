/**
 * The facts of the space: current ones (or those held at `asOf` / true at `validAt`), with
 * filters by subject, scope and status, and a search over what is loaded.
 */
import { useDeferredValue, useState } from 'react';
import { useQuery } from 'urql';

import { useSession } from '../app/context';
import { useTime } from '../app/time';
import { ErrorNote, Loading } from '../components/Notice';
import { StatusBadge, Value, When } from '../components/Value';
import { graphql } from '../gql';
import type { Status } from '../gql/graphql';

const PAGE = 100;

const FactsQuery = graphql(`
  query FactsOfSpace($space: String!, $subject: String, $scope: String, $status: Status!,
                     $asOf: DateTime, $validAt: DateTime, $first: Int) {
    facts(space: $space, subject: $subject, scope: $scope, status: $status, asOf: $asOf,
          validAt: $validAt, first: $first) {
      totalCount
      edges { node { ...FactFields } }
    }
  }
`);

export function FactsView() {
  const { space } = useSession();
  const { asOf, validAt } = useTime();
  const [subject, setSubject] = useState('');
  const [scope, setScope] = useState('');
  const [status, setStatus] = useState<Status>('ACTIVE');
  const [search, setSearch] = useState('');
  const [first, setFirst] = useState(PAGE);
  const deferredSubject = useDeferredValue(subject.trim());
  const deferredScope = useDeferredValue(scope.trim());
  const timed = status === 'ACTIVE';
  const [{ data, error, fetching }] = useQuery({
    query: FactsQuery,
    variables: {
      space, status, first,
      subject: deferredSubject || null, scope: deferredScope || null,
      asOf: timed ? asOf : null, validAt: timed ? validAt : null,
    },
  });
  const needle = search.trim().toLowerCase();
  const facts = (data?.facts.edges ?? []).map((e) => e.node).filter((f) => !needle
    || [f.subject, f.value, f.source, f.scope, f.raw].some((t) => t.toLowerCase().includes(needle)));
  return (
    <section aria-labelledby="facts-title">
      <h2 id="facts-title">Facts</h2>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>Subject <input value={subject} onChange={(e) => setSubject(e.target.value)} /></label>
        <label>Scope <input value={scope} onChange={(e) => setScope(e.target.value)} /></label>
        <label>Status{' '}
          <select value={status} onChange={(e) => setStatus(e.target.value as Status)}>
            <option value="ACTIVE">Active</option>
            <option value="FLAGGED_CONFLICT">Flagged</option>
          </select>
        </label>
        <label>Search <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} /></label>
      </form>
      {!timed && (asOf || validAt) ? (
        <p className="muted">Flagged facts are shown as they are now; the time controls apply to active facts.</p>
      ) : null}
      <ErrorNote error={error} />
      {fetching && !data ? <Loading what="facts" /> : null}
      {data ? (
        <p className="muted" role="status">
          {facts.length} shown of {data.facts.totalCount}
          {timed && asOf ? ` · memory as of ${new Date(asOf).toLocaleString()}` : ''}
          {timed && validAt ? ` · true at ${new Date(validAt).toLocaleString()}` : ''}
        </p>
      ) : null}
      <ul className="fact-list">
        {facts.map((f) => (
          <li key={f.id} className="fact-row">
            <a className="subject" href={`#timeline/${encodeURIComponent(f.subject)}`}>
              <span className="sr-only">Timeline of </span><Value text={f.subject} />
            </a>
            <span className="eq" aria-hidden="true">=</span>
            <span className="fact-row-value"><Value text={f.value} label={f.subject} /></span>
            <span className="fact-row-meta">
              <StatusBadge status={f.status} />
              {f.scope ? <> · scope <Value text={f.scope} /></> : null}
              {f.source ? <> · from <Value text={f.source} /></> : null}
              {f.confidence !== null && f.confidence !== undefined ? <> · conf {f.confidence}</> : null}
              {' · recorded '}<When at={f.recordedAt} />
            </span>
          </li>
        ))}
      </ul>
      {data && data.facts.totalCount > (data.facts.edges.length) ? (
        <button type="button" onClick={() => setFirst(first + PAGE)}>Show more</button>
      ) : null}
    </section>
  );
}
