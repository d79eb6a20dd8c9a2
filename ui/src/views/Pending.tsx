/**
 * Pending approvals (the confirm gate): each proposed change beside the current value it
 * would replace, both read with the page (the confirm-gate conflicts with their facts: the
 * flagged ones are the proposals, the others what they would replace); an approver confirms
 * or rejects it.
 */
import { useState } from 'react';
import { useMutation, type CombinedError } from 'urql';

import { explain, lostRace } from '../api/errors';
import { useSession } from '../app/context';
import { useFreshQuery, useRefresh } from '../app/refresh';
import { useTime } from '../app/time';
import { FactDetails } from '../components/FactCard';
import { ErrorNote, Loading, Outcome, type Notice } from '../components/Notice';
import { MoreButton, usePaging } from '../components/Pages';
import { Value } from '../components/Value';
import { graphql } from '../gql';
import type { FactFieldsFragment } from '../gql/graphql';

const PAGE = 25;

const PendingPage = graphql(`
  query PendingPage($space: String!, $first: Int, $after: String, $asOf: DateTime,
                    $validAt: DateTime) {
    conflicts(space: $space, kinds: [PENDING], first: $first, after: $after, asOf: $asOf,
              validAt: $validAt) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { conflictId status note facts { ...FactFields } } }
    }
  }
`);

const ConfirmChange = graphql(`
  mutation ConfirmChange($space: String!, $factId: ID!) {
    confirmChange(space: $space, factId: $factId) { message }
  }
`);

const RejectChange = graphql(`
  mutation RejectChange($space: String!, $factId: ID!) {
    rejectChange(space: $space, factId: $factId) { message }
  }
`);

function Proposal({ fact, replaces, note, canAct, onDone }: {
  fact: FactFieldsFragment; replaces: FactFieldsFragment[]; note: string; canAct: boolean;
  onDone: (notice: Notice) => void;
}) {
  const { space, caps } = useSession();
  const refresh = useRefresh();
  const [error, setError] = useState<string | null>(null);
  const [confirmState, confirm] = useMutation(ConfirmChange);
  const [rejectState, reject] = useMutation(RejectChange);
  const busy = confirmState.fetching || rejectState.fetching;
  const settle = (r: { error?: CombinedError }, message: string | undefined) => {
    if (r.error) {
      if (lostRace(r.error)) {
        onDone({ text: explain(r.error), ok: false });
        refresh();
      } else setError(explain(r.error));
    } else if (message) onDone({ text: message, ok: true });
  };
  return (
    <article className="card proposal" aria-label={`Proposed change of ${fact.subject}`}>
      <h3><Value text={fact.subject} /></h3>
      {note ? <p className="muted"><Value text={note} /></p> : null}
      <div className="side-by-side">
        <div><h4>Proposed</h4><FactDetails fact={fact} /></div>
        <div>
          <h4>Would replace</h4>
          {replaces.length
            ? replaces.map((f) => <FactDetails key={f.factId} fact={f} />)
            : <p className="muted">Nothing current: this would be a new value.</p>}
        </div>
      </div>
      {caps.approve && canAct ? (
        <div className="actions">
          <button type="button" disabled={busy} onClick={async () => {
            const r = await confirm({ space, factId: fact.factId });
            settle(r, r.data ? `Change confirmed. ${r.data.confirmChange.message}` : undefined);
          }}>Confirm</button>
          <button type="button" disabled={busy} onClick={async () => {
            const r = await reject({ space, factId: fact.factId });
            settle(r, r.data?.rejectChange.message);
          }}>Reject</button>
        </div>
      ) : null}
      <ErrorNote error={error} />
    </article>
  );
}

function PendingPageView({ after, last, onMore, onDone }: {
  after: string | null; last: boolean; onMore: (cursor: string) => void;
  onDone: (notice: Notice) => void;
}) {
  const { space } = useSession();
  const { asOf, validAt } = useTime();
  const [{ data, error, fetching }] = useFreshQuery({ query: PendingPage,
    variables: { space, first: PAGE, after, asOf, validAt } });
  const gates = (data?.conflicts.edges ?? []).map((e) => e.node);
  return (
    <>
      <ErrorNote error={error} />
      {fetching && !data ? <Loading what="pending changes" /> : null}
      {after === null && data && gates.length === 0 ? (
        <p>No change is waiting for approval{asOf || validAt ? ' at that time' : ''}.</p>
      ) : null}
      {gates.flatMap((gate) => {
        const proposals = gate.facts.filter((f) => f.status === 'FLAGGED_CONFLICT');
        const replaces = gate.facts.filter((f) => f.status !== 'FLAGGED_CONFLICT');
        return proposals.map((p) => (
          <Proposal key={p.factId} fact={p} replaces={replaces} note={gate.note}
            canAct={!asOf && gate.status === 'OPEN'} onDone={onDone} />
        ));
      })}
      {last ? <MoreButton pageInfo={data?.conflicts.pageInfo} onMore={onMore} what="proposals" /> : null}
    </>
  );
}

export function PendingView() {
  const { space, caps } = useSession();
  const { asOf, validAt } = useTime();
  const { afters, more } = usePaging(`${space}|${asOf}|${validAt}`);
  const [done, setDone] = useState<Notice | null>(null);
  return (
    <section aria-labelledby="pending-title">
      <h2 id="pending-title">Pending approvals</h2>
      {!caps.approve ? (
        <p className="muted">This key can read proposals; confirming them needs the approve capability.</p>
      ) : null}
      {caps.approve && asOf ? (
        <p className="muted">Memory as it stood then: return the clock to now to confirm or reject.</p>
      ) : null}
      <Outcome notice={done} />
      {afters.map((after, i) => (
        <PendingPageView key={after ?? ''} after={after} last={i === afters.length - 1}
          onMore={more} onDone={setDone} />
      ))}
    </section>
  );
}
