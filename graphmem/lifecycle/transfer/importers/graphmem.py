"""A graphmem export read for a replay: each fact's value as said at its recorded time.

Records keep their subject, scope, kind, confidence, triple, provenance and metadata; a
retraction tombstone retracts the value it names; an archived fact is a past fact; a
refined fact is its first value, then each refinement at its own instant; a held proposal
is flagged again; a value an undo voided is left out (as memory knows it, it never held),
and the copy an undo restored is said again at its own time. What a replay cannot carry is
reported: approvals and conflict outcomes, undos, seeded entities, decisions and the
space's policy (a restore keeps them all).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from graphmem.lifecycle.transfer.importers.items import Item, Source
from graphmem.lifecycle.transfer.records import when
from graphmem.model.transfer import plural

_COPIED = ("subject", "scope", "kind", "time_ref", "confidence", "head", "relation", "tail",
           "head_type", "tail_type", "category", "cardinality", "raw")


def _base(record: dict[str, Any]) -> dict[str, Any]:
    fact = {k: record[k] for k in _COPIED if record.get(k) is not None}
    metadata = dict(record.get("metadata") or {})
    metadata.pop("kind", None)
    metadata.pop("note", None)
    reason = metadata.pop("reason", None)
    if reason:
        fact["reason"] = str(reason)
    if metadata:
        fact["metadata"] = metadata
    if record.get("valid_from"):
        fact["valid_from"] = record["valid_from"]
    return fact


def _items(record: dict[str, Any], values: dict[str, str]) -> list[Item]:
    where = f"line {record['_line']}"
    at = when(record.get("recorded_at"))
    source, ref = record.get("source") or None, record.get("source_ref") or None
    fact = _base(record)
    if record.get("action") == "RETRACT" and record.get("status") == "HISTORICAL":
        fact.pop("valid_from", None)
        return [Item({**fact, "value": values[link["id"]], "action": "RETRACT"}, where, at,
                     source, ref) for link in record.get("retracts") or () if link["id"] in values]
    if record.get("archived"):
        return [Item({**fact, "value": record["value"], "time_ref": "past"}, where, at, source,
                     ref)]
    held = record.get("status") == "FLAGGED_CONFLICT" or record.get("proposed_action")
    action = ("FLAG" if held else "SUPERSEDE" if record.get("supersedes")
              else "COEXIST" if record.get("action") == "COEXIST" else "ADD")
    revisions = list(record.get("revisions") or ())
    first = revisions[0].get("value") if revisions else record["value"]
    out = [Item({**fact, "value": str(first), "action": action}, where, at, source, ref)]
    for index, revision in enumerate(revisions):
        value = revisions[index + 1].get("value") if index + 1 < len(revisions) else (
            record["value"])
        out.append(Item({**fact, "value": str(value), "action": "REFINE"}, where,
                        when(revision.get("at")), revision.get("source") or source, ref))
    return out


def load(lines: Iterable[tuple[int, dict[str, Any]]], digest: str, space: str) -> Source:
    """The facts of one space of the export, as values said at their times."""
    items: list[Item] = []
    values: dict[str, str] = {}
    other: Counter[str] = Counter()
    for number, record in lines:
        if record.get("space") != space:
            continue
        if record["type"] != "fact":
            other[record["type"]] += 1
            continue
        values[record["id"]] = str(record["value"])
        if record.get("undone_by"):
            other["undone"] += 1
            continue
        items.extend(_items({**record, "_line": number}, values))
    notes = []
    if other["undone"]:
        notes.append(f"{plural(other['undone'], 'undone fact')} not replayed: an undo voided"
                     " them (a restore keeps them, marked undone)")
    if other["conflict"]:
        notes.append(f"{plural(other['conflict'], 'conflict')} not replayed: approvals and"
                     " conflict outcomes are kept by a restore, not by a replay")
    if other["decision"]:
        notes.append(f"{plural(other['decision'], 'decision')} not replayed (a restore keeps"
                     " them)")
    if other["space"]:
        notes.append("the space's policy and retention are not replayed (the target's stand)")
    if other["entity"]:
        notes.append(f"{plural(other['entity'], 'entity record', 'entity records')} not"
                     " replayed: entities are projected again from the facts (seeded ones"
                     " without a fact are kept by a restore)")
    return Source("graphmem", tuple(items), tuple(notes), f"{digest}/{space}")
