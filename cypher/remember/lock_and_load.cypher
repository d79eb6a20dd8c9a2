// One round trip at the start of a write: take the space's lock (every writer to one space
// updates its Space node first, so writers queue here across processes while other spaces
// go on), then read through the slot index the hot facts (ACTIVE, FLAGGED_CONFLICT) of
// exactly the slots this write touches, the archived values of the slots a past-tense fact
// names, and which COEXIST subjects are active in another scope.
MERGE (s:Space {key: $space})
ON CREATE SET s.created_at = $now
SET s.writes = coalesce(s.writes, 0) + 1
WITH s
CALL () {
  UNWIND $slots AS slot
  MATCH (f:Fact {space: $space, subject: slot.subject, scope: slot.scope})
  WHERE f.status IN ['ACTIVE', 'FLAGGED_CONFLICT']
  RETURN collect(f {@include(fragments/fact_columns)}) AS facts
}
CALL () {
  UNWIND $past AS slot
  MATCH (f:Fact {space: $space, subject: slot.subject, scope: slot.scope, status: 'HISTORICAL'})
  WHERE f.archived = true
  RETURN collect({subject: f.subject, scope: f.scope, value: f.value_key}) AS archived
}
CALL () {
  UNWIND $coexist AS slot
  MATCH (f:Fact {space: $space, subject: slot.subject, status: 'ACTIVE'})
  WHERE f.scope <> slot.scope
  RETURN collect(DISTINCT {subject: slot.subject, scope: slot.scope}) AS elsewhere
}
RETURN s.policy AS policy, facts, archived, elsewhere
