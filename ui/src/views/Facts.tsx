/**
 * The facts of the space, a keyset page at a time: any status (by default the current ones,
 * or under a world time what memory held then), filtered by subject, scope and source and
 * searched by the server (`text`: a part of the value or subject), as memory held them at
 * `asOf` and true at `validAt`.
 */
import { useDeferredValue, useState } from 'react';

import { useSession } from '../app/context';
import { useFreshQuery } from '../app/refresh';
import { useTime } from '../app/time';
import { ErrorNote, Loading } from '../components/Notice';
import { MoreButton, usePaging } from '../components/Pages';
import { StatusBadge, Value, When } from '../components/Value';
import { graphql } from '../gql';
import type { FactsOfSpaceQueryVariables, Status } from '../gql/graphql';

const PAGE = 50;
const EVERY: Status[] = ['ACTIVE', 'FLAGGED_CONFLICT', 'SUPERSEDED', 'HISTORICAL'];
const CHOICES: Record<string, { label: string; statuses: Status[] | null }> = {
  default: { label: 'Current (default)', statuses: null },
  any: { label: 'Any status', statuses: EVERY },
  ACTIVE: { label: 'Active', statuses: ['ACTIVE'] },
  FLAGGED_CONFLICT: { label: 'Flagged', statuses: ['FLAGGED_CONFLICT'] },
  SUPERSEDED: { label: 'Superseded', statuses: ['SUPERSEDED'] },
  HISTORICAL: { label: 'Historical', statuses: ['HISTORICAL'] },
};

const FactsQuery = graphql(`
  query FactsOfSpace($space: String!, $subject: String, $scope: String, $source: String,
                     $statuses: [Status!], $text: String, $asOf: DateTime, $validAt: DateTime,
                     $first: Int, $after: String) {
    facts(space: $space, subject: $subject, scope: $scope, source: $source,
          statuses: $statuses, text: $text, asOf: $asOf, validAt: $validAt, first: $first,
          after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { ...FactFields } }
    }
  }
`);

type Filters = Omit<FactsOfSpaceQueryVariables, 'first' | 'after'>;

function FactsPage({ filters, after, last, onMore }: {
  filters: Filters; after: string | null; last: boolean; onMore: (cursor: string) => void;
}) {
  const [{ data, error, fetching }] = useFreshQuery({ query: FactsQuery,
    variables: { ...filters, first: PAGE, after } });
  const facts = (data?.facts.edges ?? []).map((e) => e.node);
  const { asOf, validAt } = filters;
  return (
    <>
      <ErrorNote error={error} />
      {fetching && !data ? <Loading what="facts" /> : null}
      {after === null && data ? (
        <p className="muted" role="status" data-testid="facts-total">
          {data.facts.totalCount} fact{data.facts.totalCount === 1 ? '' : 's'}
          {asOf ? ` · memory as of ${new Date(asOf).toLocaleString()}` : ''}
          {validAt ? ` · true at ${new Date(validAt).toLocaleString()}` : ''}
        </p>
      ) : null}
      <ul className="fact-list">
        {facts.map((f) => (
          <li key={f.factId} className="fact-row">
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
      {last ? <MoreButton pageInfo={data?.facts.pageInfo} onMore={onMore} what="facts" /> : null}
    </>
  );
}

export function FactsView() {
  const { space } = useSession();
  const { asOf, validAt } = useTime();
  const [subject, setSubject] = useState('');
  const [scope, setScope] = useState('');
  const [source, setSource] = useState('');
  const [choice, setChoice] = useState('default');
  const [search, setSearch] = useState('');
  const typed = {
    subject: useDeferredValue(subject.trim()), scope: useDeferredValue(scope.trim()),
    source: useDeferredValue(source.trim()), text: useDeferredValue(search.trim()),
  };
  const filters: Filters = {
    space, asOf, validAt, statuses: CHOICES[choice]?.statuses ?? null,
    subject: typed.subject || null, scope: typed.scope || null, source: typed.source || null,
    text: typed.text || null,
  };
  const { afters, more } = usePaging(JSON.stringify(filters));
  return (
    <section aria-labelledby="facts-title">
      <h2 id="facts-title">Facts</h2>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>Subject <input value={subject} onChange={(e) => setSubject(e.target.value)} /></label>
        <label>Scope <input value={scope} onChange={(e) => setScope(e.target.value)} /></label>
        <label>Source <input value={source} onChange={(e) => setSource(e.target.value)} /></label>
        <label>Status{' '}
          <select value={choice} onChange={(e) => setChoice(e.target.value)}>
            {Object.entries(CHOICES).map(([value, c]) => <option key={value} value={value}>{c.label}</option>)}
          </select>
        </label>
        <label>Search <input type="search" value={search} onChange={(e) => setSearch(e.target.value)}
          placeholder="a part of a value or subject" /></label>
      </form>
      {afters.map((after, i) => (
        <FactsPage key={after ?? ''} filters={filters} after={after} last={i === afters.length - 1}
          onMore={more} />
      ))}
    </section>
  );
}
