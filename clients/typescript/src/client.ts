/**
 * A small client for a graphmem server: queries and mutations over HTTP POST, subscriptions
 * over graphql-transport-ws, each typed by the document it runs (the generated documents in
 * ./generated/graphql.js, or any TypedDocumentNode).
 */

import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type GraphQLFormattedError } from 'graphql';
import { createClient, type Client as SocketClient } from 'graphql-ws';

import { GraphMemError } from './errors.js';

/** A WebSocket constructor: the platform's own, or one such as the `ws` package's. */
export type WebSocketImpl = unknown;

export interface ClientOptions {
  /** The GraphQL endpoint, e.g. `http://127.0.0.1:8000/graphql`. */
  url: string;
  /** An API key (`gm_sk_…`), sent as a bearer token; leave it out for a server without keys. */
  key?: string;
  /** The subscriptions' endpoint; by default `url` with ws:// or wss://. */
  wsUrl?: string;
  /** A WebSocket implementation where the platform has none (Node.js 20: the `ws` package). */
  webSocketImpl?: WebSocketImpl;
  /** A fetch implementation; the platform's by default. */
  fetch?: typeof fetch;
  /** Headers sent with every HTTP request, besides the key. */
  headers?: Record<string, string>;
}

type Variables<V> = V extends Record<string, never> ? Record<string, never> | undefined : V;

interface Answer<T> {
  data?: T | null;
  errors?: GraphQLFormattedError[];
}

export class GraphMemClient {
  readonly url: string;
  readonly wsUrl: string;
  private readonly key: string | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;
  private readonly webSocketImpl: WebSocketImpl | undefined;
  private socket: SocketClient | null = null;

  constructor(options: ClientOptions) {
    this.url = options.url;
    this.wsUrl = options.wsUrl ?? options.url.replace(/^http/, 'ws');
    this.key = options.key;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.headers = options.headers ?? {};
    this.webSocketImpl = options.webSocketImpl;
  }

  /** Runs a query or a mutation; its data, or a GraphMemError with the server's code. */
  async request<T, V>(document: TypedDocumentNode<T, V>, variables?: Variables<V>,
                      signal?: AbortSignal): Promise<T> {
    const response = await this.fetchImpl(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...this.headers,
        ...(this.key ? { authorization: `Bearer ${this.key}` } : {}),
      },
      body: JSON.stringify({ query: print(document), variables: variables ?? {} }),
      signal,
    });
    const retry = Number(response.headers.get('retry-after'));
    const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : null;
    let answer: Answer<T>;
    try {
      answer = (await response.json()) as Answer<T>;
    } catch {
      throw new GraphMemError([], response.status, retryAfter);
    }
    if (answer.errors?.length || answer.data == null) {
      throw new GraphMemError(answer.errors ?? [], response.status, retryAfter);
    }
    return answer.data;
  }

  /** Runs a subscription: each event's data in order, until the loop ends or the server
   * closes it; a refusal is thrown as a GraphMemError. */
  async *subscribe<T, V>(document: TypedDocumentNode<T, V>,
                         variables?: Variables<V>): AsyncGenerator<T, void, undefined> {
    const events = this.sockets().iterate<T>({
      query: print(document),
      variables: (variables ?? {}) as Record<string, unknown>,
    });
    try {
      for await (const event of events) {
        if (event.errors?.length || event.data == null) {
          throw new GraphMemError(event.errors ?? [], 0);
        }
        yield event.data;
      }
    } catch (e) {
      throw refusal(e);
    } finally {
      await events.return?.(undefined);
    }
  }

  /** Closes the subscriptions' socket (HTTP requests hold nothing open). */
  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    await socket?.dispose();
  }

  private sockets(): SocketClient {
    if (this.socket === null) {
      const impl = this.webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket;
      if (impl === undefined) {
        throw new Error('no WebSocket here: pass webSocketImpl (the `ws` package on Node.js 20)');
      }
      this.socket = createClient({
        url: this.wsUrl,
        webSocketImpl: impl,
        lazy: true,
        connectionParams: this.key ? { authorization: `Bearer ${this.key}` } : {},
        // graphql-ws retries a 4403 by default (five attempts, backoff: about 40 s); here it
        // means the key is not valid, which no retry changes
        shouldRetry: (e: unknown) => !isRefusedKey(e),
      });
    }
    return this.socket;
  }
}

/** A socket the server closed because of the key (4401, 4403). */
function isRefusedKey(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'code' in e
    && (e.code === 4401 || e.code === 4403);
}

/** What graphql-ws rejects with, as a GraphMemError: the `error` message's errors, or the
 * socket's close (4403: the key is not valid, or no longer). */
function refusal(e: unknown): unknown {
  if (e instanceof GraphMemError) return e;
  if (Array.isArray(e)) return new GraphMemError(e as GraphQLFormattedError[], 0);
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'number') {
    const reason = 'reason' in e && typeof e.reason === 'string' && e.reason ? e.reason
      : `the socket closed (${e.code})`;
    const code = isRefusedKey(e) ? 'UNAUTHENTICATED' : `CLOSED_${e.code}`;
    return new GraphMemError([{ message: reason, extensions: { code } }], 0);
  }
  return e;
}
