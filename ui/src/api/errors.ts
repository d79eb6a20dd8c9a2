/**
 * What a person reads when a call fails: the API's own message, framed by its code
 * (`extensions.code`), so a wrong key, a refused action and a lost race each say so.
 */
import type { CombinedError } from 'urql';

export type Failure = { code: string; message: string };

export function failure(error: CombinedError): Failure {
  const first = error.graphQLErrors[0];
  if (first) {
    const code = typeof first.extensions?.code === 'string' ? first.extensions.code : 'ERROR';
    return { code, message: first.message };
  }
  const status = (error.response as Response | undefined)?.status;
  if (status === 401) return { code: 'UNAUTHENTICATED', message: 'the key was not accepted' };
  if (status === 429) return { code: 'RATE_LIMITED', message: 'too many requests; retry shortly' };
  return { code: 'NETWORK', message: error.networkError?.message ?? error.message };
}

/** A review action that someone else settled first. */
export function lostRace(error: CombinedError | undefined): boolean {
  return error !== undefined && failure(error).code === 'ALREADY_SETTLED';
}

/** One sentence for the person: why it failed and what it means for them. */
export function explain(error: CombinedError): string {
  const { code, message } = failure(error);
  switch (code) {
    case 'UNAUTHENTICATED':
      return `That key was not accepted: ${message}. Check the key, or create one with graphmem keys create.`;
    case 'FORBIDDEN':
      return `Not allowed for this key: ${message}`;
    case 'RATE_LIMITED':
      return `Slow down: ${message}`;
    case 'NOT_FOUND':
      return `Not found: ${message}`;
    case 'ALREADY_SETTLED':
      return `Someone else acted first: ${message}. The list has been refreshed.`;
    case 'BAD_USER_INPUT':
      return `Not accepted: ${message}`;
    case 'UNDO_BLOCKED':
      return `Not undone: ${message}`;
    case 'UNAVAILABLE':
      return `Unavailable: ${message}`;
    case 'NETWORK':
      return `graphmem did not answer: ${message}`;
    default:
      return message;
  }
}
