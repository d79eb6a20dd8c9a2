/**
 * One urql client per signed-in key: HTTP for queries and mutations, graphql-ws for the
 * live events. The key goes in the Authorization header and in the WebSocket's
 * connection_init payload, never in a URL.
 *
 * Subscriptions resume: each remembers the `cursor` of the last event it delivered, and when
 * the connection drops it subscribes again `after` it (with a growing pause), so the server
 * replays everything committed meanwhile, nothing twice. Reconnecting is done here rather
 * than by graphql-ws, whose own retry would send the first variables again.
 */
import { Client, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';

import { bearer } from '../app/session';
import { graphmemCache } from './cache';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

/** Whether live events flow, for the header (a store for React's useSyncExternalStore). */
export class LiveStatus {
  private state: LiveState = 'connecting';
  private readonly listeners = new Set<() => void>();

  get = (): LiveState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(state: LiveState): void {
    if (state === this.state) return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}

export interface ApiClient {
  client: Client;
  live: LiveStatus;
  close: () => void;
}

/** Close codes after which trying again cannot help (a bad request, a key refused). */
const FINAL_CLOSE = new Set([4400, 4401, 4403, 4406]);
const PAUSES_MS = [250, 500, 1000, 2000, 4000];

function endpoints(): { http: string; ws: string } {
  const { protocol, host } = window.location;
  return {
    http: `${protocol}//${host}/graphql`,
    ws: `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/graphql`,
  };
}

function closeCode(error: unknown): number | null {
  if (typeof error === 'object' && error !== null && 'code' in error
      && typeof (error as { code: unknown }).code === 'number') {
    return (error as { code: number }).code;
  }
  return null;
}

/** A dropped connection, or the server asking to come back later, is worth another try. */
function retryable(error: unknown): boolean {
  if (Array.isArray(error)) {
    return error.some((e: { extensions?: { code?: unknown } }) =>
      e.extensions?.code === 'RATE_LIMITED' || e.extensions?.code === 'UNAVAILABLE');
  }
  const code = closeCode(error);
  return code === null || !FINAL_CLOSE.has(code);
}

/** The cursor of the event a subscription result carries (its one root field's). */
function cursorOf(result: { data?: unknown }): string | null {
  const data = result.data;
  if (typeof data !== 'object' || data === null) return null;
  const event = Object.values(data)[0] as { cursor?: unknown } | null | undefined;
  return typeof event?.cursor === 'string' ? event.cursor : null;
}

interface Request { query: string; variables?: Record<string, unknown> | undefined }
interface Observer {
  next: (value: { data?: unknown }) => void;
  error: (error: unknown) => void;
  complete: () => void;
}

function resumable(socket: WsClient, live: LiveStatus, request: Request) {
  return {
    subscribe(sink: Observer) {
      let after = (request.variables?.after as string | null | undefined) ?? null;
      let stopped = false;
      let attempt = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let dispose = () => undefined as void;
      const start = () => {
        dispose = socket.subscribe({ ...request, variables: { ...request.variables, after } }, {
          next(result) {
            attempt = 0;
            after = cursorOf(result) ?? after;
            sink.next(result);
          },
          error(error) {
            if (stopped) return;
            if (retryable(error)) {
              live.set('reconnecting');
              timer = setTimeout(start, PAUSES_MS[Math.min(attempt++, PAUSES_MS.length - 1)]);
              return;
            }
            live.set('stopped');
            sink.error(error);
          },
          complete() {
            if (!stopped) sink.complete();
          },
        });
      };
      start();
      return {
        unsubscribe() {
          stopped = true;
          clearTimeout(timer);
          dispose();
        },
      };
    },
  };
}

export function createApiClient(key: string): ApiClient {
  const { http, ws } = endpoints();
  const live = new LiveStatus();
  const socket: WsClient = createWsClient({
    url: ws,
    connectionParams: { authorization: bearer(key) },
    lazy: true,
    retryAttempts: 0,
    on: {
      connected: () => live.set('live'),
      closed: () => { if (live.get() === 'live') live.set('reconnecting'); },
    },
  });
  const client = new Client({
    url: http,
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: () => ({ headers: { Authorization: bearer(key) } }),
    exchanges: [
      graphmemCache,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          return resumable(socket, live, { ...request, query: request.query || '' });
        },
      }),
    ],
  });
  return { client, live, close: () => void socket.dispose() };
}
