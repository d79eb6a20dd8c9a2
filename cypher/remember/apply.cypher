// Every change of one write in one round trip, in the order that keeps references valid:
// new facts first, then in-place refines, status changes, retirements, the projection's
// status labels and edges, and the outbox entry the mirror applies later (its seq, the
// space's write counter taken with the lock, orders one space's entries as they committed;
// it carries the audited call's row, so the row survives a crash after the commit). Empty lists cost nothing. Times equal to the
// write's own instant travel once as $now (rows only flag them): converting thousands of
// datetimes on the way in was the largest cost of a batch. A backfilled fact's changes carry
// their own instant (`at` on its refine and retirement rows), else they happen at $now. A
// retirement that closes a fact's validity records when (valid_to_at): read as of an earlier
// instant, it was open. The write's text is stored once, on its Message ($messages: none or
// one), which the facts that took it name instead of holding a copy. Each change is stamped
// with the event that made it ($event, null outside an event): a fact's `event` recorded it,
// `held_event` made it current, `retired_event` retired it, `refined_event` last refined it.
CALL () {
  UNWIND $messages AS m
  CREATE (:Message {id: m.message_id, space: $space, text: m.text, recorded_at: $now})
}
CALL () {
  UNWIND $facts AS row
  CREATE (f:Fact)
  SET f = row.props
  SET f.recorded_at = CASE WHEN row.stamped.recorded_at THEN $now ELSE f.recorded_at END,
      f.held_from = CASE WHEN row.stamped.held_from THEN $now ELSE f.held_from END,
      f.valid_from = CASE WHEN row.stamped.valid_from THEN $now ELSE f.valid_from END,
      f.valid_to = CASE WHEN row.stamped.valid_to THEN $now ELSE f.valid_to END,
      f.retired_at = CASE WHEN row.stamped.retired_at THEN $now ELSE f.retired_at END
  SET f.event = $event,
      f.held_event = CASE WHEN f.held_from IS NOT NULL THEN $event END,
      f.retired_event = CASE WHEN f.retired_at IS NOT NULL THEN $event END
  SET f:$(CASE f.status WHEN 'ACTIVE' THEN 'Active' WHEN 'FLAGGED_CONFLICT' THEN 'Flagged'
               WHEN 'SUPERSEDED' THEN 'Superseded' ELSE 'Historical' END)
}
CALL () {
  UNWIND $refines AS row
  MATCH (f:Fact {id: row.id})
  WHERE f.space = $space
  SET f.revisions = coalesce(f.revisions, []) + [row.revision],
      f.value = row.value, f.value_key = row.value_key, f.search_text = row.search_text,
      f.confidence = row.confidence, f.refined_at = coalesce(row.at, $now),
      f.refined_event = $event
}
CALL () {
  UNWIND $statuses AS row
  MATCH (f:Fact {id: row.id})
  WHERE f.space = $space
  SET f.held_event = CASE WHEN row.status = 'ACTIVE' AND f.held_from IS NULL THEN $event
                          ELSE f.held_event END,
      f.retired_event = CASE WHEN row.status IN ['SUPERSEDED', 'HISTORICAL'] THEN $event
                             ELSE f.retired_event END
  SET f.status = row.status,
      f.held_from = CASE WHEN row.status = 'ACTIVE' THEN coalesce(f.held_from, $now)
                         ELSE f.held_from END,
      f.retired_at = CASE WHEN row.status IN ['SUPERSEDED', 'HISTORICAL'] THEN $now
                          ELSE f.retired_at END,
      f.coexist = coalesce(row.coexist, f.coexist)
}
CALL () {
  UNWIND $supersedes AS e
  MATCH (new:Fact {id: e.new}), (old:Fact {id: e.old})
  WHERE old.space = $space AND new.space = $space
  CREATE (new)-[:SUPERSEDES {at: coalesce(e.at, $now)}]->(old)
  SET old.valid_to_at = CASE WHEN old.valid_to IS NULL THEN coalesce(e.at, $now)
                             ELSE old.valid_to_at END,
      old.status = 'SUPERSEDED', old.retired_at = coalesce(e.at, $now),
      old.valid_to = coalesce(old.valid_to, e.valid_to, $now), old.retired_event = $event
}
CALL () {
  UNWIND $retracts AS e
  MATCH (tomb:Fact {id: e.new}), (old:Fact {id: e.old})
  WHERE old.space = $space AND tomb.space = $space
  CREATE (tomb)-[:RETRACTS {at: coalesce(e.at, $now)}]->(old)
  SET old.valid_to_at = CASE WHEN old.valid_to IS NULL THEN coalesce(e.at, $now)
                             ELSE old.valid_to_at END,
      old.status = 'SUPERSEDED', old.retired_at = coalesce(e.at, $now),
      old.valid_to = coalesce(old.valid_to, e.valid_to, $now), old.retired_event = $event
}
CALL () {
  // The projection kept in step with every existing fact the write changed ($synced, new
  // facts changed again by a later decision of the write included), as graph/sync_facts
  // does; inlined here to save the write a round trip. A new fact takes its status label
  // as it is created, and has no edges yet (graph/project_facts adds them).
  UNWIND $synced AS id
  MATCH (f:Fact {id: id})
  WHERE f.space = $space
  REMOVE f:Active:Flagged:Superseded:Historical
  SET f:$(CASE f.status WHEN 'ACTIVE' THEN 'Active' WHEN 'FLAGGED_CONFLICT' THEN 'Flagged'
               WHEN 'SUPERSEDED' THEN 'Superseded' ELSE 'Historical' END)
  WITH f
  WHERE f.rel_type IS NOT NULL
  MATCH (f)-[:ABOUT {role: 'head'}]->(h:Entity), (f)-[:ABOUT {role: 'tail'}]->(t:Entity)
  MATCH (h)-[r]->(t)
  WHERE r.fact_id = f.id
  SET r += f {.status, .confidence, .valid_from, .valid_to, .held_from, .retired_at,
              .recorded_at, .archived, .coexist, .relation, .subject}
}
MATCH (s:Space {key: $space})
CALL (s) {
  UNWIND $outbox AS o
  CREATE (:Outbox {id: o.id, space: $space, kind: o.kind, payload: o.payload,
                   created_at: $now, seq: s.writes, done: false, audit: o.audit})
}
RETURN s.writes AS seq
