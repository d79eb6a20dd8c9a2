"""A generated company graph: people work at companies, report to a colleague, live in
cities; companies are headquartered in cities and make products. Company and city sizes
follow Zipf weights, so at 100k facts the biggest company and city have thousands of edges.

Each fact is written as a remember_facts triple whose subject names the role the relation
gives its tail, the way an agent (or graphmem's extractor) names a slot:
`amara_dunmore_employer` for "Amara Dunmore works at Globex" (or, to measure what the
ranking does without them, the relation: `amara_dunmore_works_at`).
"""

from __future__ import annotations

import bisect
import itertools
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

FIRST = ("Amara", "Bruno", "Chen", "Dalia", "Emeka", "Freya", "Goran", "Hana", "Ivo", "Jun",
         "Kofi", "Lena", "Mateo", "Nia", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Tomas",
         "Uma", "Vera", "Wen", "Xavi", "Yara", "Zane")
ONSETS = ("b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br",
          "dr", "gr", "kr", "st", "tr")
VOWELS = ("a", "e", "i", "o", "u", "ai", "ou")
CODAS = ("n", "r", "s", "l", "m", "nd", "rt", "x", "")
PRODUCTS = ("widgets", "turbines", "sensors", "drones", "routers", "batteries", "printers",
            "lenses", "valves", "pumps", "chips", "bikes", "kettles", "cameras", "scanners",
            "robots", "scooters", "antennas", "heaters", "monitors")

WORKS_AT, REPORTS_TO, LIVES_IN = "works at", "reports to", "lives in"
HEADQUARTERED_IN, MAKES = "headquartered in", "makes"
ROLES = {WORKS_AT: "employer", REPORTS_TO: "manager", LIVES_IN: "home_city",
         HEADQUARTERED_IN: "headquarters", MAKES: "product"}
TAIL_TYPES = {WORKS_AT: "organisation", REPORTS_TO: "person", LIVES_IN: "location",
              HEADQUARTERED_IN: "location", MAKES: "product"}


def word(rng: random.Random, syllables: int) -> str:
    return "".join(rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS)
                   for _ in range(syllables)).capitalize()


def unique_names(rng: random.Random, count: int, make: Any) -> list[str]:
    seen: set[str] = set()
    found: list[str] = []
    while len(found) < count:
        name = make()
        if name not in seen:
            seen.add(name)
            found.append(name)
    return found


def zipf_pick(rng: random.Random, cumulative: list[float]) -> int:
    return bisect.bisect(cumulative, rng.random() * cumulative[-1])


@dataclass
class Company:
    """The generated world: who is where, and the facts that say so."""

    out: dict[str, dict[str, list[str]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list)))
    types: dict[str, str] = field(default_factory=dict)
    facts: list[dict[str, Any]] = field(default_factory=list)
    people: list[str] = field(default_factory=list)
    roles: bool = True  # subjects name the role (`employer`), else the relation (`works_at`)

    def add(self, head: str, head_type: str, relation: str, tail: str) -> None:
        role = ROLES[relation] if self.roles else relation
        subject = re.sub(r"\W+", "_", f"{head} {role}".casefold()).strip("_")
        self.facts.append({"subject": subject, "head": head, "head_type": head_type,
                           "relation": relation, "tail": tail,
                           "tail_type": TAIL_TYPES[relation], "confidence": 0.95,
                           "cardinality": "many" if relation == MAKES else "one"})
        self.out[head][relation].append(tail)
        self.types[head], self.types[tail] = head_type, TAIL_TYPES[relation]

    def follow(self, start: str, chain: tuple[str, ...]) -> list[list[str]]:
        """Every entity path from `start` along the relations of `chain`."""
        paths = [[start]]
        for relation in chain:
            paths = [p + [t] for p in paths for t in self.out[p[-1]].get(relation, ())]
        return paths


def build(facts: int, seed: int = 1, roles: bool = True) -> Company:
    """About `facts` facts: three per person, a few per company; `roles` False names each
    fact's subject by its relation (`amara_dunmore_works_at`), as remember_facts does when
    no subject is given."""
    rng = random.Random(seed)
    people = max(40, facts * 10 // 32)
    companies = max(12, people // 60)
    cities = unique_names(rng, 40, lambda: word(rng, 2))
    firms = unique_names(rng, companies, lambda: word(rng, rng.choice((2, 3))))
    names = unique_names(rng, people, lambda: f"{rng.choice(FIRST)} {word(rng, 2)}")
    world = Company(people=names, roles=roles)
    city_weights = list(itertools.accumulate(1 / (i + 1) ** 0.9 for i in range(len(cities))))
    firm_weights = list(itertools.accumulate(1 / (i + 1) ** 0.9 for i in range(companies)))
    for firm in firms:
        world.add(firm, "organisation", HEADQUARTERED_IN, cities[zipf_pick(rng, city_weights)])
        for product in rng.sample(PRODUCTS, rng.randint(1, 3)):
            world.add(firm, "organisation", MAKES, product)
    staff: dict[str, list[str]] = defaultdict(list)
    for person in names:
        firm = firms[zipf_pick(rng, firm_weights)]
        world.add(person, "person", WORKS_AT, firm)
        world.add(person, "person", LIVES_IN, cities[zipf_pick(rng, city_weights)])
        if staff[firm]:
            world.add(person, "person", REPORTS_TO, rng.choice(staff[firm][-50:]))
        staff[firm].append(person)
    rng.shuffle(world.facts)
    return world
