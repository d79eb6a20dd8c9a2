/**
 * A list read a keyset page at a time: page n+1 is read `after` page n's end cursor, so a
 * page shows exactly what follows the one above it even while others write. The pages
 * start over when the filters change.
 */
import { useCallback, useState } from 'react';

export interface Paging {
  /** The `after` of each page read so far (null: the first). */
  afters: (string | null)[];
  more: (endCursor: string) => void;
}

export function usePaging(filters: string): Paging {
  const [state, setState] = useState<{ filters: string; afters: (string | null)[] }>(
    { filters, afters: [null] });
  const afters = state.filters === filters ? state.afters : [null];
  const more = useCallback((endCursor: string) => setState((s) => ({
    filters, afters: [...(s.filters === filters ? s.afters : [null]), endCursor],
  })), [filters]);
  return { afters, more };
}

/** The button under the last page, when more follow. */
export function MoreButton({ pageInfo, onMore, what }: {
  pageInfo: { hasNextPage: boolean; endCursor?: string | null } | undefined;
  onMore: (endCursor: string) => void;
  what: string;
}) {
  if (!pageInfo?.hasNextPage || !pageInfo.endCursor) return null;
  const cursor = pageInfo.endCursor;
  return <button type="button" className="more" onClick={() => onMore(cursor)}>Show more {what}</button>;
}
