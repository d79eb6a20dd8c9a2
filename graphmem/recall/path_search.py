"""The question-guided path search behind recall_related: a beam over the entity graph.

From the entities the question names, each hop reads the edges around the beam's last
entities grouped by relation and direction (`cypher/traversal/expand_groups`), weighs each
phrase of the question against every relation an entity offers (`path_rank.gains`), scores
every grown path (`path_rank.score`) and keeps the best `beam` of them, at most a few
siblings of one group. Every path met is a candidate answer; the search stops when no path
in the beam could still beat the best candidate, or at the hop bound. The whole search runs
in the caller's read transaction.

Hubs: an entity heads few edges, so its outgoing edges are read whole; its incoming ones can
number thousands (every employee of a company), so past the first hop only the incoming
relations a phrase of the question could mean are read, a few edges of each.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from neo4j import ManagedTransaction

from graphmem.embeddings.types import Vector as EmbeddingVector
from graphmem.graph import traverse
from graphmem.graph.entities import row_to_entity
from graphmem.lexicon.senses import Senses
from graphmem.model.entities import Entity
from graphmem.model.paths import Edge, Path
from graphmem.model.relations import RelationInfo
from graphmem.recall import path_rank, question
from graphmem.recall.evidence import UNTYPED, Judge, Memo, Option, Vector
from graphmem.recall.path_rank import Hop, PathRanking
from graphmem.recall.relation_knowledge import Known, RelationKnowledge

Vectors = Callable[[Sequence[str]], Mapping[str, EmbeddingVector]]
SIBLINGS = 3  # paths of one group (same parent, relation and direction) kept in the beam
PROBE = 32  # incoming edges of one relation read at an entity past the first hop
WRITTEN_FITS = 0.5  # a written type this close to the entities' type is a sense of it
MAY_MEAN = 0.25  # word evidence from which a relation is worth reading backwards at a hub


@dataclass(frozen=True)
class _Group:
    type: str
    forward: bool
    size: int
    edges: tuple[tuple[Edge, Entity], ...]  # the edge and the entity reached


@dataclass(frozen=True)
class Found:
    """Candidate paths best first, with their scores, every entity they touch, whether a
    cap left edges unread, and what was known of the relations."""

    paths: tuple[Path, ...]
    entities: dict[str, Entity]
    truncated: bool
    relations: Mapping[str, RelationInfo]


@dataclass(frozen=True)
class _Partial:
    keys: tuple[str, ...]
    edges: tuple[Edge, ...]
    hops: tuple[Hop, ...]
    reading: question.Question
    phrases: tuple[question.Phrase, ...]
    group: tuple[int, str, bool]  # (parent, relation type, direction): siblings share it


def label(edge: Edge) -> str:
    """The relation's words: its label, else its type read as words."""
    return edge.relation or edge.type.lower().replace("_", " ")


def _edges(here: Entity, group: dict[str, Any]) -> tuple[tuple[Edge, Entity], ...]:
    found = []
    for item in group["edges"]:
        there = row_to_entity(item["other"])
        head, tail = (here, there) if group["forward"] else (there, here)
        edge = Edge(fact_id=item["fact_id"], type=group["type"],
                    relation=item.get("relation") or "", head=head.key, tail=tail.key,
                    status=item["status"], confidence=item.get("confidence"))
        found.append((edge, there))
    return tuple(found)


def _unit(vector: Sequence[float]) -> Vector:
    array = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(array))
    return array / norm if norm else array


class _Search:
    """One search's reads and what it has learned: vectors, the judge, the entities."""

    def __init__(self, tx: ManagedTransaction, space: str, vectors: Vectors,
                 rank: PathRanking, as_of: datetime | None, valid_at: datetime | None,
                 senses: Senses | None, known: Known, memo: Memo) -> None:
        self.tx, self.space, self.vectors, self.rank = tx, space, vectors, rank
        self.when = {"as_of": as_of, "valid_at": valid_at}
        self.known = known
        self.judge = Judge(senses, {}, known.relations, rank, memo)
        self.embedded: dict[str, Vector] = {}
        self.entities: dict[str, Entity] = {}
        self.truncated = False
        self._gains: dict[tuple[tuple[question.Phrase, ...], str], dict[Option, tuple[
            path_rank.Asked, ...]]] = {}

    def embed(self, texts: Iterable[str]) -> None:
        missing = sorted({t for t in texts if t and t not in self.embedded})
        if missing:
            self.embedded.update({t: _unit(v) for t, v in self.vectors(missing).items()})
            self.judge.vectors = self.embedded

    def end_types(self, type_: str, forward: bool, reached: Iterable[Entity]) -> tuple[str,
                                                                                       ...]:
        """The types an end was written with and the entities' own: a written type is kept
        only in a sense the entities' type allows (a `field` written for a topic is no
        field of grass, which WordNet would file under locations)."""
        info = self.known.relations.get(type_)
        written = (info.tail_types if forward else info.head_types) if info else ()
        folded = list(dict.fromkeys(e.type for e in reached))
        known = [t for t in folded if t not in UNTYPED]
        if known and self.judge.senses is not None:
            written = tuple(w for w in written if any(
                w == t or (self.judge.kind(w, (t,)) or 0.0) >= WRITTEN_FITS for t in known))
        return tuple(dict.fromkeys([*written, *folded]))

    def incoming(self, beam: Sequence[_Partial]) -> list[str]:
        """The relation types a phrase's words could mean walked backwards: worth reading at
        a hub (a guess from the kind of entity alone is not: everyone who works at a
        company is a person)."""
        phrases = {p for partial in beam for p in partial.phrases
                   if p.kind != question.NOUN or p.relational}  # class nouns take no hop
        wanted = []
        for type_ in self.known.relations:
            back = Option(type_, False, self.end_types(type_, False, ()))
            ahead = Option(type_, True, self.end_types(type_, True, ()))
            if any(MAY_MEAN <= self.judge.evidence(p, back).words
                   >= self.judge.evidence(p, ahead).words for p in phrases):
                wanted.append(type_)  # read backwards at least as well as forwards
        return sorted(wanted)

    def expand(self, beam: Sequence[_Partial], first: bool) -> dict[str, list[_Group]]:
        """The groups around the beam's last entities (every incoming one on the first hop)."""
        ends = sorted({p.keys[-1] for p in beam})
        asked = [] if first else self.incoming(beam)
        frontier = [{"key": k, "all_incoming": first, "incoming": asked} for k in ends]
        rows = traverse.expand_groups(self.tx, self.space, frontier, self.rank.per_group,
                                      PROBE, self.when)
        groups: dict[str, list[_Group]] = {}
        for row in rows:
            here = row_to_entity(row["entity"])
            self.entities[here.key] = here
            found = [_Group(g["type"], g["forward"], int(g["size"]), _edges(here, g))
                     for g in row["groups"] if g["edges"]]
            self.truncated = self.truncated or any(g.size > len(g.edges) for g in found)
            groups[here.key] = found
            self.entities.update((e.key, e) for g in found for _, e in g.edges)
        return groups

    def options(self, groups: Sequence[_Group]) -> dict[tuple[str, bool], Option]:
        return {(g.type, g.forward): Option(g.type, g.forward, self.end_types(
            g.type, g.forward, (e for _, e in g.edges))) for g in groups}

    def gains(self, partial: _Partial, key: str, options: Mapping[tuple[str, bool], Option]
              ) -> dict[Option, tuple[path_rank.Asked, ...]]:
        cache_key = (partial.phrases, key)
        found = self._gains.get(cache_key)
        if found is None:
            texts = {p.text for p in partial.phrases}
            texts |= {r.words for o in options.values()
                      for r in self._readings(o.relation)}
            self.embed(texts)
            found = self._gains[cache_key] = path_rank.gains(
                self.judge, partial.phrases, list(options.values()))
        return found

    def _readings(self, type_: str) -> Sequence[Any]:
        info = self.known.relations.get(type_)
        return info.readings if info else ()

    def grow(self, partial: _Partial, parent: int, group: _Group,
             option: Option, asked: tuple[path_rank.Asked, ...]
             ) -> Iterable[tuple[path_rank.Scored, _Partial]]:
        start = self.entities.get(partial.keys[0])
        scored: dict[Hop, path_rank.Scored] = {}  # siblings of one type score alike
        for edge, there in group.edges:
            if there.key in partial.keys:
                continue
            hop = Hop(option.relation, group.forward,
                      tuple(dict.fromkeys([*option.end_types, there.type])), asked,
                      group.size, there.norm in partial.reading.others)
            grown = _Partial((*partial.keys, there.key), (*partial.edges, edge),
                             (*partial.hops, hop), partial.reading, partial.phrases,
                             (parent, group.type, group.forward))
            found = scored.get(hop)
            if found is None:
                found = scored[hop] = path_rank.score(
                    self.judge, grown.reading, grown.phrases, grown.hops,
                    (start.type,) if start else ())
            yield found, grown


def _kept(scored: list[tuple[path_rank.Scored, _Partial]], width: int
          ) -> list[tuple[path_rank.Scored, _Partial]]:
    """The best `width` by what they could still reach, at most SIBLINGS of one group."""
    per_group: dict[tuple[int, str, bool], int] = defaultdict(int)
    kept = []
    for item in sorted(scored, key=lambda s: -(s[0].score + s[0].hope)):
        group = item[1].group
        if per_group[group] >= SIBLINGS:
            continue
        per_group[group] += 1
        kept.append(item)
        if len(kept) == width:
            break
    return kept


def search(tx: ManagedTransaction, space: str, starts: Sequence[Entity], text: str,
           vectors: Vectors, max_hops: int, as_of: datetime | None,
           valid_at: datetime | None, limit: int, rank: PathRanking = path_rank.DEFAULT,
           senses: Senses | None = None, knowledge: RelationKnowledge | None = None
           ) -> Found:
    """Paths of up to `max_hops` edges from `starts`, best first for the question `text`;
    the other entities the question names are not read as relation words."""
    lowered = question.normalise(text)
    starts = sorted(starts, key=lambda s: (lowered.find(s.norm) % (len(lowered) + 1)))
    names = tuple(s.norm for s in starts)
    knowledge = knowledge or RelationKnowledge()
    known = knowledge.known(tx, space, senses)
    searcher = _Search(tx, space, vectors, rank, as_of, valid_at, senses, known,
                       knowledge.memo)
    searcher.entities.update((s.key, s) for s in starts)
    beam = []
    order = {s.key: k for k, s in enumerate(starts)}  # the entity named first, first
    for s in starts:
        reading = question.read(text, s.norm, tuple(n for n in names if n != s.norm), senses)
        beam.append(_Partial((s.key,), (), (), reading, path_rank.phrases_of(reading),
                             (-1, "", True)))
    found: list[tuple[path_rank.Scored, _Partial]] = []
    for hop in range(max_hops):
        if not beam:
            break
        groups = searcher.expand(beam, first=hop == 0)
        grown: list[tuple[path_rank.Scored, _Partial]] = []
        for parent, partial in enumerate(beam):
            here = groups.get(partial.keys[-1], [])
            options = searcher.options(here)
            asked = searcher.gains(partial, partial.keys[-1], options)
            for group in here:
                option = options[(group.type, group.forward)]
                grown += searcher.grow(partial, parent, group, option, asked[option])
        found += grown
        best = max((s.score for s, _ in found), default=float("-inf"))
        beam = [p for s, p in _kept(grown, rank.beam) if s.score + s.hope > best]
    ranked = sorted(found, key=lambda s: (-s[0].score, len(s[1].edges), order[s[1].keys[0]],
                                          s[1].keys))[:limit]
    paths = tuple(Path(p.keys, p.edges, round(s.score, 4), s.matched, s.sources,
                       s.unexplained, s.guessed, s.readings, s.unasked, s.mismatch)
                  for s, p in ranked)
    return Found(paths, searcher.entities, searcher.truncated, known.relations)
