"""Everything known about a space's relations, gathered for a question: each relation
type's labels, the types its facts wrote for its ends, and its readings from every source
(`relation_readings`).

What the facts were written with is read from a sample of each relation's facts
(`recall/relation_profiles`) and reused for `relation_refresh_seconds`; the declared schema
and the models' descriptions are read with the space's relation labels on every question,
so a change to them counts at once.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph import recall, traverse
from graphmem.graph.driver import GraphDriver
from graphmem.graph.identifiers import relation_type
from graphmem.lexicon.senses import Senses
from graphmem.model.relations import (
    Reading,
    ReadingKind,
    ReadingSource,
    RelationDeclaration,
    RelationDescription,
    RelationInfo,
    RelationSchema,
)
from graphmem.recall import relation_readings as readings
from graphmem.recall.evidence import Memo
from graphmem.recall.question import FUNCTION_WORDS, normalise
from graphmem.recall.relation_schema import descriptions_from_json, schema_from_json

MAX_TYPES = 3  # end types kept per relation end, most written first
BUILT = 10_000  # relations' knowledge kept built, by what it was built from
TEXT_WORDS = 4  # words learned from text per relation
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


@dataclass(frozen=True)
class Profile:
    """What one relation's sampled facts were written with."""

    labels: tuple[str, ...]
    head_types: tuple[str, ...]
    tail_types: tuple[str, ...]
    roles: tuple[str, ...]
    texts: tuple[tuple[str, str, str], ...]  # (text, head, tail)
    facts: int
    pairs: tuple[tuple[str, str], ...] = ()  # (head, tail) of a few facts


@dataclass(frozen=True)
class Known:
    """A space's relations as one question sees them."""

    relations: dict[str, RelationInfo]
    labels: tuple[str, ...]  # snake_case keys of every relation the space holds
    schema: RelationSchema
    described: dict[str, RelationDescription]
    profiles: Mapping[str, Profile]

    def examples(self, type_: str) -> list[tuple[str, str]]:
        """A few (head, tail) pairs of the relation's sampled facts."""
        return [(head, tail) for label, p in self.profiles.items() if _type(label) == type_
                for head, tail in p.pairs][:10]


def role_of(subject: str, head: str) -> str:
    """What a fact's subject calls the tail, without the head's name
    (`amara_dunmore_employer` → employer)."""
    name = set(_WORD.findall(normalise(head or "")))
    words = [w for w in re.findall(r"[^\W_]+", (subject or "").casefold()) if w not in name]
    return " ".join(words)


def _profile(facts: Sequence[Mapping[str, Any]]) -> Profile:
    labels = Counter(f.get("relation") or "" for f in facts)
    heads = Counter((f.get("head_type") or "").casefold() for f in facts)
    tails = Counter((f.get("tail_type") or "").casefold() for f in facts)
    roles = [role_of(f.get("subject") or "", f.get("head") or "") for f in facts]
    texts = tuple((f["text"], f.get("head") or "", f.get("tail") or "")
                  for f in facts if f.get("text"))
    return Profile(tuple(label for label, _ in labels.most_common() if label),
                   tuple(t for t, _ in heads.most_common(MAX_TYPES) if t),
                   tuple(t for t, _ in tails.most_common(MAX_TYPES) if t),
                   tuple(r for r in roles if r), texts[:20], len(facts),
                   tuple((f.get("head") or "", f.get("tail") or "") for f in facts[:10]))


class RelationKnowledge:
    """One process's memory of what each space's relations were written with."""

    def __init__(self, sample: int = 50, refresh_seconds: float = 30.0) -> None:
        self.sample = sample
        self.refresh_seconds = refresh_seconds
        self._lock = threading.Lock()
        self._profiles: dict[str, tuple[float, dict[str, Profile]]] = {}
        self._built: dict[tuple[Any, ...], RelationInfo] = {}
        self.memo = Memo()  # what comparing words taught this process

    def forget(self, space: str | None = None) -> None:
        """Read the facts again on the next question (of `space`, or of every space)."""
        with self._lock:
            if space is None:
                self._profiles.clear()
            else:
                self._profiles.pop(space, None)

    def profiles(self, tx: ManagedTransaction, space: str, labels: Sequence[str]
                 ) -> dict[str, Profile]:
        now = time.monotonic()
        with self._lock:
            at, found = self._profiles.get(space, (0.0, {}))
        fresh = now - at < self.refresh_seconds
        missing = [label for label in labels if label not in found or not fresh]
        if missing:
            rows = recall.relation_profiles(tx, space, missing, self.sample)
            found = {**found, **{r["label"]: _profile(r["facts"]) for r in rows}}
            with self._lock:
                self._profiles[space] = (now if not fresh or not at else at, found)
        return found

    def read(self, graph: GraphDriver, space: str, senses: Senses | None) -> Known:
        """`known` in a read transaction of its own."""
        return graph.execute(self.known, space, senses, write=False)

    def known(self, tx: ManagedTransaction, space: str, senses: Senses | None) -> Known:
        row = traverse.relation_types(tx, space) or {"labels": [], "schema": None,
                                                      "described": None}
        labels = tuple(row["labels"] or ())
        schema = schema_from_json(row.get("schema"))
        described = descriptions_from_json(row.get("described"))
        profiles = self.profiles(tx, space, labels)
        grouped: dict[str, list[Profile]] = {}
        for label in labels:
            if label in profiles:
                grouped.setdefault(_type(label), []).append(profiles[label])
        declared = {relation_type(d.label): d for d in schema.relations}
        relations = {}
        for type_ in {*grouped, *declared}:
            inputs = (type_, tuple(grouped.get(type_, [])), declared.get(type_),
                      described.get(type_), senses is not None)
            found = self._built.get(inputs)
            if found is None:
                found = build(type_, grouped.get(type_, []), declared.get(type_),
                              described.get(type_), senses)
                with self._lock:
                    if len(self._built) > BUILT:
                        self._built.clear()
                    self._built[inputs] = found
            relations[type_] = found
        return Known(relations, labels, schema, described, profiles)


def _type(label: str) -> str:
    try:
        return relation_type(label.replace("_", " "))
    except ValueError:
        return label.upper()


def build(type_: str, profiles: Sequence[Profile], declared: RelationDeclaration | None,
          described: RelationDescription | None, senses: Senses | None) -> RelationInfo:
    """One relation's knowledge from its sampled facts, its declaration and a model's
    description; the readings of each source, the most trusted first."""
    labels = tuple(dict.fromkeys(label for p in profiles for label in p.labels))
    if not labels:
        labels = (declared.label if declared else type_.lower().replace("_", " "),)
    found: list[Reading] = []
    if declared is not None:
        found += readings.declared_readings(declared, senses)
        found += _about(declared.description, ReadingSource.DECLARED)
    if described is not None:
        found += readings.declared_readings(described.declaration, senses,
                                            ReadingSource.MODEL)
        found += _about(described.declaration.description, ReadingSource.MODEL)
    for label in labels:
        found += readings.subject_readings((r for p in profiles for r in p.roles), senses,
                                           label)
        found += text_readings([t for p in profiles for t in p.texts], senses, label)
        found += readings.label_readings(label, senses)
    head_types = _types(declared.head_type if declared else None,
                        described.declaration.head_type if described else None,
                        (t for p in profiles for t in p.head_types))
    tail_types = _types(declared.tail_type if declared else None,
                        described.declaration.tail_type if described else None,
                        (t for p in profiles for t in p.tail_types))
    sources = tuple(dict.fromkeys(r.source.value for r in found))
    return RelationInfo(
        type=type_, labels=labels, description=(declared.description if declared else "")
        or (described.declaration.description if described else ""),
        head_types=head_types, tail_types=tail_types, readings=_unique(found),
        facts_read=sum(p.facts for p in profiles), declared=declared is not None,
        described_by=described.model if described else None,
        cardinality=(declared.cardinality if declared else None), sources=sources)


def _types(*given: object) -> tuple[str, ...]:
    found: list[str] = []
    for item in given:
        if isinstance(item, str):
            found.append(item.casefold())
        elif item is not None:
            found += [t for t in item if isinstance(t, str)]  # type: ignore[attr-defined]
    return tuple(dict.fromkeys(t for t in found if t))[:MAX_TYPES]


def _unique(found: Iterable[Reading]) -> tuple[Reading, ...]:
    """One reading per (words, kind), from its most trusted source (they come first)."""
    seen: dict[tuple[str, ReadingKind], Reading] = {}
    for reading in found:
        seen.setdefault((reading.words, reading.kind), reading)
    return tuple(seen.values())


def _about(description: str, source: ReadingSource) -> list[Reading]:
    """A description's content words: what the relation is about, no way round."""
    words = [w for w in readings.content(description) if len(w) > 2][:12]
    return [Reading(w, ReadingKind.ABOUT, source) for w in dict.fromkeys(words)]


def text_readings(texts: Sequence[tuple[str, str, str]], senses: Senses | None, label: str
                  ) -> list[Reading]:
    """Words the facts' texts put between or around the two entities they name, each read
    by where it stands: a noun after a name's possessive (or before `of` a name) names the
    other entity; a verb between them reads from the one before it to the one after.
    Kept when several texts use them (or the only text does), never the label's own."""
    if not texts or senses is None:
        return []
    label_words = set(readings.words(label))
    counted: Counter[tuple[str, ReadingKind, bool]] = Counter()
    for text, head, tail in texts:
        counted.update(set(_placed(senses, normalise(text), normalise(head),
                                   normalise(tail))))
    need = 1 if len(texts) < 3 else 2
    kept = [(w, k, p) for (w, k, p), n in counted.most_common() if n >= need
            and w not in label_words]
    return [Reading(w, k, ReadingSource.TEXT, passive=p,
                    agent=k in (ReadingKind.TAIL, ReadingKind.HEAD) and senses.agentive(w))
            for w, k, p in kept[:TEXT_WORDS]]


def _placed(senses: Senses, text: str, head: str, tail: str
            ) -> Iterable[tuple[str, ReadingKind, bool]]:
    at_head, at_tail = text.find(head), text.find(tail)
    if not head or not tail or at_head < 0 or at_tail < 0:
        return
    for name, other_is_tail in ((head, True), (tail, False)):
        at = text.find(name)
        after = _WORD.findall(text[at + len(name):])
        if after and after[0] in ("s", "'s", "’s") and len(after) > 1:
            noun = after[1]
            if noun not in FUNCTION_WORDS and "n" in senses.parts_of_speech(noun):
                yield noun, ReadingKind.TAIL if other_is_tail else ReadingKind.HEAD, False
        before = _WORD.findall(text[:at])
        if len(before) > 1 and before[-1] == "of" and before[-2] not in FUNCTION_WORDS \
                and "n" in senses.parts_of_speech(before[-2]):
            yield before[-2], ReadingKind.TAIL if other_is_tail else ReadingKind.HEAD, False
    forward = at_head < at_tail
    first, second = (at_head + len(head), at_tail) if forward else (at_tail + len(tail),
                                                                     at_head)
    between = [w for w in _WORD.findall(text[first:second]) if w not in FUNCTION_WORDS]
    for word in between:
        if senses.is_verb_form(word):
            passive = readings.participle(senses, word) and "by" in _WORD.findall(
                text[first:second])
            yield word, ReadingKind.FORWARD if forward else ReadingKind.INVERSE, passive
            break
