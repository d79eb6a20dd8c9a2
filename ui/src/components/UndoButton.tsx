/**
 * Undo one event (a write, a settlement, an undo): the button, then what the undo did and a
 * Redo button (undoing the undo). When later writes built on the event the server refuses,
 * naming them; a key with the approve capability may then undo anyway (force). A list that
 * re-reads itself after the undo (the timeline) passes `onDone` and shows the result itself,
 * since the row holding the button is replaced by then.
 */
import { useState } from 'react';
import { useMutation } from 'urql';

import { explain, failure } from '../api/errors';
import { useSession } from '../app/context';
import { graphql } from '../gql';
import { ErrorNote } from './Notice';

const UndoEvent = graphql(`
  mutation UndoEvent($space: String!, $eventId: ID!, $force: Boolean!) {
    undoEvent(space: $space, eventId: $eventId, force: $force) {
      eventId undone message lines forced
    }
  }
`);

export function UndoButton({ eventId, what, onDone }: {
  eventId: string; what: string; onDone?: (message: string) => void;
}) {
  const { space, caps } = useSession();
  const [state, run] = useMutation(UndoEvent);
  const [current, setCurrent] = useState(eventId);
  const [done, setDone] = useState<string | null>(null);
  const [times, setTimes] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [blocked, setBlocked] = useState(false);
  if (!caps.write) return null;
  const undo = async (target: string, force: boolean) => {
    const r = await run({ space, eventId: target, force });
    if (r.error) {
      setError(explain(r.error));
      setBlocked(failure(r.error).code === 'UNDO_BLOCKED');
      return;
    }
    const result = r.data?.undoEvent;
    if (result) {
      setError(null);
      setBlocked(false);
      if (onDone) onDone(result.message);
      else setDone(result.message);
      setCurrent(result.eventId);
      setTimes((n) => n + 1);
    }
  };
  const label = times % 2 ? 'Redo' : 'Undo';
  return (
    <div className="undo">
      {done ? <p role="status" className="undo-done">{done}</p> : null}
      <button type="button" disabled={state.fetching} onClick={() => void undo(current, false)}>
        {label} <span className="sr-only">{what}</span>
      </button>
      {error ? <ErrorNote error={error} /> : null}
      {blocked && caps.approve ? (
        <button type="button" disabled={state.fetching} onClick={() => void undo(current, true)}>
          {label} anyway <span className="sr-only">{what}</span>
        </button>
      ) : null}
    </div>
  );
}
