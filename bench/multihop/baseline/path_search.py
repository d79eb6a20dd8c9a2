"""The question-guided path search behind recall_related: a beam over the entity graph.

From the entities the question names, each hop reads the edges around the beam's last
entities grouped by relation and direction (`cypher/traversal/expand_groups`), scores every
grown path against the question (`path_rank`), and keeps the best `beam` of them, at most a
few siblings of one group. Every path met is a candidate answer; the search stops when no
path in the beam could still beat the best candidate, or at the hop bound. The whole search
runs in the caller's read transaction.

Hubs: an entity heads few edges, so its outgoing edges are read whole; its incoming ones can
number thousands (every employee of a company), so past the first hop only the incoming
relations a phrase of the question could mean are read, a few edges of each.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from neo4j import ManagedTransaction

from bench.multihop.baseline import path_rank, question
from bench.multihop.baseline.path_rank import Hop, Lexicon, PathRanking, Vector
from graphmem.embeddings.types import Vector as EmbeddingVector
from graphmem.graph.entities import row_to_entity
from graphmem.graph.projection import edge_type
from graphmem.graph.rows import plain
from graphmem.model.entities import Entity
from graphmem.model.paths import Edge, Path

Vectors = Callable[[Sequence[str]], Mapping[str, EmbeddingVector]]
SIBLINGS = 3  # paths of one group (same parent, relation and direction) kept in the beam
PROBE = 32  # incoming edges of one relation read at an entity past the first hop
_SUBJECT_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class _Group:
    type: str
    forward: bool
    size: int
    edges: tuple[tuple[Edge, Entity, str], ...]  # the edge, the entity reached, the role


@dataclass(frozen=True)
class Found:
    """Candidate paths best first, with their scores, every entity they touch, and whether a
    cap left edges unread."""

    paths: tuple[Path, ...]
    entities: dict[str, Entity]
    truncated: bool


@dataclass(frozen=True)
class _Partial:
    keys: tuple[str, ...]
    edges: tuple[Edge, ...]
    hops: tuple[Hop, ...]
    reading: question.Question
    group: tuple[int, str, bool]  # (parent, relation type, direction): siblings share it


def label(edge: Edge) -> str:
    """The relation's words: its label, else its type read as words."""
    return edge.relation or edge.type.lower().replace("_", " ")


def role(subject: str, relation: str, head: Entity) -> str:
    """What the relation makes its tail, read from the fact's subject without the head's
    name (`amara_dunmore_employer` → `employer`); the relation label when nothing is left."""
    name = set(_SUBJECT_WORD.findall(head.norm))
    words = [w for w in _SUBJECT_WORD.findall((subject or "").casefold()) if w not in name]
    return " ".join(words) or relation


def _edges(here: Entity, group: dict[str, Any]) -> tuple[tuple[Edge, Entity, str], ...]:
    found = []
    for item in group["edges"]:
        there = row_to_entity(item["other"])
        head, tail = (here, there) if group["forward"] else (there, here)
        edge = Edge(fact_id=item["fact_id"], type=group["type"],
                    relation=item.get("relation") or "", head=head.key, tail=tail.key,
                    status=item["status"], confidence=item.get("confidence"))
        found.append((edge, there, role(item.get("subject") or "", label(edge), head)))
    return tuple(found)


def _unit(vector: Sequence[float]) -> Vector:
    array = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(array))
    return array / norm if norm else array


class _Search:
    """One search's reads and what it has learned: vectors, the lexicon, the entities."""

    def __init__(self, tx: ManagedTransaction, space: str, vectors: Vectors,
                 rank: PathRanking, as_of: datetime | None, valid_at: datetime | None
                 ) -> None:
        self.tx, self.space, self.vectors, self.rank = tx, space, vectors, rank
        self.when = {"as_of": as_of, "valid_at": valid_at}
        self.lexicon = Lexicon({}, set(), set())
        self.known: dict[str, Vector] = {}
        self.entities: dict[str, Entity] = {}
        self.truncated = False
        labels = plain(tx, "traversal/relation_types", space=space)
        self.types = {edge_type(text.replace("_", " ")): text.replace("_", " ")
                      for text in (labels[0]["labels"] if labels else [])}

    def embed(self, texts: Iterable[str]) -> None:
        missing = sorted({t for t in texts if t not in self.known})
        if missing:
            self.known.update({t: _unit(v) for t, v in self.vectors(missing).items()})
            self.lexicon.vectors = self.known

    def incoming(self, readings: Iterable[question.Question]) -> list[str]:
        """The relation types a phrase could mean walked backwards: worth reading at a hub."""
        phrases = {p for reading in readings for p in reading.phrases}
        roles: dict[str, set[str]] = defaultdict(set)
        for relation, role_ in self.lexicon.relations:
            roles[relation].add(role_)
        self.embed([*self.types.values(), *(p.text for p in phrases)])
        return sorted(t for t, words in self.types.items()
                      if any(path_rank.may_mean(self.lexicon, self.rank, p, words, roles[words])
                             for p in phrases))

    def expand(self, beam: Sequence[_Partial], first: bool) -> dict[str, list[_Group]]:
        """The groups around the beam's last entities (every incoming one on the first hop)."""
        ends = sorted({p.keys[-1] for p in beam})
        asked = [] if first else self.incoming(p.reading for p in beam)
        frontier = [{"key": k, "all_incoming": first, "incoming": asked} for k in ends]
        rows = plain(self.tx, "traversal/expand_groups", space=self.space, frontier=frontier,
                     per_group=self.rank.per_group, probe=PROBE, **self.when)
        groups: dict[str, list[_Group]] = {}
        for row in rows:
            here = row_to_entity(row["entity"])
            self.entities[here.key] = here
            found = [_Group(g["type"], g["forward"], int(g["size"]), _edges(here, g))
                     for g in row["groups"] if g["edges"]]
            self.truncated = self.truncated or any(g.size > len(g.edges) for g in found)
            groups[here.key] = found
        self.learn(beam, [g for gs in groups.values() for g in gs])
        return groups

    def learn(self, beam: Sequence[_Partial], groups: Sequence[_Group]) -> None:
        """Vectors for every text the scores will compare, in one call for what is new."""
        relations = {(label(edge), role_) for g in groups for edge, _, role_ in g.edges}
        reached = [there for g in groups for _, there, _ in g.edges]
        self.entities.update((e.key, e) for e in reached if e.key not in self.entities)
        types = {e.type for e in reached} | {e.type for e in self.entities.values()}
        texts = {text for pair in relations for text in pair} | types
        for partial in beam:
            texts |= {p.text for p in partial.reading.phrases}
            if partial.reading.answer_kind:
                texts.add(partial.reading.answer_kind)
        self.embed(texts)
        self.lexicon.add(relations, types)

    def grow(self, partial: _Partial, parent: int, group: _Group
             ) -> Iterable[tuple[path_rank.Scored, _Partial]]:
        for edge, there, role_ in group.edges:
            if there.key in partial.keys:
                continue
            hop = Hop(label(edge), role_, group.forward, there.type, group.size,
                      there.norm in partial.reading.others)
            grown = _Partial((*partial.keys, there.key), (*partial.edges, edge),
                             (*partial.hops, hop), partial.reading,
                             (parent, group.type, group.forward))
            yield path_rank.score(self.lexicon, grown.reading, grown.hops, self.rank), grown


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
           valid_at: datetime | None, limit: int, rank: PathRanking = path_rank.DEFAULT
           ) -> Found:
    """Paths of up to `max_hops` edges from `starts`, best first for the question `text`;
    the other entities the question names are not read as relation words."""
    names = tuple(s.norm for s in starts)
    searcher = _Search(tx, space, vectors, rank, as_of, valid_at)
    searcher.entities.update((s.key, s) for s in starts)
    beam = [_Partial((s.key,), (), (), question.read(
        text, s.norm, tuple(n for n in names if n != s.norm)), (-1, "", True)) for s in starts]
    found: list[tuple[path_rank.Scored, _Partial]] = []
    for hop in range(max_hops):
        if not beam:
            break
        groups = searcher.expand(beam, first=hop == 0)
        grown = [item for parent, partial in enumerate(beam)
                 for group in groups.get(partial.keys[-1], ())
                 for item in searcher.grow(partial, parent, group)]
        found += grown
        best = max((s.score for s, _ in found), default=float("-inf"))
        beam = [p for s, p in _kept(grown, rank.beam) if s.score + s.hope > best]
    ranked = sorted(found, key=lambda s: (-s[0].score, len(s[1].edges), s[1].keys))[:limit]
    paths = tuple(Path(p.keys, p.edges, round(s.score, 4), s.matched) for s, p in ranked)
    return Found(paths, searcher.entities, searcher.truncated)
