"""Export records from what the stores return, and store rows back from export records.

Plain functions over dicts (a fact read for export arrives as its values in FACT_ROW's
order, which the export statement follows). Times are ISO 8601 text in UTC, written as
Neo4j writes them (no trailing zeros in the fraction), in a record and in a row alike: the
restore statements turn them into datetimes, which costs far less than the driver
converting each one. A fact's metadata and revisions are JSON in the graph and objects in
a record. Every record lists all of its fields (null when unset), so two exports of the
same memory are equal line for line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from graphmem.graph.facts import as_time
from graphmem.model import value_key
from graphmem.recall.text import fact_text

FACT_FIELDS = (
    "id", "subject", "scope", "value", "status", "kind", "time_ref", "confidence", "source",
    "source_ref", "raw", "category", "head", "relation", "tail", "head_type", "tail_type",
    "head_key", "tail_key", "cardinality", "action", "proposed_action", "archived", "coexist",
    "message_key", "undone_by",
)
FACT_TIMES = ("valid_from", "valid_to", "held_from", "recorded_at", "retired_at", "refined_at",
              "undone_at")
LINKS = ("supersedes", "retracts", "restores")  # a fact's links to earlier facts, by kind
FACT_ROW = (*FACT_FIELDS, "metadata", "revisions", "links", *FACT_TIMES)  # the export's columns
ENTITY_FIELDS = ("key", "name", "norm", "seeded")
CONFLICT_FIELDS = ("id", "subject", "scope", "kind", "status", "severity", "note", "by",
                   "winner")
Remap = Callable[[str], str]


def iso(value: Any) -> str | None:
    """A stored time as ISO 8601 in UTC (the same instant however it was stored), with the
    fraction of a second as Neo4j prints it."""
    if value is None:
        return None
    if isinstance(value, str) and value.endswith("Z"):
        return value[:-1] + "+00:00"
    instant = as_time(value)
    assert instant is not None
    utc = instant.astimezone(UTC)
    fraction = f"{utc.microsecond:06d}".rstrip("0")
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + (f".{fraction}" if fraction else "") + "+00:00"


def when(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(str(value))


# ---- graph rows → records ---------------------------------------------------------------------
def fact_record(row: Sequence[Any], space: str) -> dict[str, Any]:
    """A fact's record from its export row: its values in the order of FACT_ROW, its links
    as [type, target, at] (the export's hot loop: one zip, no lookup per field)."""
    record: dict[str, Any] = dict(zip(FACT_ROW, row, strict=True))
    record["type"] = "fact"
    record["space"] = space
    for k in FACT_TIMES:
        at = record.get(k)
        record[k] = at[:-1] + "+00:00" if isinstance(at, str) and at[-1:] == "Z" else iso(at)
    metadata = record.get("metadata")
    record["metadata"] = {} if not metadata or metadata == "{}" else json.loads(metadata)
    record["revisions"] = [json.loads(r) for r in record.get("revisions") or ()]
    links: dict[str, list[dict[str, Any]]] = {kind: [] for kind in LINKS}
    for rel_type, target, at in record.pop("links", None) or ():
        links[rel_type.lower()].append({"id": target, "at": iso(at)})
    for kind, found in links.items():
        record[kind] = sorted(found, key=_by_id) if len(found) > 1 else found
    return record


def _by_id(link: Mapping[str, Any]) -> str:
    return str(link["id"])


def entity_record(row: Mapping[str, Any], space: str) -> dict[str, Any]:
    record: dict[str, Any] = {"type": "entity", "space": space,
                              "entity_type": row.get("type")}
    record.update({k: row.get(k) for k in ENTITY_FIELDS})
    record["created_at"] = iso(row.get("created_at"))
    record["facts"] = sorted(row.get("facts") or ())
    return record


def conflict_record(row: Mapping[str, Any], space: str) -> dict[str, Any]:
    record: dict[str, Any] = {"type": "conflict", "space": space}
    record.update({k: row.get(k) for k in CONFLICT_FIELDS})
    record["created_at"] = iso(row.get("created_at"))
    record["closed_at"] = iso(row.get("closed_at"))
    record["fact_ids"] = sorted(row.get("fact_ids") or ())
    return record


def pending_records(conflicts: list[dict[str, Any]], flagged: Mapping[str, dict[str, Any]]
                    ) -> list[dict[str, Any]]:
    """The proposals waiting for approval: each open confirm-gate conflict's held fact, with
    the facts it would replace (a view of the fact and conflict records, for readers)."""
    out = []
    for c in conflicts:
        if c["kind"] != "pending" or c["status"] != "open":
            continue
        for fact_id in c["fact_ids"]:
            held = flagged.get(fact_id)
            if held is None:
                continue
            out.append({"type": "pending", "space": c["space"], "conflict": c["id"],
                        "fact": fact_id, "subject": held["subject"], "scope": held["scope"],
                        "value": held["value"], "proposed_action": held["proposed_action"],
                        "recorded_at": held["recorded_at"],
                        "replaces": [i for i in c["fact_ids"] if i not in flagged]})
    return out


# ---- records → graph rows -----------------------------------------------------------------------
def _clean(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if v is not None}


def fact_row(record: Mapping[str, Any], space: str, remap: Remap) -> dict[str, Any]:
    """The Fact node a record describes (the text the search index reads is derived again
    from the value)."""
    row: dict[str, Any] = {k: record.get(k) for k in FACT_FIELDS}
    row.update({k: record.get(k) for k in FACT_TIMES})
    row["id"] = remap(str(record["id"]))
    row["space"] = space
    row["metadata"] = json.dumps(record.get("metadata") or {}, sort_keys=True)
    row["revisions"] = [json.dumps(r, sort_keys=True, default=str)
                        for r in record.get("revisions") or ()]
    row["value_key"] = value_key(str(record["value"]))
    row["search_text"] = fact_text(str(record["subject"]), str(record["value"]),
                                   str(record.get("scope") or "global"))
    return _clean(row)


def link_rows(record: Mapping[str, Any], kind: str, remap: Remap) -> list[dict[str, Any]]:
    """A fact's links of one kind (SUPERSEDES, RETRACTS or RESTORES), each at its own instant
    (`at`), in the shape of a write batch's (the mirror follows them as it follows a
    write's)."""
    return [{"new": remap(str(record["id"])), "old": remap(str(link["id"])),
             "valid_to": link["at"], "at": link["at"]} for link in record.get(kind) or ()]


def entity_row(record: Mapping[str, Any], remap: Remap) -> dict[str, Any]:
    row = {k: record.get(k) for k in ENTITY_FIELDS}
    row["type"] = record.get("entity_type")
    row["created_at"] = record.get("created_at")
    facts = [remap(str(f)) for f in record.get("facts") or ()]
    if facts:
        row["fact_ids"] = facts  # erasure finds the entity in the event by its facts
    return row


def conflict_row(record: Mapping[str, Any], space: str, remap: Remap) -> dict[str, Any]:
    props = {k: record.get(k) for k in CONFLICT_FIELDS}
    props["id"] = remap(str(record["id"]))
    props["winner"] = remap(str(record["winner"])) if record.get("winner") else None
    props["space"] = space
    props["created_at"] = record.get("created_at")
    props["closed_at"] = record.get("closed_at")
    return {"id": props["id"], "props": _clean(props),
            "fact_ids": [remap(str(f)) for f in record.get("fact_ids") or ()]}
