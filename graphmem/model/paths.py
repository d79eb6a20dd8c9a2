"""recall_related's plain data: bounds, edges, paths and the result with its rendering."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.errors import InvalidInput
from graphmem.model import Fact
from graphmem.model.entities import Entity


@dataclass(frozen=True)
class Bounds:
    """How much one traversal may do: paths kept, edges read per entity, edges in all, and
    the deepest walk (GRAPHMEM_API_MAX_HOPS, checked by the service before a walk starts)."""

    paths: int = 50
    fanout: int = 100
    expansions: int = 2000
    hops: int = 4

    def __post_init__(self) -> None:
        if min(self.paths, self.fanout, self.expansions) < 1:
            raise InvalidInput("recall_related limits must be at least 1")


@dataclass(frozen=True)
class Edge:
    """One projection edge, in its own direction (head → tail), valid as its fact is."""

    fact_id: str
    type: str
    relation: str
    head: str
    tail: str
    status: str
    confidence: float | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None


@dataclass(frozen=True)
class PathStep:
    """One step of a path pattern: a relation (its label or type) walked from its head
    (`forward`) or from its tail."""

    relation: str
    forward: bool = True


@dataclass(frozen=True)
class Path:
    """Entity keys from a start entity outwards, and the edge between each pair; a path
    ranked against a question carries its score and, per edge, the question's words that
    asked for it (None where none did)."""

    keys: tuple[str, ...]
    edges: tuple[Edge, ...] = ()
    score: float | None = None
    matched: tuple[str | None, ...] = ()
    # per edge, how its words were understood: declared, model, text, lexicon, label,
    # embedding, or `type` (guessed from the type of entity it reaches alone)
    sources: tuple[str, ...] = ()
    unexplained: tuple[str, ...] = ()  # the question's words nothing on the path explains
    guessed: tuple[str, ...] = ()  # words matched by the type of entity alone
    readings: tuple[str, ...] = ()  # per edge, the relation's words they matched
    unasked: tuple[str, ...] = ()  # relations before the last edge no words asked for
    mismatch: str = ""  # what `who`/`where`/`when` asks for, when the path ends elsewhere

    @property
    def understood(self) -> bool:
        """Every word of the question explained by its relations (none guessed), no relation
        nobody asked for on the way, and its end of the kind asked for."""
        return not (self.unexplained or self.guessed or self.unasked or self.mismatch)

    def extend(self, edge: Edge, key: str) -> Path:
        return Path((*self.keys, key), (*self.edges, edge))


@dataclass(frozen=True)
class Related:
    """recall_related's answer: paths, their entities, the facts behind each edge."""

    start: tuple[Entity, ...]
    paths: tuple[Path, ...]
    entities: Mapping[str, Entity]
    facts: Mapping[str, Fact]
    truncated: bool = False
    hops: int = 2
    answer: str | None = None
    matched_by: str = "given"
    notes: tuple[str, ...] = field(default_factory=tuple)
    answers: tuple[str, ...] = ()  # keys of the entities the best paths end at
    # the best path's words no relation explains, and those matched by entity type alone:
    # either way, no answer is stated
    unexplained: tuple[str, ...] = ()
    guessed: tuple[str, ...] = ()
    unasked: tuple[str, ...] = ()  # relations the best path takes that no words asked for
    mismatch: str = ""  # the kind asked for, when the best path ends at another
    next_cursor: str | None = None  # a path pattern's next page

    @property
    def ranked(self) -> bool:
        """The paths are ranked against a question, best first."""
        return any(p.score is not None for p in self.paths)

    @property
    def edges(self) -> tuple[Edge, ...]:
        seen: dict[str, Edge] = {}
        for path in self.paths:
            for edge in path.edges:
                seen.setdefault(edge.fact_id, edge)
        return tuple(seen.values())

    def render(self, path: Path) -> str:
        """`Alice (person) -[WORKS_AT]-> Acme (organisation)`, arrows in edge direction."""
        parts = [str(self.entities[path.keys[0]])]
        for key, edge in zip(path.keys[1:], path.edges, strict=True):
            arrow = f"-[{edge.type}]->" if edge.tail == key else f"<-[{edge.type}]-"
            parts.append(f"{arrow} {self.entities[key]}")
        return " ".join(parts)

    def explain(self, path: Path) -> str:
        """Why a ranked path scored as it did: its score and the question's words each edge
        answered, `0.91: WORKS_AT ← "employer", HEADQUARTERED_IN ← "headquartered"`."""
        if path.score is None:
            return self.render(path)
        sources = path.sources or ("",) * len(path.edges)
        readings = path.readings or ("",) * len(path.edges)
        words = [(f'{e.type} ← "{m}" ({s}{f": {r}" if r and r != m else ""})' if s
                  else f'{e.type} ← "{m}"') if m else f"{e.type} ← (no words)"
                 for e, m, s, r in zip(path.edges, path.matched, sources, readings,
                                       strict=False)]
        text = f"{path.score:.2f}: {', '.join(words)}"
        if path.unexplained:
            text += "; not understood: " + ", ".join(f'"{w}"' for w in path.unexplained)
        return text

    def __str__(self) -> str:
        if self.answer:
            return self.answer
        if not self.start:
            return "No entity of the question is known in this space."
        lines = [self._line(p) for p in self.paths] or ["No related entities."]
        if self.answers:
            lines.insert(0, "Answer: " + ", ".join(str(self.entities[k]) for k in self.answers
                                                   if k in self.entities))
        elif self.ranked:
            lines.insert(0, self.why_no_answer())
        if self.facts:
            lines.append("Facts:")
            lines += [f"  #{f.id} {f.subject} = {f.value}{provenance(f)}"
                      for f in self.facts.values()]
        if self.truncated:
            lines.append("(truncated: a cap on paths or expansions was reached)")
        return "\n".join(lines)

    def why_no_answer(self) -> str:
        """Why no answer is stated though paths were found."""
        if self.unexplained:
            words = ", ".join(f'"{w}"' for w in self.unexplained)
            return (f"No answer: no relation in this space reads as {words}; the paths below"
                    " leave it unexplained.")
        if self.guessed:
            words = ", ".join(f'"{w}"' for w in self.guessed)
            return (f"No answer: {words} matched only by the type of entity it names;"
                    " declare the relation's readings (the relation schema) to answer.")
        if self.unasked:
            return (f"No answer: the best path goes through {', '.join(self.unasked)}, which"
                    " no words of the question ask for.")
        if self.mismatch:
            return (f"No answer: the question asks for a {self.mismatch}, and the best path"
                    " ends at something else.")
        return "No answer: the best paths do not agree on one."

    def _line(self, path: Path) -> str:
        if path.score is None:
            return self.render(path)
        return f"[{path.score:.2f}] {self.render(path)}"


def provenance(fact: Fact) -> str:
    """Provenance inline: `(alice, since 2024-03-01, ref)`."""
    bits = [fact.source or "unknown source"]
    if fact.valid_from is not None:
        bits.append(f"since {fact.valid_from.date().isoformat()}")
    if fact.source_ref:
        bits.append(fact.source_ref)
    return f" ({', '.join(bits)})"


StartSpec = tuple[str, str] | str
