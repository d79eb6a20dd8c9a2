"""Mem0's `get_all()` JSON: `{"results": [...], "relations": [...]}` (or a bare list).

A Mem0 memory is a sentence with an id, not a subject and a value: each becomes its own
fact (subject `mem0_<first 8 of its id>`, the sentence as value and raw text), recorded when
Mem0 last wrote it (`updated_at`, else `created_at`) and valid from its creation. Graph
relations (`source`, `relationship`, `destination`/`target`) become relation facts at
import time (Mem0 gives them no time). `hash`, the user/agent/run ids (the target space is
chosen on import) and anything else are reported, not imported; a memory's earlier texts
are in Mem0's `history()`, not in `get_all()`.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.lifecycle.transfer.importers.items import Item, Source, instant
from graphmem.model.transfer import plural

_STAMPED_TOGETHER = timedelta(seconds=1)  # Mem0 stamps both times of a new memory apart
MAPPED = frozenset({"id", "memory", "metadata", "created_at", "updated_at", "categories"})
_ID = re.compile(r"[^0-9a-z]")


def looks_like(data: object) -> bool:
    results = data.get("results") if isinstance(data, dict) else data
    return isinstance(results, list) and all(
        isinstance(r, dict) and "memory" in r for r in results)


def _memory(row: dict[str, Any], index: int) -> Item:
    where = f"mem0 memory {row.get('id') or f'#{index}'}"
    text = row.get("memory")
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(f"{where}: no memory text")
    ident = _ID.sub("", str(row.get("id") or index).lower())[:8] or str(index)
    created = instant(row.get("created_at"), where, "created_at")
    updated = instant(row["updated_at"], where, "updated_at") if row.get(
        "updated_at") else created
    metadata = dict(row.get("metadata") or {})
    metadata["mem0_id"] = row.get("id")
    if row.get("categories"):
        metadata["mem0_categories"] = list(row["categories"])
    fact = {"subject": f"mem0_{ident}", "value": text.strip(), "raw": text,
            "confidence": 1.0, "valid_from": created.isoformat(), "metadata": metadata}
    return Item(fact, where, max(created, updated))


def _relation(row: dict[str, Any], index: int) -> Item:
    where = f"mem0 relation #{index}"
    head, relation = row.get("source"), row.get("relationship") or row.get("relation")
    tail = row.get("destination") or row.get("target")
    if not (head and relation and tail):
        raise InvalidInput(f"{where}: needs source, relationship and destination")
    fact = {"head": str(head), "relation": str(relation), "tail": str(tail),
            "cardinality": "many", "confidence": 1.0}
    return Item(fact, where)


def _created(item: Item) -> datetime:
    return datetime.fromisoformat(str(item.fact["valid_from"]))


def load(data: object, digest: str) -> Source:
    if not looks_like(data):
        raise InvalidInput("not a Mem0 get_all() document (a list of memories, or results)")
    results = data.get("results") if isinstance(data, dict) else data
    relations = (data.get("relations") or []) if isinstance(data, dict) else []
    assert isinstance(results, list)
    items = [_memory(row, i) for i, row in enumerate(results, 1)]
    items += [_relation(row, i) for i, row in enumerate(relations, 1) if isinstance(row, dict)]
    notes = []
    extra = sorted({k for r in results for k in r} - MAPPED)
    if extra:
        notes.append(f"memory fields not imported: {', '.join(extra)}")
    changed = sum(1 for item in items[:len(results)]
                  if item.at is not None and item.at - _created(item) > _STAMPED_TOGETHER)
    if changed:
        notes.append(f"{plural(changed, 'memory', 'memories')} changed in Mem0 after"
                     " creation: only the current text is in get_all() (the earlier ones are"
                     " in Mem0's history())")
    if relations:
        notes.append(f"{plural(len(relations), 'relation')}: no time in Mem0, recorded at"
                     " import time")
    return Source("mem0", tuple(items), tuple(notes), digest)
