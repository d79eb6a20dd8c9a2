"""A space's relation schema and the models' descriptions of its relations, as checked input
and as the JSON kept on its Space node.

A declaration names a relation by its label (any spelling the facts use: `reports to`,
`REPORTS_TO`, `reports_to`), says what it means and gives the words that read it each way.
Everything is bounded, so a schema never costs a question more than a few hundred words.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, replace
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.graph.entities import fold_type
from graphmem.graph.identifiers import relation_type
from graphmem.model.relations import RelationDeclaration, RelationDescription, RelationSchema

MAX_RELATIONS = 500
MAX_WORDS = 20  # readings of one kind
MAX_WORD_LENGTH = 60
MAX_DESCRIPTION = 500
_LISTS = ("forward", "inverse", "head_nouns", "tail_nouns")
_FIELDS = frozenset({"label", "description", *_LISTS, "head_type", "tail_type",
                     "cardinality"})


def _text(value: object, name: str, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidInput(f"relation schema: {name} must be a string")
    text = " ".join(value.split())
    if len(text) > limit or "\x00" in text:
        raise InvalidInput(f"relation schema: {name} is longer than {limit} characters")
    return text


def _words(value: object, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise InvalidInput(f"relation schema: {name} must be a list of words")
    if len(value) > MAX_WORDS:
        raise InvalidInput(f"relation schema: at most {MAX_WORDS} {name} per relation")
    found = [_text(v, name, MAX_WORD_LENGTH).casefold() for v in value]
    return tuple(dict.fromkeys(w for w in found if w))


def declaration(raw: Mapping[str, Any]) -> RelationDeclaration:
    """One checked declaration from a mapping (GraphQL input, MCP arguments, JSON)."""
    if not isinstance(raw, Mapping):
        raise InvalidInput("relation schema: each relation must be an object")
    unknown = set(raw) - _FIELDS
    if unknown:
        raise InvalidInput(f"relation schema: unknown field(s) {', '.join(sorted(unknown))}")
    label = _text(raw.get("label"), "label", 200)
    if not label:
        raise InvalidInput("relation schema: every relation needs a label")
    relation_type(label)  # refuses a label with nothing to name a relation type by
    cardinality = raw.get("cardinality")
    if cardinality not in (None, "one", "many"):
        raise InvalidInput("relation schema: cardinality is `one` or `many`")
    types = {}
    for end in ("head_type", "tail_type"):
        written = _text(raw.get(end), end, 100)
        types[end] = written or None
        if written:
            fold_type(written)
    return RelationDeclaration(
        label=label, description=_text(raw.get("description"), "description",
                                       MAX_DESCRIPTION),
        forward=_words(raw.get("forward"), "forward"),
        inverse=_words(raw.get("inverse"), "inverse"),
        head_nouns=_words(raw.get("head_nouns"), "head_nouns"),
        tail_nouns=_words(raw.get("tail_nouns"), "tail_nouns"),
        head_type=types["head_type"], tail_type=types["tail_type"], cardinality=cardinality)


def declarations(raw: Iterable[Mapping[str, Any]]) -> tuple[RelationDeclaration, ...]:
    """Checked declarations, one per relation type (a later one for the same type wins)."""
    found: dict[str, RelationDeclaration] = {}
    for item in raw:
        checked = declaration(item)
        found[relation_type(checked.label)] = checked
    if len(found) > MAX_RELATIONS:
        raise InvalidInput(f"relation schema: at most {MAX_RELATIONS} relations")
    return tuple(found.values())


def relation_type_of(declared: RelationDeclaration) -> str:
    return relation_type(declared.label)


def schema_to_json(schema: RelationSchema) -> str:
    return json.dumps({"version": schema.version, "updated_at": schema.updated_at,
                       "relations": [_plain(d) for d in schema.relations]},
                      sort_keys=True)


def schema_from_json(text: str | None) -> RelationSchema:
    if not text:
        return RelationSchema()
    data = json.loads(text)
    return RelationSchema(declarations(data.get("relations") or ()),
                          int(data.get("version") or 0), data.get("updated_at"))


def _plain(d: RelationDeclaration) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(d).items()
            if v not in (None, "", ())}


def descriptions_from_json(text: str | None) -> dict[str, RelationDescription]:
    """The models' descriptions by relation type."""
    if not text:
        return {}
    found = {}
    for type_, item in json.loads(text).items():
        fields = {k: v for k, v in item.items() if k not in ("model", "at")}
        found[str(type_)] = RelationDescription(str(item.get("model") or ""),
                                                item.get("at"), declaration(fields))
    return found


def descriptions_to_json(found: Mapping[str, RelationDescription]) -> str:
    return json.dumps({t: {**_plain(d.declaration), "model": d.model, "at": d.at}
                       for t, d in found.items()}, sort_keys=True)


def merged(schema: RelationSchema, changes: Sequence[RelationDeclaration],
           replace_all: bool, updated_at: str) -> RelationSchema:
    """The schema after a change: `changes` replace their types' declarations (or, with
    `replace_all`, everything); the version goes up by one."""
    kept = {} if replace_all else {relation_type(d.label): d for d in schema.relations}
    kept.update((relation_type(d.label), d) for d in changes)
    if len(kept) > MAX_RELATIONS:
        raise InvalidInput(f"relation schema: at most {MAX_RELATIONS} relations")
    return replace(schema, relations=tuple(kept.values()), version=schema.version + 1,
                   updated_at=updated_at)
