/** Messages for the reader: errors are announced to screen readers as they appear. */
import type { CombinedError } from 'urql';

import { explain } from '../api/errors';

export function ErrorNote({ error }: { error: CombinedError | string | null | undefined }) {
  if (!error) return null;
  const text = typeof error === 'string' ? error : explain(error);
  return <p className="error" role="alert">{text}</p>;
}

export function Loading({ what }: { what: string }) {
  return <p className="muted" role="status">Loading {what}…</p>;
}

/** What a review action did, or why it did not (a lost race: someone else acted first). */
export interface Notice { text: string; ok: boolean }

export function Outcome({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return notice.ok ? <p className="ok" role="status">{notice.text}</p> : <ErrorNote error={notice.text} />;
}
