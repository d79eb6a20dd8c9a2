/**
 * The cache: results are kept per query field and its arguments, and a write, a review
 * action or a live event invalidates the reads it can change, so every view that shows them
 * fetches again. Objects are kept inside the result that read them, facts and conflicts
 * included: the same fact read "as of" an earlier time has another status and value under
 * the same id, so normalising by id would let one view's past overwrite another's present.
 */
import { cacheExchange, type Cache, type KeyingConfig } from '@urql/exchange-graphcache';

const EMBEDDED = [
  'AuditEntry', 'AuditEntryConnection', 'AuditEntryEdge', 'AuditReport', 'Collision',
  'Conflict', 'ConflictClosedEvent', 'ConflictConnection', 'ConflictEdge',
  'ConflictOpenedEvent', 'Entity', 'EntityConnection', 'EntityEdge', 'Fact',
  'FactChangedEvent', 'FactConnection', 'FactEdge', 'History', 'HistoryEntry',
  'HistoryEntryEdge', 'PageInfo', 'PendingChangedEvent', 'ReceiptVerdict', 'Refinement',
  'RelatedEdge', 'RelatedPath', 'RelatedResult', 'RememberResult', 'ServerInfo', 'Space',
  'SpaceConnection', 'SpaceEdge', 'SpaceStats', 'Viewer', 'UndoResult', 'SlotChange',
  'SlotChangeConnection', 'SlotChangeEdge', 'ChangeCause',
];

const keys: KeyingConfig = Object.fromEntries(EMBEDDED.map((name) => [name, () => null]));

/** The reads a change to a space's facts or conflicts can alter. */
const CHANGED_BY_WRITES = ['facts', 'fact', 'history', 'conflicts', 'pendingChanges', 'stats',
  'spaces', 'entities', 'searchEntities', 'entity', 'entityHistory', 'neighbourhood',
  'recallRelated', 'changes'];

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
      undoEvent: refresh,
    },
    Subscription: {
      factChanged: refresh,
      conflictOpened: refresh,
      conflictClosed: refresh,
      pendingChanged: refresh,
    },
  },
});
