"""Where recall_related starts: entities named in the question, or given by the caller.

The question is matched through the full-text index on entity names (case-insensitive;
the index is eventually consistent, so a pending refresh is awaited first: read your own
writes); only word tokens reach Lucene, so no question is query syntax. Whole-name matches win; when
there is none, the best full-text hits are used and the result says so.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from neo4j import ManagedTransaction

from graphmem.errors import InvalidInput, NotFound
from graphmem.graph import entities, recall
from graphmem.graph.entities import row_to_entity
from graphmem.model.entities import Entity
from graphmem.model.paths import StartSpec

_WORD = re.compile(r"\w+")


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def lucene_query(question: str) -> str:
    """Only word tokens, lower-cased, so nothing in the question is Lucene syntax."""
    return " ".join(_WORD.findall(_norm(question))[:64])


def capitalised_query(question: str) -> str:
    """A query every word of a capitalised run must match ("Amara Dunmore" → `+amara
    +dunmore`), one group per run, the question's first word left out: names are usually
    written so, and a common first name then does not match thousands of entities."""
    words = _WORD.findall(unicodedata.normalize("NFKC", question))
    runs: list[list[str]] = []
    current: list[str] = []
    for k, word in enumerate(words):
        if k and word[:1].isupper():
            current.append(word.casefold())
            continue
        if current:
            runs.append(current)
        current = []
    if current:
        runs.append(current)
    return " ".join("(" + " ".join(f"+{w}" for w in run) + ")" for run in runs[:8])


def find_start(tx: ManagedTransaction, space: str, question: str, limit: int = 10
               ) -> tuple[list[Entity], str]:
    """Entities named in the question: whole-name matches first (looked up by the question's
    capitalised runs, else by all its words), else the best full-text hits."""
    query = lucene_query(question)
    if not query:
        return [], "none"
    recall.await_fulltext(tx)  # the name index is eventually consistent
    text = _norm(question)
    strict = capitalised_query(question)
    if strict:
        named = _named_in(text, entities.find(tx, space, strict, 50))
        if named:
            return named[:limit], "name"
    rows = entities.find(tx, space, query, 50)
    named = _named_in(text, rows)
    if named:
        return named[:limit], "name"
    return [row_to_entity(r["entity"]) for r in rows[:3]], "fulltext"


def _named_in(text: str, rows: Sequence[dict[str, Any]]) -> list[Entity]:
    """The entities whose whole name the (normalised) question holds."""
    return [row_to_entity(r["entity"]) for r in rows
            if re.search(rf"(?<!\w){re.escape(r['entity']['norm'])}(?!\w)", text)]


def typed_keys(given: Sequence[StartSpec]) -> list[str] | None:
    """The keys of given (type, name) pairs, to look up with the first hop; None when a
    bare name or a bad type needs resolve_given (its lookups and errors, in order)."""
    keys: list[str] = []
    for item in given:
        folded = None if isinstance(item, str) else entities.fold_type(item[0])
        if folded is None or isinstance(item, str):
            return None
        try:
            keys.append(entities.entity_key(folded, entities.normalise_name(item[1])))
        except InvalidInput:
            return None
    return list(dict.fromkeys(keys))


def check_typed(given: Sequence[StartSpec], found: Sequence[Entity]) -> None:
    """resolve_given's NotFound for the first given (type, name) that does not exist."""
    have = {e.key for e in found}
    for item in given:
        if isinstance(item, str):  # typed_keys refuses these: resolve_given's path
            continue
        folded = entities.fold_type(item[0])
        if entities.entity_key(str(folded), entities.normalise_name(item[1])) not in have:
            raise NotFound(f"no entity {item[1]!r} of type {folded} in this space")


def resolve_given(tx: ManagedTransaction, space: str, given: Sequence[StartSpec]
                  ) -> list[Entity]:
    """(type, name) pairs by composite key; a bare name matches every type of that name."""
    found: list[Entity] = []
    for item in given:
        if isinstance(item, str):
            named = entities.named_in(tx, space, item)
            if not named:
                raise NotFound(f"no entity named {item!r} in this space")
            found += named
        else:
            found.append(entities.typed_in(tx, space, item[0], item[1]))
    return list({e.key: e for e in found}.values())
