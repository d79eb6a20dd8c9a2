"""Which redaction a space's writes get: the deployment's mode, a tenant's or a space's own
(GRAPHMEM_REDACTION, GRAPHMEM_REDACTION_OVERRIDES), with the organisation's patterns."""

from __future__ import annotations

from functools import lru_cache

from graphmem.remember.redact import Policy, RedactionMode, Redactor
from graphmem.settings import Settings


def redactor_for(settings: Settings, space_key: str) -> Redactor:
    policy = Policy(RedactionMode(settings.redaction), settings.redaction_overrides)
    patterns = tuple(sorted(settings.redaction_patterns.items()))
    return _redactor(policy.mode_for(space_key), patterns, settings.redaction_phone_region)


@lru_cache(maxsize=64)
def _redactor(mode: RedactionMode, patterns: tuple[tuple[str, str], ...],
              region: str) -> Redactor:
    return Redactor.of(mode, dict(patterns), region)
