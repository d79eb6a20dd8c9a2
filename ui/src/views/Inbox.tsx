/**
 * The conflicts inbox: each open conflict with its facts side by side (read with the page:
 * `Conflict.facts`, one request), a keyset page at a time; an approver resolves it by
 * picking the winner (with a note) or dismisses it. Confirm-gate proposals have their own
 * view. The list follows live events and both time controls; an action that lost a race to
 * someone else says so, and every view fetches again.
 */
import { useId, useState } from 'react';
import { useMutation, type CombinedError } from 'urql';

import { explain, lostRace } from '../api/errors';
import { useSession } from '../app/context';
import { useFreshQuery, useRefresh } from '../app/refresh';
import { useTime } from '../app/time';
import { FactDetails } from '../components/FactCard';
import { ErrorNote, Loading, Outcome, type Notice } from '../components/Notice';
import { MoreButton, usePaging } from '../components/Pages';
import { Value, When } from '../components/Value';
import { graphql } from '../gql';
import type { InboxPageQuery } from '../gql/graphql';

const PAGE = 25;

const InboxPage = graphql(`
  query InboxPage($space: String!, $first: Int, $after: String, $asOf: DateTime,
                  $validAt: DateTime) {
    conflicts(space: $space, excludeKinds: [PENDING], first: $first, after: $after,
              asOf: $asOf, validAt: $validAt) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          id conflictId kind status severity subject scope note by createdAt
          facts { ...FactFields }
        }
      }
    }
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

type Conflict = InboxPageQuery['conflicts']['edges'][number]['node'];

function ConflictCard({ conflict, canAct, onDone }: {
  conflict: Conflict; canAct: boolean; onDone: (notice: Notice) => void;
}) {
  const { space, caps } = useSession();
  const refresh = useRefresh();
  const id = useId();
  const [winner, setWinner] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [resolveState, resolve] = useMutation(ResolveConflict);
  const [dismissState, dismiss] = useMutation(DismissConflict);
  const busy = resolveState.fetching || dismissState.fetching;
  const act = caps.approve && canAct;

  const finish = (result: { error?: CombinedError }, message?: string) => {
    if (result.error) {
      if (lostRace(result.error)) {
        onDone({ text: explain(result.error), ok: false });
        refresh();
      } else setError(explain(result.error));
    } else if (message) onDone({ text: message, ok: true });
  };
  const onResolve = async () => {
    if (!winner) return setError('Pick the fact that wins first.');
    const r = await resolve({ space, conflictId: conflict.conflictId, winner, note });
    finish(r, r.data ? `Conflict resolved. ${r.data.resolveConflict.message}` : undefined);
  };
  const onDismiss = async () => {
    const r = await dismiss({ space, conflictId: conflict.conflictId, note });
    finish(r, r.data ? `Conflict dismissed. ${r.data.dismissConflict.message}` : undefined);
  };
  return (
    <article className="card conflict" aria-labelledby={`${id}-title`} data-conflict={conflict.conflictId}>
      <h3 id={`${id}-title`}>
        {conflict.kind.replace('_', ' ').toLowerCase()} conflict on <Value text={conflict.subject} />{' '}
        <span className="muted">· {conflict.severity} · opened <When at={conflict.createdAt} />
          {conflict.status !== 'OPEN' ? ` · ${conflict.status.toLowerCase()}` : ''}</span>
      </h3>
      {conflict.note ? <p><Value text={conflict.note} /></p> : null}
      <fieldset className="claims" disabled={busy || !act}>
        <legend className="sr-only">Facts of this conflict</legend>
        {conflict.facts.map((fact) => (
          <div className="claim" key={fact.factId}>
            {act ? (
              <label className="pick">
                <input type="radio" name={`${id}-winner`} value={fact.factId}
                  checked={winner === fact.factId} onChange={() => setWinner(fact.factId)} />
                This one wins
              </label>
            ) : null}
            <FactDetails fact={fact} />
          </div>
        ))}
      </fieldset>
      {act ? (
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

function InboxPageView({ after, last, onMore, onDone }: {
  after: string | null; last: boolean; onMore: (cursor: string) => void;
  onDone: (notice: Notice) => void;
}) {
  const { space } = useSession();
  const { asOf, validAt } = useTime();
  const [{ data, error, fetching }] = useFreshQuery({ query: InboxPage,
    variables: { space, first: PAGE, after, asOf, validAt } });
  const conflicts = (data?.conflicts.edges ?? []).map((e) => e.node);
  return (
    <>
      <ErrorNote error={error} />
      {fetching && !data ? <Loading what="conflicts" /> : null}
      {after === null && data ? (
        <p className="muted" role="status">
          {data.conflicts.totalCount === 0
            ? `No open conflicts in this space${asOf || validAt ? ' at that time' : ''}.`
            : `${data.conflicts.totalCount} open conflict${data.conflicts.totalCount === 1 ? '' : 's'}`
              + `${asOf ? ` as of ${new Date(asOf).toLocaleString()}` : ''}`
              + `${validAt ? `, about facts true at ${new Date(validAt).toLocaleString()}` : ''}.`}
        </p>
      ) : null}
      {conflicts.map((c) => (
        <ConflictCard key={c.conflictId} conflict={c} canAct={!asOf && c.status === 'OPEN'}
          onDone={onDone} />
      ))}
      {last ? <MoreButton pageInfo={data?.conflicts.pageInfo} onMore={onMore} what="conflicts" /> : null}
    </>
  );
}

export function InboxView() {
  const { space, caps } = useSession();
  const { asOf, validAt } = useTime();
  const { afters, more } = usePaging(`${space}|${asOf}|${validAt}`);
  const [done, setDone] = useState<Notice | null>(null);
  return (
    <section aria-labelledby="inbox-title">
      <h2 id="inbox-title">Conflicts inbox</h2>
      {!caps.approve ? (
        <p className="muted">This key can read conflicts; resolving them needs the approve capability.</p>
      ) : null}
      {caps.approve && asOf ? (
        <p className="muted">Memory as it stood then: return the clock to now to resolve.</p>
      ) : null}
      <Outcome notice={done} />
      {afters.map((after, i) => (
        <InboxPageView key={after ?? ''} after={after} last={i === afters.length - 1}
          onMore={more} onDone={setDone} />
      ))}
    </section>
  );
}
