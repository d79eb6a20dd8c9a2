/**
 * Pending approvals (the confirm gate): each proposed change beside the current value it
 * would replace; an approver confirms or rejects it.
 */
import { useState } from 'react';
import { useMutation, useQuery, type CombinedError } from 'urql';

import { explain } from '../api/errors';
import { useSession } from '../app/context';
import { FactDetails } from '../components/FactCard';
import { ErrorNote, Loading } from '../components/Notice';
import { Value } from '../components/Value';
import { graphql } from '../gql';
import type { FactFieldsFragment } from '../gql/graphql';

const PendingChanges = graphql(`
  query PendingChanges($space: String!, $first: Int) {
    pendingChanges(space: $space, first: $first) {
      totalCount
      edges { node { ...FactFields } }
    }
  }
`);

const CurrentOfSubject = graphql(`
  query CurrentOfSubject($space: String!, $subject: String!) {
    facts(space: $space, subject: $subject, first: 20) {
      edges { node { ...FactFields } }
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

function Replaces({ proposal }: { proposal: FactFieldsFragment }) {
  const { space } = useSession();
  const [{ data, error }] = useQuery({
    query: CurrentOfSubject, variables: { space, subject: proposal.subject },
  });
  if (error) return <ErrorNote error={error} />;
  if (!data) return <Loading what="current value" />;
  const current = data.facts.edges.map((e) => e.node)
    .filter((f) => f.scope === proposal.scope && f.id !== proposal.id);
  if (current.length === 0) return <p className="muted">Nothing current: this would be a new value.</p>;
  return <>{current.map((f) => <FactDetails key={f.id} fact={f} />)}</>;
}

function Proposal({ fact, onDone }: { fact: FactFieldsFragment; onDone: (t: string) => void }) {
  const { space, caps } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [confirmState, confirm] = useMutation(ConfirmChange);
  const [rejectState, reject] = useMutation(RejectChange);
  const busy = confirmState.fetching || rejectState.fetching;
  const settle = (r: { error?: CombinedError }, message: string | undefined) => {
    if (r.error) setError(explain(r.error));
    else if (message) onDone(message);
  };
  return (
    <article className="card" aria-label={`Proposed change of ${fact.subject}`}>
      <h3><Value text={fact.subject} /></h3>
      <div className="side-by-side">
        <div><h4>Proposed</h4><FactDetails fact={fact} /></div>
        <div><h4>Would replace</h4><Replaces proposal={fact} /></div>
      </div>
      {caps.approve ? (
        <div className="actions">
          <button type="button" disabled={busy} onClick={async () => {
            const r = await confirm({ space, factId: fact.id });
            settle(r, r.data ? `Change confirmed. ${r.data.confirmChange.message}` : undefined);
          }}>Confirm</button>
          <button type="button" disabled={busy} onClick={async () => {
            const r = await reject({ space, factId: fact.id });
            settle(r, r.data?.rejectChange.message);
          }}>Reject</button>
        </div>
      ) : null}
      <ErrorNote error={error} />
    </article>
  );
}

export function PendingView() {
  const { space, caps } = useSession();
  const [first, setFirst] = useState(50);
  const [done, setDone] = useState<string | null>(null);
  const [{ data, error, fetching }] = useQuery({ query: PendingChanges, variables: { space, first } });
  const facts = (data?.pendingChanges.edges ?? []).map((e) => e.node);
  return (
    <section aria-labelledby="pending-title">
      <h2 id="pending-title">Pending approvals</h2>
      {!caps.approve ? (
        <p className="muted">This key can read proposals; confirming them needs the approve capability.</p>
      ) : null}
      {done ? <p className="ok" role="status">{done}</p> : null}
      <ErrorNote error={error} />
      {fetching && !data ? <Loading what="pending changes" /> : null}
      {data && facts.length === 0 ? <p>No change is waiting for approval.</p> : null}
      {facts.map((f) => <Proposal key={f.id} fact={f} onDone={setDone} />)}
      {data && data.pendingChanges.totalCount > facts.length ? (
        <button type="button" onClick={() => setFirst(first + 50)}>Show more</button>
      ) : null}
    </section>
  );
}
