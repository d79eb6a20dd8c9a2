/**
 * The conflicts inbox: each open conflict with its facts side by side; an approver resolves
 * it by picking the winner (with a note) or dismisses it. The list follows live events; an
 * action that lost a race to someone else says so.
 */
import { useId, useState } from 'react';
import { useMutation, useQuery } from 'urql';

import { explain } from '../api/errors';
import { useSession } from '../app/context';
import { FactDetails } from '../components/FactCard';
import { ErrorNote, Loading } from '../components/Notice';
import { Value, When } from '../components/Value';
import { graphql } from '../gql';
import type { OpenConflictsQuery } from '../gql/graphql';

const PAGE = 50;

const OpenConflicts = graphql(`
  query OpenConflicts($space: String!, $first: Int) {
    conflicts(space: $space, status: OPEN, first: $first) {
      totalCount
      pageInfo { hasNextPage }
      edges { node { id kind status severity factIds note by createdAt } }
    }
  }
`);

export const FactById = graphql(`
  query FactById($space: String!, $id: ID!) {
    fact(space: $space, id: $id) { ...FactFields }
  }
`);

const ResolveConflict = graphql(`
  mutation ResolveConflict($space: String!, $conflictId: ID!, $winner: ID!, $note: String!) {
    resolveConflict(space: $space, conflictId: $conflictId, winner: $winner, note: $note) { message }
  }
`);

const DismissConflict = graphql(`
  mutation DismissConflict($space: String!, $conflictId: ID!, $note: String!) {
    dismissConflict(space: $space, conflictId: $conflictId, note: $note) { message }
  }
`);

type Conflict = OpenConflictsQuery['conflicts']['edges'][number]['node'];

function ClaimFact({ id }: { id: string }) {
  const { space } = useSession();
  const [{ data, error, fetching }] = useQuery({ query: FactById, variables: { space, id } });
  if (fetching && !data) return <Loading what="fact" />;
  if (error) return <ErrorNote error={error} />;
  return data ? <FactDetails fact={data.fact} /> : null;
}

function ConflictCard({ conflict, onDone }: { conflict: Conflict; onDone: (text: string) => void }) {
  const { space, caps } = useSession();
  const id = useId();
  const [winner, setWinner] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [resolveState, resolve] = useMutation(ResolveConflict);
  const [dismissState, dismiss] = useMutation(DismissConflict);
  const busy = resolveState.fetching || dismissState.fetching;

  const finish = (result: { error?: import('urql').CombinedError; data?: unknown }, message?: string) => {
    if (result.error) setError(explain(result.error));
    else if (message) onDone(message);
  };
  const onResolve = async () => {
    if (!winner) return setError('Pick the fact that wins first.');
    const r = await resolve({ space, conflictId: conflict.id, winner, note });
    finish(r, r.data ? `Conflict resolved. ${r.data.resolveConflict.message}` : undefined);
  };
  const onDismiss = async () => {
    const r = await dismiss({ space, conflictId: conflict.id, note });
    finish(r, r.data ? `Conflict dismissed. ${r.data.dismissConflict.message}` : undefined);
  };
  return (
    <article className="card conflict" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {conflict.kind.replace('_', ' ').toLowerCase()} conflict{' '}
        <span className="muted">· {conflict.severity} · opened <When at={conflict.createdAt} /></span>
      </h3>
      {conflict.note ? <p><Value text={conflict.note} /></p> : null}
      <fieldset className="claims" disabled={busy || !caps.approve}>
        <legend className="sr-only">Facts of this conflict</legend>
        {conflict.factIds.map((factId) => (
          <div className="claim" key={factId}>
            {caps.approve ? (
              <label className="pick">
                <input type="radio" name={`${id}-winner`} value={factId}
                  checked={winner === factId} onChange={() => setWinner(factId)} />
                This one wins
              </label>
            ) : null}
            <ClaimFact id={factId} />
          </div>
        ))}
      </fieldset>
      {caps.approve ? (
        <div className="actions">
          <label htmlFor={`${id}-note`}>Note</label>
          <input id={`${id}-note`} value={note} onChange={(e) => setNote(e.target.value)}
            placeholder="why (kept in the record)" />
          <button type="button" onClick={onResolve} disabled={busy}>Resolve</button>
          <button type="button" onClick={onDismiss} disabled={busy}>Dismiss (both stay valid)</button>
        </div>
      ) : null}
      <ErrorNote error={error} />
    </article>
  );
}

export function InboxView() {
  const { space, caps } = useSession();
  const [first, setFirst] = useState(PAGE);
  const [done, setDone] = useState<string | null>(null);
  const [{ data, error, fetching }] = useQuery({ query: OpenConflicts, variables: { space, first } });
  const conflicts = (data?.conflicts.edges ?? []).map((e) => e.node).filter((c) => c.kind !== 'PENDING');
  return (
    <section aria-labelledby="inbox-title">
      <h2 id="inbox-title">Conflicts inbox</h2>
      {!caps.approve ? (
        <p className="muted">This key can read conflicts; resolving them needs the approve capability.</p>
      ) : null}
      {done ? <p className="ok" role="status">{done}</p> : null}
      <ErrorNote error={error} />
      {fetching && !data ? <Loading what="conflicts" /> : null}
      {data && conflicts.length === 0 ? <p>No open conflicts in this space.</p> : null}
      {conflicts.map((c) => <ConflictCard key={c.id} conflict={c} onDone={setDone} />)}
      {data?.conflicts.pageInfo.hasNextPage ? (
        <button type="button" onClick={() => setFirst(first + PAGE)}>Show more</button>
      ) : null}
    </section>
  );
}
