"""A model's one-time description of a relation: one call per relation type a space holds
and no declaration or earlier description covers, never per question. The model sees the
relation's label, the types its facts wrote for its ends and a few of its facts, and
answers with the words that read it each way; what it says is checked like a declaration.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from graphmem.errors import InvalidInput
from graphmem.model.relations import RelationDeclaration, RelationInfo
from graphmem.recall import relation_schema

SYSTEM = (
    "You describe one relation of a knowledge graph so that questions in everyday words can"
    " be matched to it. Given its label, the types of its two ends and example facts"
    " (head, relation, tail), answer with JSON: description (one sentence), forward (verb"
    " phrases that read head-to-tail, e.g. 'reports to'), inverse (verb phrases that read"
    " tail-to-head, e.g. 'manages'), tail_nouns (what the tail is called from the head's"
    " side, e.g. 'manager', 'boss'), head_nouns (what the head is called from the tail's"
    " side, e.g. 'direct report'), head_type and tail_type (one word each). Lower-case"
    " words, at most eight per list; no words the label does not imply."
)
LIST = {"type": "array", "items": {"type": "string"}, "maxItems": 8}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"description": {"type": "string"}, "forward": LIST, "inverse": LIST,
                   "tail_nouns": LIST, "head_nouns": LIST, "head_type": {"type": "string"},
                   "tail_type": {"type": "string"}},
    "required": ["description", "forward", "inverse", "tail_nouns", "head_nouns"],
    "additionalProperties": False,
}
EXAMPLES = 5


class JsonModel(Protocol):
    def complete_json(self, system: str, user: str, name: str,
                      schema: dict[str, Any]) -> str: ...


def prompt(info: RelationInfo, examples: Sequence[tuple[str, str]]) -> str:
    label = info.labels[0] if info.labels else info.type.lower()
    lines = [f"Relation label: {label}",
             f"Head type: {', '.join(info.head_types) or 'unknown'}",
             f"Tail type: {', '.join(info.tail_types) or 'unknown'}", "Examples:"]
    lines += [f"- ({head}, {label}, {tail})" for head, tail in examples[:EXAMPLES]] or ["- none"]
    return "\n".join(lines)


def describe(model: JsonModel, info: RelationInfo,
             examples: Sequence[tuple[str, str]]) -> RelationDeclaration:
    """Ask the model once; what it answers is checked and bounded like a declaration (an
    answer that is not the JSON asked for raises InvalidInput)."""
    text = model.complete_json(SYSTEM, prompt(info, examples), "relation_description", SCHEMA)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidInput(f"the model's description of {info.type} is not JSON: {e}") from e
    if not isinstance(data, dict):
        raise InvalidInput(f"the model's description of {info.type} is not an object")
    label = info.labels[0] if info.labels else info.type.lower()
    fields = {k: data.get(k) for k in ("description", "forward", "inverse", "tail_nouns",
                                       "head_nouns", "head_type", "tail_type")}
    fields["forward"] = [w for w in (fields.get("forward") or [])][:8]
    for key in ("inverse", "tail_nouns", "head_nouns"):
        fields[key] = list(fields.get(key) or [])[:8]
    for key in ("head_type", "tail_type"):
        value = fields.get(key)
        fields[key] = value.split()[0][:100] if isinstance(value, str) and value.split() \
            else None
    fields["description"] = str(fields.get("description") or "")[:relation_schema
                                                                   .MAX_DESCRIPTION]
    return relation_schema.declaration({"label": label, **fields})
