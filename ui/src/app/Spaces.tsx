/**
 * Choosing a space: a key for the whole tenant picks from the tenant's spaces (`spaces`,
 * each with its counts at the chosen time); a key limited to some spaces is offered those.
 * Any space can also be typed (a new one, before anything was written to it).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from 'urql';

import type { Viewer } from '../api/viewer';
import { ErrorNote } from '../components/Notice';
import { MoreButton, usePaging } from '../components/Pages';
import { graphql } from '../gql';
import { recentSpaces } from './session';
import { useTime } from './time';

const PAGE = 50;

const TenantSpaces = graphql(`
  query TenantSpaces($first: Int, $after: String, $asOf: DateTime, $validAt: DateTime) {
    spaces(first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        key user agent run
        stats(asOf: $asOf, validAt: $validAt) { active openConflicts pendingChanges }
      }
    }
  }
`);

/** The API's name of a space (`user/agent/run`, inside the key's tenant). */
const nameOf = (s: { user: string; agent: string; run: string }) => `${s.user}/${s.agent}/${s.run}`;

function SpacesPage({ after, current, last, onOpen, onMore, onTotal }: {
  after: string | null; current: string; last: boolean;
  onOpen: (space: string) => void; onMore: (cursor: string) => void;
  onTotal: (total: number) => void;
}) {
  const { asOf, validAt } = useTime();
  const [{ data, error }] = useQuery({ query: TenantSpaces,
    variables: { first: PAGE, after, asOf, validAt } });
  const total = data?.spaces.totalCount;
  useEffect(() => { if (after === null && total !== undefined) onTotal(total); }, [after, total, onTotal]);
  return (
    <>
      {error ? <tr><td colSpan={5}><ErrorNote error={error} /></td></tr> : null}
      {(data?.spaces.nodes ?? []).map((s) => {
        const name = nameOf(s);
        const open = s.stats.openConflicts - s.stats.pendingChanges;
        return (
          <tr key={s.key} aria-current={s.key === current ? 'true' : undefined}>
            <th scope="row"><bdi>{name}</bdi></th>
            <td>{s.stats.active}</td><td>{open}</td><td>{s.stats.pendingChanges}</td>
            <td><button type="button" className="link" onClick={() => onOpen(name)}>
              Open<span className="sr-only"> <bdi>{name}</bdi></span></button></td>
          </tr>
        );
      })}
      {last ? (
        <tr><td colSpan={5}><MoreButton pageInfo={data?.spaces.pageInfo} onMore={onMore} what="spaces" /></td></tr>
      ) : null}
    </>
  );
}

/** `current`: the full key of the space open now. */
function TenantSpaceList({ current, onOpen }: { current: string; onOpen: (space: string) => void }) {
  const { asOf, validAt } = useTime();
  const { afters, more } = usePaging(`${asOf}|${validAt}`);
  const [total, setTotal] = useState<number | null>(null);
  return (
    <details className="spaces">
      <summary>Spaces of this tenant{total !== null ? ` (${total})` : ''}</summary>
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Spaces of this tenant">
        <table>
          <thead><tr><th scope="col">Space</th><th scope="col">Active</th>
            <th scope="col">Open conflicts</th><th scope="col">Pending</th><th scope="col"><span className="sr-only">Open</span></th></tr></thead>
          <tbody>
            {afters.map((after, i) => (
              <SpacesPage key={after ?? ''} after={after} current={current}
                last={i === afters.length - 1} onOpen={onOpen} onMore={more} onTotal={setTotal} />
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export function SpacePicker({ space, spaceKey, viewer, onSpace }: {
  space: string; spaceKey: string; viewer: Viewer; onSpace: (s: string) => Promise<string | null>;
}) {
  const id = useId();
  const [value, setValue] = useState(space);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setValue(space), [space]);
  const open = async (next: string) => {
    const target = next.trim() || 'default';
    setValue(target);
    if (target !== space) setError(await onSpace(target));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void open(value);
  };
  const offered = [...new Set([...(viewer.allowedSpaces ?? []), ...recentSpaces()])];
  return (
    <div className="space-picker">
      <form onSubmit={submit}>
        <label htmlFor={`${id}-space`}>Space</label>
        <input id={`${id}-space`} list={`${id}-offered`} value={value} spellCheck={false}
          onChange={(e) => setValue(e.target.value)} />
        <datalist id={`${id}-offered`}>
          {offered.map((s) => <option key={s} value={s} />)}
        </datalist>
        <button type="submit">Open</button>
      </form>
      {viewer.tenantWide ? <TenantSpaceList current={spaceKey} onOpen={(s) => void open(s)} /> : null}
      <ErrorNote error={error} />
    </div>
  );
}
