"""A generated knowledge graph and the multi-hop questions asked of it, for any domain.

A domain (bench/multihop/domains/) declares its kinds of entity, its relations (the label a
pipeline writes, the ends' types, the role noun an agent would name the slot by), the words
that ask for each relation in each direction (`dev` phrasings, seen while the ranking was
built, and `held` ones, never looked at then), the chains of relations its questions
follow, and how to populate a world of about N facts. This module turns that into
remember_facts triples, written either as plain triples (no subject: the slot is
`head relation`, as a pipeline writes them) or with subjects that name the role the
relation gives its tail (`amara_dunmore_employer`, as graphmem's extractor names them), and
into questions with every right entity path.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

DEV, HELD = "dev", "held"
PLAIN, ROLES, DECLARED = "plain", "roles", "declared"  # DECLARED: plain, with the schema


@dataclass(frozen=True)
class Relation:
    label: str  # as the writer spells it: `works at`, `directed_by`
    head: str  # the entity type written for each end
    tail: str
    role: str  # the slot noun an agent would use for the tail: `employer`
    many: bool = False  # a head has several tails at once


@dataclass(frozen=True)
class Step:
    """One hop of a chain: a relation walked from its head (forward) or from its tail."""

    relation: str
    forward: bool = True


@dataclass(frozen=True)
class Phrasing:
    """How a question says one step: `inner` noun phrases around the entity so far ({x}),
    `final` question frames; each with its split. `{be}`/`{do}` agree with {x}'s number;
    an inner phrase marked plural makes the next frame plural."""

    inner: tuple[tuple[str, str], ...] = ()
    final: tuple[tuple[str, str], ...] = ()
    plural: bool = False  # the inner phrases name several entities


@dataclass
class Domain:
    name: str
    relations: dict[str, Relation]
    phrasings: dict[Step, Phrasing]
    chains: dict[int, list[tuple[Step, ...]]]
    populate: Callable[[World, int, random.Random], None]
    # questions asking for a relation the domain does not have: (template, the type {x}
    # names); templates use "of {x}", so {x} may be a name or an inner phrase
    absent: tuple[tuple[str, str], ...] = ()
    # the relation schema a user would declare for the domain (bench's `declared` mode)
    schema: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Question:
    text: str
    hops: int
    split: str
    start: str
    chain: tuple[Step, ...]
    answers: tuple[tuple[str, ...], ...]  # every right entity path from the start


@dataclass
class World:
    domain: Domain
    mode: str = PLAIN
    out: dict[str, dict[Step, list[str]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list)))
    types: dict[str, str] = field(default_factory=dict)
    facts: list[dict[str, Any]] = field(default_factory=list)
    by_type: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, head: str, label: str, tail: str) -> None:
        rel = self.domain.relations[label]
        fact: dict[str, Any] = {"head": head, "head_type": rel.head, "relation": rel.label,
                                "tail": tail, "tail_type": rel.tail, "confidence": 0.95,
                                "cardinality": "many" if rel.many else "one"}
        if self.mode == ROLES:
            fact["subject"] = re.sub(r"\W+", "_", f"{head} {rel.role}".casefold()).strip("_")
        self.facts.append(fact)
        forward = self.out[head][Step(label, True)]
        if forward and not rel.many:  # a single-valued relation's new tail supersedes the old
            for old in forward:
                self.out[old][Step(label, False)].remove(head)
            forward.clear()
        forward.append(tail)
        self.out[tail][Step(label, False)].append(head)
        for name, type_ in ((head, rel.head), (tail, rel.tail)):
            if name not in self.types:
                self.types[name] = type_
                self.by_type[type_].append(name)

    def follow(self, start: str, chain: Sequence[Step]) -> list[list[str]]:
        """Every entity path from `start` along `chain` that visits no entity twice."""
        paths = [[start]]
        for step in chain:
            paths = [p + [n] for p in paths for n in self.out[p[-1]].get(step, ())
                     if n not in p]
        return paths


def _possessive(template: str) -> bool:
    return template.startswith("{x}'s")


def _clause(template: str) -> bool:
    """A relative clause around the inner phrase ("the company X works for")."""
    return not template.endswith("{x}") and not _possessive(template)


def _agree(template: str, plural: bool) -> str:
    return template.replace("{be}", "are" if plural else "is").replace(
        "{do}", "do" if plural else "does").replace("{was}", "were" if plural else "was")


def phrase(domain: Domain, rng: random.Random, start: str, chain: Sequence[Step],
           split: str) -> str | None:
    """The question for `chain` from `start` in phrasings of `split`: a possessive attaches
    only to a name or another possessive, and a clause never wraps another clause."""
    text, possessive_ok, in_clause, plural = start, True, False, False
    for step in chain[:-1]:
        way = domain.phrasings[step]
        options = [t for t, s in way.inner if s == split
                   and (possessive_ok or not _possessive(t)) and not (in_clause and _clause(t))]
        if not options:
            return None
        template = rng.choice(options)
        text = template.format(x=text)
        possessive_ok, in_clause = _possessive(template), _clause(template)
        plural = way.plural
    options = [t for t, s in domain.phrasings[chain[-1]].final if s == split
               and (possessive_ok or "{x}'s" not in t)]
    if not options:
        return None
    return _agree(rng.choice(options), plural).format(x=text)


def build(domain: Domain, facts: int, mode: str = PLAIN, seed: int = 1) -> World:
    rng = random.Random(seed)
    world = World(domain, mode)
    domain.populate(world, facts, rng)
    # a single-valued relation keeps its last tail (as `out` does): the facts it replaced
    # are not written, since the shuffled writes would otherwise supersede in another order
    last: dict[tuple[str, str], int] = {}
    for k, fact in enumerate(world.facts):
        if fact["cardinality"] == "one":
            last[(fact["head"], fact["relation"])] = k
    world.facts = [f for k, f in enumerate(world.facts) if f["cardinality"] == "many"
                   or last[(f["head"], f["relation"])] == k]
    rng.shuffle(world.facts)
    return world


def _start_type(domain: Domain, chain: Sequence[Step]) -> str:
    first = domain.relations[chain[0].relation]
    return first.head if chain[0].forward else first.tail


def questions(world: World, per_hops: int, seed: int = 2, max_answers: int = 12
              ) -> list[Question]:
    """`per_hops` questions of each length and each split, from entities whose chain exists
    and leads to at most `max_answers` entity paths."""
    domain, rng = world.domain, random.Random(seed)
    found: list[Question] = []
    for hops, chains in sorted(domain.chains.items()):
        for split in (DEV, HELD):
            made, tries = 0, 0
            while made < per_hops and tries < per_hops * 500:
                tries += 1
                chain = rng.choice(chains)
                pool = world.by_type[_start_type(domain, chain)]
                if not pool:
                    continue
                start = rng.choice(pool)
                paths = world.follow(start, chain)
                if not paths or len(paths) > max_answers:
                    continue
                text = phrase(domain, rng, start, chain, split)
                if text is None:
                    continue
                found.append(Question(text, hops, split, start, tuple(chain),
                                      tuple(tuple(p) for p in paths)))
                made += 1
    return found


def absent_questions(world: World, count: int, seed: int = 3) -> list[str]:
    """Questions one of whose phrases names a relation the graph does not hold: around a
    real entity and, half of the time, inside a real inner phrase."""
    domain, rng = world.domain, random.Random(seed)
    made: list[str] = []
    inner_steps = [s for s, p in domain.phrasings.items() if p.inner]
    while len(made) < count and domain.absent:
        template, kind = rng.choice(domain.absent)
        need = kind  # the entity type the absent phrase is asked of
        if rng.random() < 0.5:
            steps = [s for s in inner_steps if _end_type(domain, s) == need]
            if steps:
                step = rng.choice(steps)
                pool = world.by_type[_start_type(domain, (step,))]
                inner = [t for t, _ in domain.phrasings[step].inner
                         if not _clause(t)]
                if pool and inner:
                    x = rng.choice(inner).format(x=rng.choice(pool))
                    made.append(_agree(template, False).format(x=x))
                    continue
        pool = world.by_type[need]
        if pool:
            made.append(_agree(template, False).format(x=rng.choice(pool)))
    return made


def _end_type(domain: Domain, step: Step) -> str:
    rel = domain.relations[step.relation]
    return rel.tail if step.forward else rel.head
