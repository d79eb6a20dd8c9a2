"""What every integration hands a framework about a recalled fact: its metadata, and a score
from its rank (graphmem ranks facts; it does not expose a similarity)."""

from __future__ import annotations

from typing import Any

from graphmem.model.recall import RecalledFact


def fact_metadata(recalled: RecalledFact) -> dict[str, Any]:
    """The fact's id, space, subject, value, scope, status, source, confidence, whether it is
    history, and its times (ISO 8601)."""
    f = recalled.fact
    return {"fact_id": f.id, "space": f.space, "subject": f.subject, "value": f.value,
            "scope": f.scope, "status": f.status.value, "source": f.source,
            "confidence": f.confidence, "history": recalled.history,
            "valid_from": f.valid_from.isoformat() if f.valid_from else None,
            "recorded_at": f.recorded_at.isoformat() if f.recorded_at else None}


def rank_score(rank: int) -> float:
    """1.0 for the best, smaller for each one after."""
    return 1.0 / (1 + rank)
