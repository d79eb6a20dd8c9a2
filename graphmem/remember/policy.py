"""A space's reconcile policy: parsed from, and written to, JSON on its Space node."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.model import Policy, PolicyMode, is_claimed


def make_policy(mode: str | PolicyMode, authority: Mapping[str, Any] | None = None,
                curated: Any = ()) -> Policy:
    """Validate a policy as callers give it; errors name the bad part."""
    try:
        parsed = PolicyMode(str(mode).strip().upper())
    except ValueError:
        allowed = ", ".join(m.value for m in PolicyMode)
        raise InvalidInput(f"policy mode {mode!r} is unknown: use one of {allowed}") from None
    ranks: dict[str, int] = {}
    for source, rank in (authority or {}).items():
        if not isinstance(source, str) or isinstance(rank, bool) or not isinstance(rank, int):
            raise InvalidInput(f"authority rank for {source!r} must be an integer, got {rank!r}")
        ranks[source] = rank
    if isinstance(curated, str) or not all(isinstance(c, str) for c in curated):
        raise InvalidInput("curated sources must be a list of source names")
    named = [s for s in (*ranks, *curated) if is_claimed(s)]
    if named:
        raise InvalidInput(f"{named[0]!r} is a claim, not a source: claimed sources rank 0"
                           " and are never curated")
    return Policy(parsed, ranks, frozenset(curated))


def policy_from_json(text: str | None) -> Policy:
    if not text:
        return Policy()
    data = json.loads(text)
    return make_policy(data.get("mode", "RECENCY"), data.get("authority"),
                       data.get("curated", ()))


def policy_to_json(policy: Policy) -> str:
    return json.dumps({"mode": policy.mode.value, "authority": policy.authority,
                       "curated": sorted(policy.curated)}, sort_keys=True)
