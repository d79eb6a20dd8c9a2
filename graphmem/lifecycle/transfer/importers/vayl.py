"""Vayl's `export_memory` JSON: `{space, count, records, decisions, audit, receipts}`.

Each record (id, subject, value, scope, status, supersedes, confidence, metadata) becomes a
fact replayed in Vayl's own order (its ids), labelled so reconciliation reaches the status
Vayl held: a retraction tombstone `(retracted: X)` retracts X, another HISTORICAL record is
a past fact (archived), a FLAGGED_CONFLICT record is flagged, a record that superseded one
supersedes. The export holds no times, sources or sentences: facts are recorded at import
time, with the source a decision snapshot names where one does. Decisions, audit entries
and receipts belong to Vayl's own signed chain and are reported, not imported.
"""

from __future__ import annotations

from typing import Any

from graphmem.errors import InvalidInput
from graphmem.lifecycle.transfer.importers.items import Item, Source
from graphmem.model.transfer import plural

TOMBSTONE = "(retracted: "
MAPPED = frozenset({"id", "subject", "value", "scope", "status", "supersedes", "confidence",
                    "metadata"})


def _sources(data: dict[str, Any]) -> dict[Any, str]:
    """Who asserted a record, from the decision snapshots (`beliefs`) that name it."""
    found: dict[Any, str] = {}
    for decision in data.get("decisions") or ():
        for belief in decision.get("beliefs") or ():
            if isinstance(belief, dict) and belief.get("source"):
                found[belief.get("id")] = str(belief["source"])
    return found


def _fact(record: dict[str, Any], by_id: dict[Any, dict[str, Any]]) -> dict[str, Any]:
    value, status = str(record.get("value") or ""), record.get("status")
    metadata = dict(record.get("metadata") or {})
    fact: dict[str, Any] = {"subject": record.get("subject"), "value": value,
                            "scope": record.get("scope") or "global",
                            "confidence": record.get("confidence"),
                            "kind": metadata.pop("kind", None) or "state"}
    if metadata.get("reason"):
        fact["reason"] = str(metadata.pop("reason"))
    fact["metadata"] = {**metadata, "vayl_id": record.get("id")}
    target = by_id.get(record.get("supersedes"))
    if status == "HISTORICAL" and value.startswith(TOMBSTONE) and target is not None:
        fact.update(value=str(target.get("value") or ""), action="RETRACT")
    elif status == "HISTORICAL":
        fact["time_ref"] = "past"
    elif status == "FLAGGED_CONFLICT":
        fact["action"] = "FLAG"
    elif target is not None:
        fact["action"] = "SUPERSEDE"
    return fact


def load(data: object, digest: str) -> Source:
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        raise InvalidInput("not a Vayl export_memory document (no records list)")
    records = [r for r in data["records"] if isinstance(r, dict)]
    if len(records) != len(data["records"]):
        raise InvalidInput("a Vayl record is not a JSON object")
    by_id = {r.get("id"): r for r in records}
    sources = _sources(data)
    items = []
    for record in sorted(records, key=lambda r: (r.get("id") is None, r.get("id"))):
        where = f"vayl record #{record.get('id')}"
        if not record.get("subject"):
            raise InvalidInput(f"{where}: no subject")
        items.append(Item(_fact(record, by_id), where, None, sources.get(record.get("id"))))
    return Source("vayl", tuple(items), _notes(data, records, sources), digest)


def _notes(data: dict[str, Any], records: list[dict[str, Any]], sources: dict[Any, str]
           ) -> tuple[str, ...]:
    notes = [f"times: Vayl's export carries none; {plural(len(records), 'record')} recorded"
             " at import time, in Vayl's order (its ids)",
             "sentences: Vayl's export carries no raw text",
             f"sources: {sum(1 for r in records if r.get('id') in sources)} of"
             f" {len(records)} from decision snapshots, the rest unknown"]
    extra = sorted({k for r in records for k in r} - MAPPED)
    if extra:
        notes.append(f"record fields not imported: {', '.join(extra)}")
    for part, one, many in (("decisions", "decision", "decisions"),
                            ("audit", "audit entry", "audit entries"),
                            ("receipts", "receipt", "receipts")):
        found = data.get(part) or []
        if found:
            notes.append(f"{plural(len(found), one, many)} not imported (Vayl's own signed"
                         " records)")
    return tuple(notes)
