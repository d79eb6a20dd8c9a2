/** What a graphmem server refused, with the code it gave (`extensions.code`). */

import type { GraphQLFormattedError } from 'graphql';

export class GraphMemError extends Error {
  /** The first error's code: BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT,
   * RATE_LIMITED, UNAVAILABLE, INTERNAL, or HTTP_<status> when no GraphQL answer came. */
  readonly code: string;
  /** Every error the server sent. */
  readonly errors: readonly GraphQLFormattedError[];
  /** The HTTP status (0 for a subscription's socket). */
  readonly status: number;
  /** Seconds to wait before trying again, when the server said so (`Retry-After`). */
  readonly retryAfter: number | null;

  constructor(errors: readonly GraphQLFormattedError[], status: number,
              retryAfter: number | null = null) {
    const first = errors[0];
    super(first?.message ?? `graphmem answered HTTP ${status}`);
    this.name = 'GraphMemError';
    this.errors = errors;
    this.status = status;
    this.retryAfter = retryAfter;
    const code = first?.extensions?.['code'];
    this.code = typeof code === 'string' ? code : `HTTP_${status}`;
  }

  /** Whether the same request may succeed later (the store was down, a rate was hit). */
  get retryable(): boolean {
    return this.code === 'UNAVAILABLE' || this.code === 'RATE_LIMITED';
  }
}
