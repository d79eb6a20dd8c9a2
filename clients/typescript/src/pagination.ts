/**
 * Relay pagination: every connection of graphmem's schema takes `first` and `after` and
 * answers `pageInfo { hasNextPage endCursor }` with `nodes`; these helpers follow the cursor.
 */

import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

import type { GraphMemClient } from './client.js';

/** The part of a connection the helpers read. */
export interface Connection<N> {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: readonly N[];
}

/** Each page of a connection, fetched as the loop asks for it (`connection` picks the
 * connection out of the query's data). */
export async function* pages<T, V extends { after?: string | null }, N>(
  client: GraphMemClient, document: TypedDocumentNode<T, V>, variables: V,
  connection: (data: T) => Connection<N>): AsyncGenerator<Connection<N>, void, undefined> {
  let after = variables.after ?? null;
  for (;;) {
    const page = connection(await client.request(document, { ...variables, after } as never));
    yield page;
    if (!page.pageInfo.hasNextPage || page.pageInfo.endCursor === null) return;
    after = page.pageInfo.endCursor;
  }
}

/** Each node of a connection, page after page. */
export async function* nodes<T, V extends { after?: string | null }, N>(
  client: GraphMemClient, document: TypedDocumentNode<T, V>, variables: V,
  connection: (data: T) => Connection<N>): AsyncGenerator<N, void, undefined> {
  for await (const page of pages(client, document, variables, connection)) {
    yield* page.nodes;
  }
}

/** Every node of a connection, in one array (mind the size: `first` sets the page size, not
 * a limit). */
export async function collect<T, V extends { after?: string | null }, N>(
  client: GraphMemClient, document: TypedDocumentNode<T, V>, variables: V,
  connection: (data: T) => Connection<N>): Promise<N[]> {
  const all: N[] = [];
  for await (const node of nodes(client, document, variables, connection)) all.push(node);
  return all;
}
