/**
 * The normalised cache. Facts and conflicts are entities (keyed by id); the API's other
 * types have no identity of their own and are kept inside the result that holds them.
 * A write, a review action or a live event invalidates the reads it can change, so every
 * view that shows them fetches again.
 */
import { cacheExchange, type Cache, type KeyingConfig } from '@urql/exchange-graphcache';

const EMBEDDED = [
  'ActCheckResult', 'AuditEntry', 'AuditReport', 'ChangeResult', 'ConflictClaim',
  'ConflictConnection', 'ConflictEdge', 'ConflictOpenedEvent', 'Entity', 'EntityAttribute',
  'EntityConnection', 'EntityEdge', 'EntityLink', 'EntityView', 'FactChangedEvent',
  'FactConnection', 'FactEdge', 'History', 'HistoryEntry', 'OpenConflict', 'PageInfo',
  'Policy', 'PolicyResult', 'RecallResult', 'RecalledFact', 'ReceiptVerdict', 'RelatedEdge',
  'RelatedPath', 'RelatedResult', 'RememberResult', 'SourceRank', 'SpaceStats',
];

const keys: KeyingConfig = Object.fromEntries(EMBEDDED.map((name) => [name, () => null]));

/** The reads a change to a space's facts or conflicts can alter. */
const CHANGED_BY_WRITES = ['facts', 'fact', 'history', 'conflicts', 'pendingChanges', 'stats',
  'entities', 'entity', 'neighbourhood', 'recallRelated'];

export function invalidateReads(cache: Cache, fields: string[] = CHANGED_BY_WRITES): void {
  for (const field of cache.inspectFields('Query')) {
    if (fields.includes(field.fieldName)) {
      cache.invalidate('Query', field.fieldName, field.arguments ?? undefined);
    }
  }
}

const refresh = (_result: unknown, _args: unknown, cache: Cache) => invalidateReads(cache);

export const graphmemCache = cacheExchange({
  keys,
  updates: {
    Mutation: {
      rememberFacts: refresh,
      forgetFacts: refresh,
      remember: refresh,
      forget: refresh,
      confirmChange: refresh,
      rejectChange: refresh,
      resolveConflict: refresh,
      dismissConflict: refresh,
      createEntity: refresh,
    },
    Subscription: {
      factChanged: refresh,
      conflictOpened: refresh,
    },
  },
});
