/**
 * One urql client per signed-in key: HTTP for queries and mutations, graphql-ws for the
 * live events. The key goes in the Authorization header and in the WebSocket's
 * connection_init payload, never in a URL.
 */
import { Client, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';

import { bearer } from '../app/session';
import { graphmemCache } from './cache';

export interface ApiClient {
  client: Client;
  close: () => void;
}

function endpoints(): { http: string; ws: string } {
  const { protocol, host } = window.location;
  return {
    http: `${protocol}//${host}/graphql`,
    ws: `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/graphql`,
  };
}

export function createApiClient(key: string): ApiClient {
  const { http, ws } = endpoints();
  const socket: WsClient = createWsClient({
    url: ws,
    connectionParams: { authorization: bearer(key) },
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: () => true,
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
          const input = { ...request, query: request.query || '' };
          return {
            subscribe(sink) {
              const unsubscribe = socket.subscribe(input, sink);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });
  return { client, close: () => void socket.dispose() };
}
