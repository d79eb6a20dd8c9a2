"""The fields a fact may carry on the way in, and their bounds: one list every surface
(the Python API, GraphQL's FactInput, MCP's fact argument) is held to."""

from __future__ import annotations

MAX_VALUE_LENGTH = 200_000
MAX_TEXT_LENGTH = 1_000_000
MAX_METADATA_LENGTH = 100_000

FACT_FIELDS = frozenset({
    "subject", "value", "scope", "kind", "time_ref", "action", "confidence", "head",
    "relation", "tail", "head_type", "tail_type", "cardinality", "reason", "target_id",
    "category", "valid_from", "valid_to", "raw", "recorded_at", "source_ref", "metadata",
})
