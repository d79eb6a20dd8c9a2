/**
 * The client against a live graphmem server (GRAPHMEM_URL, GRAPHMEM_KEY: the Python suite's
 * tests/api/test_typescript_client.py starts one and runs this file): a mutation, queries,
 * Relay pagination over several pages, a graphql-transport-ws subscription, and refusals
 * with their codes.
 */

import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import WebSocket from 'ws';

import {
  ChangeCursorDocument, FactChangedDocument, FactDocument, FactsDocument, GraphMemClient,
  GraphMemError, RememberFactsDocument, collect, pages,
} from '../src/index.js';

const url = process.env['GRAPHMEM_URL'];
const key = process.env['GRAPHMEM_KEY'];
if (!url || !key) throw new Error('set GRAPHMEM_URL and GRAPHMEM_KEY to a running server');

const client = new GraphMemClient({ url, key, webSocketImpl: WebSocket });
after(() => client.close());

test('a mutation and the queries that read it back', async () => {
  const written = await client.request(RememberFactsDocument, {
    space: 'alice', facts: [{ subject: 'home_city', value: 'Lisbon', confidence: 0.95 }],
  });
  const [result] = written.rememberFacts;
  assert.equal(result?.action, 'ADD');
  assert.ok(result?.factId);
  const page = await client.request(FactsDocument, { space: 'alice', subject: 'home_city' });
  assert.deepEqual(page.facts.nodes.map((n) => n.value), ['Lisbon']);
  const one = await client.request(FactDocument, { space: 'alice', id: result.factId });
  assert.equal(one.fact?.status, 'ACTIVE');
  assert.ok(one.fact?.recordedAt);
});

test('Relay pagination follows the cursor to the last page', async () => {
  const facts = Array.from({ length: 5 }, (_, n) => ({
    subject: `pet_${n}`, value: `cat ${n}`, confidence: 0.95 }));
  await client.request(RememberFactsDocument, { space: 'paged', facts });
  const seen: number[] = [];
  for await (const page of pages(client, FactsDocument, { space: 'paged', first: 2 },
                                 (data) => data.facts)) {
    seen.push(page.nodes.length);
  }
  assert.deepEqual(seen, [2, 2, 1]);
  const all = await collect(client, FactsDocument, { space: 'paged', first: 2 },
                            (data) => data.facts);
  assert.deepEqual(all.map((n) => n.subject).sort(), facts.map((f) => f.subject));
});

test('a subscription hears a write made after its cursor', async () => {
  const cursor = (await client.request(ChangeCursorDocument, { space: 'heard' })).changeCursor;
  const events = client.subscribe(FactChangedDocument, { space: 'heard', after: cursor });
  const first = events.next();  // from the cursor on: a write before the socket opens is heard
  await client.request(RememberFactsDocument, {
    space: 'heard', facts: [{ subject: 'home_city', value: 'Porto', confidence: 0.95 }],
  });
  const heard = await first;
  assert.equal(heard.done, false);
  assert.equal(heard.value?.factChanged.subject, 'home_city');
  assert.equal(heard.value?.factChanged.value, 'Porto');
  await events.return(undefined);
});

test('a refusal is a GraphMemError with the server\'s code', async () => {
  await assert.rejects(
    client.request(FactsDocument, { space: 'alice', first: -1 }),
    (e: unknown) => e instanceof GraphMemError && e.code === 'BAD_USER_INPUT' && !e.retryable);
  let sockets = 0;
  class Counted extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      sockets += 1;
    }
  }
  const stranger = new GraphMemClient({ url, key: 'gm_sk_not-a-key', webSocketImpl: Counted });
  await assert.rejects(
    stranger.request(FactsDocument, { space: 'alice' }),
    (e: unknown) => e instanceof GraphMemError && e.code === 'UNAUTHENTICATED'
      && e.status === 401);
  await assert.rejects(
    stranger.subscribe(FactChangedDocument, { space: 'alice' }).next(),
    (e: unknown) => e instanceof GraphMemError && e.code === 'UNAUTHENTICATED');
  assert.equal(sockets, 1, 'a refused key is final: the socket is not opened again');
  await stranger.close();
});
