"""Multi-hop questions over the company graph, each relation in several phrasings.

A question applies relations outwards from a person: inner relations as noun phrases
("Amara's manager", "the employer of X", "the company X works for"), the last one as the
question's frame ("Where is X headquartered?"). Phrasings are split in two: `dev` ones, seen
while the ranking was built, and `held` ones, never looked at then; HELD_OUT_WORDS are words
only the held-out phrasings use, and a test keeps them out of the ranking code.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bench.multihop.company import (
    HEADQUARTERED_IN,
    LIVES_IN,
    MAKES,
    REPORTS_TO,
    WORKS_AT,
    Company,
)

DEV, HELD = "dev", "held"
HELD_OUT_WORDS = ("supervisor", "supervises", "firm", "employs", "located",
                  "reside", "manufacture")

# (template, split); {x} is the inner noun phrase
INNER = {
    WORKS_AT: [("{x}'s employer", DEV), ("the employer of {x}", DEV),
               ("the company {x} works for", DEV), ("the firm that employs {x}", HELD),
               ("the organisation {x} works at", HELD)],
    REPORTS_TO: [("{x}'s manager", DEV), ("the manager of {x}", DEV), ("{x}'s boss", DEV),
                 ("the supervisor of {x}", HELD), ("the person {x} reports to", HELD)],
}
FINAL = {
    HEADQUARTERED_IN: [("Where is {x} headquartered?", DEV), ("In which city is {x} based?", DEV),
                       ("Where is {x} located?", HELD),
                       ("Which city is {x} headquartered in?", HELD)],
    LIVES_IN: [("Where does {x} live?", DEV), ("What is the home city of {x}?", DEV),
               ("In which city does {x} reside?", HELD)],
    MAKES: [("What does {x} make?", DEV), ("What products does {x} produce?", DEV),
            ("What does {x} manufacture?", HELD)],
    WORKS_AT: [("Where does {x} work?", DEV), ("Which company employs {x}?", HELD),
               ("Which firm does {x} work for?", HELD)],
    REPORTS_TO: [("Who is {x}'s manager?", DEV), ("Who does {x} report to?", DEV),
                 ("Who supervises {x}?", HELD)],
}
CHAINS = {
    2: [(REPORTS_TO, WORKS_AT), (WORKS_AT, HEADQUARTERED_IN), (WORKS_AT, MAKES),
        (REPORTS_TO, LIVES_IN), (REPORTS_TO, REPORTS_TO)],
    3: [(REPORTS_TO, WORKS_AT, HEADQUARTERED_IN), (REPORTS_TO, WORKS_AT, MAKES),
        (REPORTS_TO, REPORTS_TO, LIVES_IN), (REPORTS_TO, REPORTS_TO, WORKS_AT)],
    4: [(REPORTS_TO, REPORTS_TO, WORKS_AT, HEADQUARTERED_IN),
        (REPORTS_TO, REPORTS_TO, WORKS_AT, MAKES),
        (REPORTS_TO, REPORTS_TO, REPORTS_TO, LIVES_IN)],
}


@dataclass(frozen=True)
class Question:
    text: str
    hops: int
    split: str
    person: str
    chain: tuple[str, ...]
    answers: tuple[tuple[str, ...], ...]  # every right entity path from the person


def _possessive(template: str) -> bool:
    return template.startswith("{x}'s")


def _clause(template: str) -> bool:
    """A relative clause around the inner phrase ("the company X works for")."""
    return not template.endswith("{x}") and not _possessive(template)


def phrase(rng: random.Random, person: str, chain: tuple[str, ...], split: str) -> str:
    """The question for `chain` from `person` in phrasings of `split`: a possessive attaches
    only to a name or another possessive ("X's boss's manager", never "the boss of X's
    manager", which reads the other way), and a clause never wraps another clause."""
    text, possessive_ok, in_clause = person, True, False
    for relation in chain[:-1]:
        options = [t for t, s in INNER[relation] if s == split
                   and (possessive_ok or not _possessive(t)) and not (in_clause and _clause(t))]
        template = rng.choice(options)
        text = template.format(x=text)
        possessive_ok, in_clause = _possessive(template), _clause(template)
    options = [t for t, s in FINAL[chain[-1]] if s == split
               and (possessive_ok or "{x}'s" not in t)]
    return rng.choice(options).format(x=text)


def questions(world: Company, per_hops: int, seed: int = 2) -> list[Question]:
    """`per_hops` questions of each length and each split, about people whose chain exists
    (and, but for the products a company makes, leads to one entity)."""
    rng = random.Random(seed)
    found: list[Question] = []
    for hops, chains in CHAINS.items():
        for split in (DEV, HELD):
            made = 0
            while made < per_hops:
                chain, person = rng.choice(chains), rng.choice(world.people)
                paths = world.follow(person, chain)
                if not paths or (chain[-1] != MAKES and len(paths) != 1):
                    continue
                found.append(Question(phrase(rng, person, chain, split), hops, split, person,
                                      chain, tuple(tuple(p) for p in paths)))
                made += 1
    return found
