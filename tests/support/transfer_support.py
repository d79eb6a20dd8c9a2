"""Helpers shared by the export/import tests: a space holding every kind of record, and ways
to compare two spaces that hold the same memory under different ids."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from graphmem import GraphMem
from graphmem.lifecycle.transfer.codec import canonical
from graphmem.lifecycle.transfer.records import LINKS
from graphmem.lifecycle.transfer.restore import derive
from graphmem.mirror.keys import Signer, public_bytes

SURE = 0.9
CONFIRM_SCHEMA = {"slots": [{"name": "active_medication", "multi": True, "confirm": True}]}
JAN, JUN = datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC)


def build_space(mem: GraphMem) -> None:
    """Every status, refinements, tombstones, conflicts open/resolved/dismissed, pending
    proposals (confirmed, rejected, waiting), an archived past fact, an event, backfilled
    values (one older than the current value), an undone supersede (a restoring copy), a
    multi-hop entity graph, a seeded entity, a decision and a policy."""
    mem.remember_facts([
        {"head": "Billing", "head_type": "service", "relation": "calls", "tail": "Auth",
         "tail_type": "service", "cardinality": "many", "confidence": SURE},
        {"head": "Auth", "head_type": "service", "relation": "calls", "tail": "Ledger",
         "tail_type": "service", "cardinality": "many", "confidence": SURE},
        {"head": "Ledger", "head_type": "service", "relation": "owned by",
         "tail": "Finance", "tail_type": "team", "confidence": SURE},
        {"subject": "stack", "value": "Redux", "confidence": SURE},
        {"subject": "db", "value": "Postgres", "confidence": SURE},
        {"subject": "tools", "value": "Sentry", "confidence": SURE, "cardinality": "many"},
    ], source="alice", text="billing calls auth, auth calls ledger; we use Redux",
        metadata={"channel": "standup"})
    mem.remember_facts([{"subject": "stack", "value": "Zustand", "action": "SUPERSEDE",
                         "confidence": SURE}], source="alice")
    mem.remember_facts([{"head": "Alice", "head_type": "person", "relation": "works at",
                         "tail": "Acme", "tail_type": "company", "confidence": SURE}],
                       source="hr")
    mem.remember_facts([{"head": "Alice", "head_type": "person", "relation": "works at",
                         "tail": "Initech", "tail_type": "company", "confidence": SURE}],
                       source="hr")
    mem.forget(facts=[{"subject": "tools", "value": "Sentry", "confidence": SURE}],
                     source="alice")
    mem.remember_facts([{"subject": "db", "value": "Postgres 16", "action": "REFINE",
                         "confidence": SURE}], source="alice")
    mem.remember_facts([{"subject": "billing", "value": "monthly", "time_ref": "past",
                         "confidence": SURE}, {"subject": "launch", "value": "beta",
                                               "kind": "event", "confidence": SURE}],
                       source="carol")
    _backfilled(mem)
    _undone(mem)
    _conflicts(mem)
    _pending(mem)
    mem.entities.create("person", "Dana Scully")
    mem.records.record_decision("migrate billing", ["db", "stack"])


def _backfilled(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "ceo", "value": "Ann", "confidence": SURE,
                         "recorded_at": JAN.isoformat()}], source="board")
    mem.remember_facts([{"subject": "ceo", "value": "Bob", "confidence": SURE,
                         "recorded_at": JUN.isoformat()}], source="board")
    older = mem.remember_facts([{"subject": "ceo", "value": "Zed", "confidence": SURE,
                                 "valid_from": (JAN - timedelta(days=365)).isoformat()}],
                               source="board")[0]
    assert older.action.value == "ARCHIVE", older


def _undone(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "region", "value": "eu-west", "confidence": SURE}],
                       source="ops")
    moved = mem.remember_facts([{"subject": "region", "value": "us-east", "confidence": SURE}],
                               source="ops")[0]
    assert moved.action.value == "SUPERSEDE" and moved.event_id, moved
    mem.review.undo(moved.event_id)


def _conflicts(mem: GraphMem) -> None:
    low = mem.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.4}],
                             source="dave")[0]
    assert low.conflict_id is not None  # stays open
    mem.review.set_reconcile_policy("REVIEW")
    mem.remember_facts([{"subject": "owner", "value": "bob", "confidence": SURE}],
                       source="sales")
    rival = mem.remember_facts([{"subject": "owner", "value": "carol", "confidence": SURE}],
                               source="hr")[0]
    assert rival.conflict_id is not None
    mem.review.resolve_conflict(rival.conflict_id, rival.fact_id or "", note="hr is right")
    mem.remember_facts([{"subject": "region", "value": "eu", "confidence": SURE}],
                       source="ops")
    both = mem.remember_facts([{"subject": "region", "value": "us", "confidence": SURE}],
                              source="sales")[0]
    assert both.conflict_id is not None
    mem.review.dismiss_conflict(both.conflict_id, note="both hold")
    mem.review.set_reconcile_policy("RECENCY")


def _pending(mem: GraphMem) -> None:
    for value in ("warfarin 5mg", "aspirin 75mg"):
        mem.remember_facts([{"subject": "active_medication", "value": value,
                             "confidence": SURE}], source="doctor")
    review = mem.review
    for value, settle in (("warfarin 10mg", review.confirm), ("aspirin 100mg", review.reject),
                          ("aspirin 150mg", None)):
        held = mem.remember_facts([{"subject": "active_medication", "value": value,
                                    "confidence": SURE}], source="doctor")[0]
        assert held.action.value == "FLAG", held
        if settle is not None:
            settle(held.fact_id or "")


# ---- comparing -----------------------------------------------------------------------------
def export_lines(mem: GraphMem, **kwargs: Any) -> list[dict[str, Any]]:
    out = io.StringIO()
    mem.transfer.export(out, **kwargs)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def records(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records without the header, the manifest and the chain (which covers the space)."""
    return [{k: v for k, v in r.items() if k != "chain"} for r in lines
            if r["type"] not in ("header", "manifest")]


def ids_of(lines: list[dict[str, Any]]) -> set[str]:
    found = set()
    for r in lines:
        if r["type"] in ("fact", "conflict", "decision"):
            found.add(r["id"])
        if r["type"] == "decision":
            found.add(r["receipt_id"])
    return found


def renamed(value: Any, names: dict[str, str]) -> Any:
    """`value` with every id and space key replaced as `names` says."""
    if isinstance(value, dict):
        return {k: renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


def as_copied(source: list[dict[str, Any]], target: str) -> list[dict[str, Any]]:
    """The records a copy into `target` should hold: ids re-derived, the space replaced
    (decision snapshots and receipts are signed: they keep the exporter's ids)."""
    names = {old: derive(target, old) for old in ids_of(source)}
    out = []
    for r in records(source):
        signed = {k: r[k] for k in ("snapshot", "receipt") if k in r}
        copied = renamed({k: v for k, v in r.items() if k not in signed}, names)
        copied.update(signed, space=target)
        out.append(_resorted(copied))
    return out


def _resorted(record: dict[str, Any]) -> dict[str, Any]:
    """The lists an export sorts by id, sorted again after the ids changed."""
    for key in ("facts", "replaces") if record["type"] != "decision" else ():
        if key in record:
            record[key] = sorted(record[key])
    if record["type"] == "conflict":
        record["fact_ids"] = sorted(record["fact_ids"])
    for key in LINKS:
        if key in record:
            record[key] = sorted(record[key], key=lambda link: link["id"])
    return record


Read = Callable[[GraphMem], Any]


def instants(lines: list[dict[str, Any]], count: int = 20) -> list[datetime]:
    """`count` instants spread over the history: before it, between distinct times of it,
    after it (never on a boundary)."""
    times = sorted({datetime.fromisoformat(r[k]) for r in lines if r["type"] == "fact"
                    for k in ("recorded_at", "retired_at", "valid_from", "valid_to",
                              "held_from") if r.get(k)})
    between = [a + (b - a) / 2 for a, b in zip(times, times[1:], strict=False)]
    candidates = [times[0] - timedelta(seconds=1), *between, times[-1] + timedelta(seconds=1)]
    step = max(1, len(candidates) // count)
    picked = candidates[::step][:count - 1] + [candidates[-1]]
    assert len(picked) == count, (len(candidates), len(picked))
    return picked


def facts_view(facts: Any) -> list[tuple[Any, ...]]:
    return sorted((f.subject, f.scope, f.value, f.status.value, f.source, f.valid_from,
                   f.valid_to) for f in facts)


def paths_view(related: Any) -> list[Any]:
    return sorted((p.keys, tuple((e.type, e.relation, e.head, e.tail, e.status, e.confidence,
                                  e.valid_from, e.valid_to) for e in p.edges))
                  for p in related.paths)


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    """Export records written as a file, one canonical line each."""
    path.write_text("".join(canonical(r) + "\n" for r in lines))
    return path


def resigned(manifest: dict[str, Any], signer: Signer, **changes: Any) -> dict[str, Any]:
    """The manifest signed again by `signer`, as a forger holding a key of its own would."""
    body = {k: v for k, v in manifest.items() if k != "signature"}
    body.update(changes, key_id=signer.key_id,
                public_key=base64.b64encode(public_bytes(signer.public)).decode())
    return {**body, "signature": signer.sign(canonical(body).encode())}
