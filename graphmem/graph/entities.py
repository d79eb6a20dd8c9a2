"""Entities: identified by the exact composite key (normalised type, normalised name).

Types fold into a closed vocabulary, names are matched exactly (no fuzzy matching
on the write path), an unresolvable relation end becomes a placeholder of type `unknown`,
and a maintenance sweep later attaches a placeholder to the one typed entity of its name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.errors import InvalidInput, NotFound
from graphmem.graph.driver import GraphDriver, run
from graphmem.graph.facts import as_time
from graphmem.graph.outbox import Outbox
from graphmem.graph.rows import plain
from graphmem.model import NOW, When
from graphmem.model.entities import UNKNOWN, Entity, SweepResult, Vocabulary

OTHER = "other"
VOCABULARY: tuple[str, ...] = (
    "person", "organisation", "project", "location", "topic", "product", "policy", "concept",
    "event", "agent", "service", "other",
)
_SYNONYMS: dict[str, tuple[str, ...]] = {
    "person": ("people", "human", "individual", "user", "employee", "customer", "contact",
               "patient", "persona", "colleague", "client"),
    "organisation": ("organization", "org", "company", "corporation", "corp", "business",
                     "firm", "enterprise", "team", "department", "institution", "agency",
                     "startup", "vendor", "employer", "nonprofit", "ngo"),
    "project": ("initiative", "programme", "program", "repo", "repository", "workstream"),
    "location": ("place", "city", "country", "region", "address", "site", "office", "venue",
                 "geo", "continent"),
    "topic": ("subject", "theme", "field", "domain", "skill", "discipline", "interest"),
    "product": ("app", "application", "tool", "software", "library", "framework", "package",
                "device", "item", "sku", "offering", "goods"),
    "policy": ("rule", "regulation", "guideline", "procedure", "law", "standard", "agreement",
               "contract", "sla", "terms"),
    "concept": ("idea", "notion", "term", "technology", "tech", "method", "technique",
                "pattern", "role", "title", "position", "job", "job_title"),
    "event": ("meeting", "incident", "conference", "release", "launch", "milestone",
              "appointment", "outage", "holiday", "trip"),
    "agent": ("bot", "assistant", "ai", "ai_agent", "chatbot"),
    "service": ("api", "microservice", "system", "server", "database", "db", "endpoint",
                "backend", "platform", "infrastructure", "queue", "cache"),
    "other": ("misc", "thing", "entity", "object"),
}
_FOLD: dict[str, str] = {t: t for t in VOCABULARY} | {
    syn: t for t, syns in _SYNONYMS.items() for syn in syns} | {UNKNOWN: UNKNOWN}
MAX_NAME_LENGTH = 1000
_WS = re.compile(r"\s+")
_TYPE_SEP = re.compile(r"[\s\-./]+")


def fold_type(raw: str | None) -> str | None:
    """A supplied type folded into the vocabulary (`company` → organisation, unknown words →
    other); None when no type was given, so the caller resolves the name instead."""
    if raw is None or not raw.strip():
        return None
    word = _TYPE_SEP.sub("_", unicodedata.normalize("NFKC", raw).casefold().strip())
    for candidate in (word, word[:-1] if word.endswith("s") else word,
                      word[:-3] + "y" if word.endswith("ies") else word):
        if candidate in _FOLD:
            return _FOLD[candidate]
    return OTHER


def normalise_name(name: str) -> str:
    """Case-folded, NFKC, whitespace collapsed: the half of the key a name contributes."""
    if not isinstance(name, str):
        raise InvalidInput(f"entity name must be a string, got {type(name).__name__}")
    norm = _WS.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()
    if not norm:
        raise InvalidInput("entity name is empty: give the entity a name")
    if len(norm) > MAX_NAME_LENGTH or "\x00" in norm:
        raise InvalidInput(f"entity name {name[:40]!r}… is too long or holds a NUL character")
    return norm


def entity_key(type_: str, norm: str) -> str:
    """`type:name`; the type never holds a colon, so the key splits on the first one."""
    return f"{type_}:{norm}"


def row_to_entity(row: dict[str, Any]) -> Entity:
    return Entity(key=row["key"], type=row["type"], name=row["name"],
                  created_at=as_time(row.get("created_at")))


def typed_key(type_: str, name: str) -> str:
    """The key of a typed entity; refuses `unknown`, which only placeholders carry."""
    folded = fold_type(type_)
    if folded is None or folded == UNKNOWN:
        raise InvalidInput(f"entity type {type_!r}: pick one of {', '.join(VOCABULARY)}")
    return entity_key(folded, normalise_name(name))


# ---- resolution on the write path ----------------------------------------------------------
def candidate_keys(norm: str) -> list[str]:
    """Every typed key a bare name could have: resolution is an exact lookup, never fuzzy."""
    return [entity_key(t, norm) for t in VOCABULARY]


def resolve(norm: str, known: Iterable[str]) -> tuple[str, str]:
    """(type, key) for an untyped name: the one typed entity of that name, else a placeholder."""
    typed = sorted({k for k in known
                    if k.split(":", 1)[1] == norm and not k.startswith(UNKNOWN + ":")})
    if len(typed) == 1:
        return typed[0].split(":", 1)[0], typed[0]
    return UNKNOWN, entity_key(UNKNOWN, norm)


# ---- operations ----------------------------------------------------------------------------
def create(tx: ManagedTransaction, space: str, now: datetime, *, key: str, type: str,
           name: str, norm: str) -> Entity:
    """The entity of `key`, created when missing (the key is the identity)."""
    rows = run(tx, "entities/create", space=space, now=now, key=key, type=type, name=name,
               norm=norm)
    return row_to_entity(rows[0]["entity"])


def seed(tx: ManagedTransaction, outbox: Outbox, type_: str, name: str,
         now: datetime) -> Entity:
    """Seed a canonical entity ahead of ingestion (idempotent); the entity and its event in
    one transaction, so a restore replays it."""
    key = typed_key(type_, name)
    params = {"key": key, "type": key.split(":")[0], "name": name.strip(),
              "norm": normalise_name(name)}
    entity = create(tx, outbox.space, now, **params)
    outbox.record(tx, "entity", params, now)
    return entity


def listing(graph: GraphDriver, space: str, type_: str | None = None,
            as_of: datetime | None = None) -> list[Entity]:
    prefix = None
    if type_ is not None:
        folded = fold_type(type_)
        prefix = f"{folded}:" if folded else None
    rows = graph.read("entities/list", space=space, prefix=prefix, at=as_of)
    return [row_to_entity(r["entity"]) for r in rows]


def find(tx: ManagedTransaction, space: str, query: str, limit: int) -> list[dict[str, Any]]:
    """The entities the `entity_search` full-text index matches to `query` (`entity` and
    `score` per row), best first."""
    return plain(tx, "entities/find", space=space, query=query, limit=limit)


def get_in(tx: ManagedTransaction, space: str, key: str) -> Entity | None:
    """One entity by its composite key (`type:normalised name`), in the caller's
    transaction."""
    rows = plain(tx, "entities/get", space=space, key=key)
    return row_to_entity(rows[0]["entity"]) if rows else None


def typed_in(tx: ManagedTransaction, space: str, type_: str, name: str) -> Entity:
    """The entity of a type and a name, in the caller's transaction."""
    folded = fold_type(type_)
    if folded is None:
        raise InvalidInput("entity type is required")
    found = get_in(tx, space, entity_key(folded, normalise_name(name)))
    if found is None:
        raise NotFound(f"no entity {name!r} of type {folded} in this space")
    return found


def named_in(tx: ManagedTransaction, space: str, name: str) -> list[Entity]:
    """Every entity of that exact (normalised) name, whatever its type, placeholders too."""
    norm = normalise_name(name)
    keys = [*candidate_keys(norm), entity_key(UNKNOWN, norm)]
    return [row_to_entity(r["entity"])
            for r in plain(tx, "entities/by_key", space=space, keys=keys)]


def by_key(graph: GraphDriver, space: str, key: str) -> Entity:
    """One entity by its composite key (`type:normalised name`)."""
    found = graph.execute(get_in, space, key, write=False)
    if found is None:
        raise NotFound(f"no entity {key!r} in this space")
    return found


def get(graph: GraphDriver, space: str, type_: str, name: str) -> Entity:
    return graph.execute(typed_in, space, type_, name, write=False)


def by_name(graph: GraphDriver, space: str, name: str) -> list[Entity]:
    """Every entity of that exact (normalised) name, whatever its type, placeholders too."""
    return graph.execute(named_in, space, name, write=False)


def vocabulary(graph: GraphDriver, space: str, limit: int = 200,
               when: When = NOW) -> Vocabulary:
    """Known entity names (seeded first) and relation labels in use, now or at
    another point of either clock."""
    if when == NOW:
        rows = graph.read("entities/vocabulary", space=space, limit=limit)
    else:
        rows = graph.read("entities/vocabulary_at", space=space, limit=limit, **when.params())
    entities = tuple(row_to_entity(e) for e in rows[0]["entities"]) if rows else ()
    relations = tuple(rows[0]["relations"] or ())[:limit] if rows else ()
    return Vocabulary(entities, relations)


def sweep_placeholders(tx: ManagedTransaction, space: str, types: list[str]
                       ) -> list[dict[str, Any]]:
    """Attach each placeholder to the one entity of its name among `types`; a row per
    placeholder with the target it got (None when none or several matched)."""
    return run(tx, "entities/sweep_placeholders", space=space, types=types)


def sweep(tx: ManagedTransaction, outbox: Outbox, now: datetime) -> SweepResult:
    """Attach each placeholder to the one typed entity of its name (ambiguous ones stay);
    when something was attached, the event too, so a restore replays it with the same
    vocabulary."""
    types = list(VOCABULARY)
    rows = sweep_placeholders(tx, outbox.space, types)
    if any(r["target"] for r in rows):
        outbox.record(tx, "sweep", {"types": types}, now)
    attached = tuple((r["placeholder"], r["target"]) for r in rows if r["target"])
    left = tuple(r["placeholder"] for r in rows if not r["target"])
    return SweepResult(attached, left)
