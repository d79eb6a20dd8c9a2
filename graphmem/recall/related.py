"""recall_related: start entities, then paths, and the facts behind each edge.

With a question, the paths are searched and ranked by it (`path_search`: a beam guided by
how well each path's relations answer the question's phrases), up to `hops` edges (4 when
not given), and the ends of the best paths are the answer entities. Without one, the
neighbourhood of the given entities is walked breadth first (`graph.traverse`), unranked.
The whole read runs in one read transaction, so it sees one consistent graph.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from neo4j import ManagedTransaction

from graphmem.embeddings.errors import EmbedderUnavailable
from graphmem.errors import InvalidInput
from graphmem.graph.driver import GraphDriver
from graphmem.graph.traverse import edge_facts, traverse
from graphmem.lexicon.senses import Senses
from graphmem.model import Fact
from graphmem.model.entities import Entity
from graphmem.model.paths import Bounds, Edge, Path, PathStep, Related, StartSpec, provenance
from graphmem.recall import path_pattern, path_search
from graphmem.recall.path_rank import DEFAULT, PathRanking
from graphmem.recall.path_search import Vectors
from graphmem.recall.relation_knowledge import RelationKnowledge
from graphmem.recall.start_entities import (
    check_typed,
    find_start,
    lucene_query,
    resolve_given,
    typed_keys,
)

__all__ = ["Bounds", "Edge", "Path", "PathStep", "Reader", "Related", "StartSpec",
           "lucene_query", "provenance", "recall_related"]

log = logging.getLogger(__name__)

NEIGHBOURHOOD_HOPS = 2  # the walk's depth when no question and no `hops` is given
SEARCH_HOPS = 4  # a question's path search depth when no `hops` is given


def _starts(tx: ManagedTransaction, space: str, question: str | None,
            given: Sequence[StartSpec] | None) -> tuple[Sequence[Entity] | Sequence[str], str]:
    keys = typed_keys(given) if given else None
    if keys:  # looked up by the walk's first hop: one round trip less
        return keys, "given"
    if given:
        return resolve_given(tx, space, given), "given"
    if question and question.strip():
        return find_start(tx, space, question)
    raise InvalidInput("recall_related needs a question or a list of entities")


@dataclass(frozen=True)
class Reader:
    """What reads a question's words: the embedding model's vectors, the lexicon (None when
    WordNet is not installed) and the process's knowledge of each space's relations."""

    vectors: Vectors | None
    senses: Senses | None = None
    knowledge: RelationKnowledge = field(default_factory=RelationKnowledge)
    rank: PathRanking = DEFAULT


def _recall(tx: ManagedTransaction, space: str, question: str | None,
            given: Sequence[StartSpec] | None, hops: int | None, as_of: datetime | None,
            valid_at: datetime | None, bounds: Bounds, reader: Reader,
            pattern: Sequence[PathStep] | None, after: str | None) -> Related:
    start, how = _starts(tx, space, question, given)
    if pattern:
        return _pattern(tx, space, start, how, given, pattern, as_of, valid_at, bounds, after)
    looked_up = isinstance(start, list) and all(isinstance(s, str) for s in start)
    notes: tuple[str, ...] = ()
    if question and question.strip() and reader.vectors is not None:
        try:
            depth = hops or min(SEARCH_HOPS, bounds.hops)
            return _ranked(tx, space, question, start, how, given, depth, as_of,
                           valid_at, bounds, reader)
        except EmbedderUnavailable as e:
            log.warning("recall_related could not rank paths by the question: %s", e)
            notes = (f"paths are not ranked: the embedding model is unavailable ({e})",)
    depth = hops or min(NEIGHBOURHOOD_HOPS, bounds.hops)
    walked, paths, found, truncated = traverse(tx, space, start, depth, as_of, valid_at,
                                               bounds)
    if given and looked_up:  # typed keys the walk's first hop looked up
        check_typed(given, walked)
    facts = edge_facts(tx, space, paths, as_of)
    return Related(tuple(walked), _timed(paths, facts), found, facts, truncated, depth, None,
                   how, notes)


def _ranked(tx: ManagedTransaction, space: str, question: str,
            start: Sequence[Entity] | Sequence[str], how: str,
            given: Sequence[StartSpec] | None, hops: int, as_of: datetime | None,
            valid_at: datetime | None, bounds: Bounds, reader: Reader) -> Related:
    entities = _entities(tx, space, start, given)
    assert reader.vectors is not None
    found = path_search.search(tx, space, entities, question, reader.vectors, hops, as_of,
                               valid_at, bounds.paths, reader.rank, reader.senses,
                               reader.knowledge)
    facts = edge_facts(tx, space, found.paths, as_of)
    best = found.paths[0] if found.paths else None
    understood = best is not None and best.understood
    notes = () if reader.senses is not None else (
        "the lexicon (WordNet) is not installed: the question's words are compared with"
        " the relations' labels by the embedding model alone",)
    return Related(tuple(entities), _timed(found.paths, facts), found.entities, facts,
                   found.truncated, hops, None, how, notes,
                   answers=_answers(found.paths) if understood else (),
                   unexplained=best.unexplained if best else (),
                   guessed=best.guessed if best else (),
                   unasked=best.unasked if best else (), mismatch=best.mismatch if best else "")


def _pattern(tx: ManagedTransaction, space: str, start: Sequence[Entity] | Sequence[str],
             how: str, given: Sequence[StartSpec] | None, pattern: Sequence[PathStep],
             as_of: datetime | None, valid_at: datetime | None, bounds: Bounds,
             after: str | None) -> Related:
    entities = _entities(tx, space, start, given)
    paths, reached, truncated, more = path_pattern.follow(
        tx, space, entities, pattern, as_of, valid_at, bounds.paths, after)
    facts = edge_facts(tx, space, paths, as_of)
    ends = tuple(dict.fromkeys(p.keys[-1] for p in paths))
    return Related(tuple(entities), _timed(paths, facts), reached, facts, truncated,
                   len(pattern), None, how, answers=ends, next_cursor=more)


def _entities(tx: ManagedTransaction, space: str, start: Sequence[Entity] | Sequence[str],
              given: Sequence[StartSpec] | None) -> list[Entity]:
    """The start as entities (given keys are looked up; a missing typed one is NotFound)."""
    if all(isinstance(s, Entity) for s in start):
        return [s for s in start if isinstance(s, Entity)]
    entities = resolve_given(tx, space, given or ())
    check_typed(given or (), entities)
    return entities


def _answers(paths: Sequence[Path]) -> tuple[str, ...]:
    """The ends of the best path and of its siblings: paths that tie with it along the same
    relations from the same entities but the last (the products a company makes)."""
    if not paths or paths[0].score is None:
        return ()
    best = paths[0]
    ends = [p.keys[-1] for p in paths if p.score == best.score
            and p.keys[:-1] == best.keys[:-1] and _shape(p) == _shape(best)]
    return tuple(dict.fromkeys(ends))


def _shape(path: Path) -> list[tuple[str, bool]]:
    """Each relation of the path and whether it is walked from its head."""
    return [(e.type, e.head == k) for e, k in zip(path.edges, path.keys, strict=False)]


def _timed(paths: Sequence[Path], facts: dict[str, Fact]) -> tuple[Path, ...]:
    """Each edge is valid as its fact is (the hop queries leave times to the facts); paths
    share their edge objects, so each is rebuilt once (by identity)."""
    timed: dict[int, Edge] = {}

    def valid(e: Edge) -> Edge:
        found = timed.get(id(e))
        if found is None:
            fact = facts.get(e.fact_id)
            found = e if fact is None else replace(e, valid_from=fact.valid_from,
                                                   valid_to=fact.valid_to)
            timed[id(e)] = found
        return found

    return tuple(replace(p, edges=tuple(valid(e) for e in p.edges)) for p in paths)


def recall_related(graph: GraphDriver, space: str, question: str | None,
                   given: Sequence[StartSpec] | None, hops: int | None,
                   as_of: datetime | None, valid_at: datetime | None, bounds: Bounds,
                   reader: Reader | None = None, pattern: Sequence[PathStep] | None = None,
                   after: str | None = None) -> Related:
    """Start entities (given, or named in the question), then paths and their facts: ranked
    by the question when there is one (and the reader has vectors to compare its words
    with), else the neighbourhood, unranked. An answer is named only when every word of the
    question is explained by the best path's relations. With a path `pattern`, exactly the
    paths along it, a page after `after`, and their ends as the answers."""
    assert hops is None or 1 <= hops <= bounds.hops, hops  # checked by the service
    if after is not None and not pattern:
        raise InvalidInput("a cursor pages a path pattern's paths: give the same `path`")
    return graph.execute(_recall, space, question, given, hops, as_of, valid_at, bounds,
                         reader or Reader(None), pattern, after, write=False)
