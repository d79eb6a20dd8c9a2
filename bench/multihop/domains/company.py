"""People work at companies, report to a colleague and live in cities; companies are
headquartered in cities and make products. Companies and cities are Zipf-sized, so at 100k
facts the biggest have thousands of edges."""

from __future__ import annotations

import random
from collections import defaultdict

from bench.multihop.names import Zipf, people, things
from bench.multihop.world import DEV, HELD, Domain, Phrasing, Relation, Step, World

WORKS_AT, REPORTS_TO, LIVES_IN = "works at", "reports to", "lives in"
HEADQUARTERED_IN, MAKES = "headquartered in", "makes"
PRODUCTS = ("widgets", "turbines", "sensors", "drones", "routers", "batteries", "printers",
            "lenses", "valves", "pumps", "chips", "bikes", "kettles", "cameras", "scanners",
            "robots", "scooters", "antennas", "heaters", "monitors")

RELATIONS = {r.label: r for r in (
    Relation(WORKS_AT, "person", "company", "employer"),
    Relation(REPORTS_TO, "person", "person", "manager"),
    Relation(LIVES_IN, "person", "city", "home city"),
    Relation(HEADQUARTERED_IN, "company", "city", "headquarters"),
    Relation(MAKES, "company", "product", "product", many=True),
)}

W, R, L = Step(WORKS_AT), Step(REPORTS_TO), Step(LIVES_IN)
HQ, M = Step(HEADQUARTERED_IN), Step(MAKES)
W_, R_, L_, HQ_, M_ = (Step(s.relation, False) for s in (W, R, L, HQ, M))

PHRASINGS = {
    W: Phrasing(
        inner=(("{x}'s employer", DEV), ("the employer of {x}", DEV),
               ("the company {x} works for", DEV), ("the firm that employs {x}", HELD),
               ("the organisation {x} works at", HELD)),
        final=(("Where {do} {x} work?", DEV), ("Which company employs {x}?", HELD),
               ("Which firm {do} {x} work for?", HELD))),
    W_: Phrasing(
        inner=(("the employees of {x}", DEV), ("the people who work at {x}", DEV),
               ("the staff of {x}", HELD)),
        final=(("Who works at {x}?", DEV), ("Who {be} employed by {x}?", HELD)),
        plural=True),
    R: Phrasing(
        inner=(("{x}'s manager", DEV), ("the manager of {x}", DEV), ("{x}'s boss", DEV),
               ("the supervisor of {x}", HELD), ("the person {x} reports to", HELD)),
        final=(("Who is {x}'s manager?", DEV), ("Who {do} {x} report to?", DEV),
               ("Who supervises {x}?", HELD))),
    R_: Phrasing(
        inner=(("the people who report to {x}", DEV), ("{x}'s direct reports", DEV),
               ("the people {x} manages", HELD), ("the subordinates of {x}", HELD)),
        final=(("Who reports to {x}?", DEV), ("Whom {do} {x} manage?", HELD),
               ("Who works under {x}?", HELD)),
        plural=True),
    L: Phrasing(
        inner=(("the city {x} lives in", DEV), ("the town where {x} resides", HELD)),
        final=(("Where {do} {x} live?", DEV), ("What is the home city of {x}?", DEV),
               ("In which city {do} {x} reside?", HELD))),
    L_: Phrasing(
        inner=(("the people who live in {x}", DEV), ("the residents of {x}", HELD)),
        final=(("Who lives in {x}?", DEV), ("Who resides in {x}?", HELD)), plural=True),
    HQ: Phrasing(
        inner=(("the city where {x} is headquartered", DEV),
               ("the city that hosts the head office of {x}", HELD)),
        final=(("Where {be} {x} headquartered?", DEV), ("In which city {be} {x} based?", DEV),
               ("Where {be} {x} located?", HELD), ("Which city {be} {x} headquartered in?",
                                                   HELD))),
    HQ_: Phrasing(
        inner=(("the companies headquartered in {x}", DEV), ("the firms based in {x}", HELD)),
        final=(("Which companies are headquartered in {x}?", DEV),
               ("Which firms have their head office in {x}?", HELD)), plural=True),
    M: Phrasing(
        inner=(("the products of {x}", DEV), ("the goods {x} manufactures", HELD)),
        final=(("What {do} {x} make?", DEV), ("What products {do} {x} produce?", DEV),
               ("What {do} {x} manufacture?", HELD)), plural=True),
    M_: Phrasing(
        inner=(("the makers of {x}", DEV), ("the companies that produce {x}", DEV),
               ("the manufacturers of {x}", HELD)),
        final=(("Who makes {x}?", DEV), ("Which companies manufacture {x}?", HELD)),
        plural=True),
}
CHAINS = {
    2: [(R, W), (W, HQ), (W, M), (R, L), (R, R), (M_, HQ), (R_, L)],
    3: [(R, W, HQ), (R, W, M), (R, R, L), (R, R, W), (R_, W, HQ)],
    4: [(R, R, W, HQ), (R, R, W, M), (R, R, R, L)],
}
ABSENT = (("Who is the dentist of {x}?", "person"), ("What is the salary of {x}?", "person"),
          ("Which school did {x} attend?", "person"), ("Who is the spouse of {x}?", "person"),
          ("When was {x} founded?", "company"), ("What is the revenue of {x}?", "company"),
          ("Who is the chief executive of {x}?", "company"),
          ("What is the population of {x}?", "city"), ("Who is the mayor of {x}?", "city"),
          ("What is the price of {x}?", "product"))

SCHEMA = [  # what a user declaring these relations would write
    {"label": WORKS_AT, "description": "the company a person is employed by",
     "forward": ["works at", "works for", "is employed by"], "inverse": ["employs"],
     "head_nouns": ["employee", "staff member"], "tail_nouns": ["employer", "company"],
     "head_type": "person", "tail_type": "company"},
    {"label": REPORTS_TO, "description": "the person someone reports to in the org chart",
     "forward": ["reports to"], "inverse": ["manages"],
     "head_nouns": ["direct report", "report"], "tail_nouns": ["manager", "boss"],
     "head_type": "person", "tail_type": "person"},
    {"label": LIVES_IN, "description": "the city where a person lives",
     "forward": ["lives in"], "head_nouns": ["resident"], "tail_nouns": ["home city"],
     "head_type": "person", "tail_type": "city"},
    {"label": HEADQUARTERED_IN, "description": "the city of the company's head office",
     "forward": ["is headquartered in", "is based in"],
     "tail_nouns": ["headquarters", "head office"], "head_type": "company",
     "tail_type": "city"},
    {"label": MAKES, "description": "a product the company makes and sells",
     "forward": ["makes", "produces"], "inverse": ["is made by"], "head_nouns": ["maker"],
     "tail_nouns": ["product"], "head_type": "company", "tail_type": "product",
     "cardinality": "many"},
]


def populate(world: World, facts: int, rng: random.Random) -> None:
    """About `facts` facts: three per person, a few per company."""
    taken: set[str] = {p.casefold() for p in PRODUCTS}
    count = max(40, facts * 10 // 32)
    cities = Zipf(things(rng, 40, taken, (2,)))
    firms = Zipf(things(rng, max(12, count // 60), taken))
    for firm in firms.items:
        world.add(firm, HEADQUARTERED_IN, cities.pick(rng))
        for product in rng.sample(PRODUCTS, rng.randint(1, 3)):
            world.add(firm, MAKES, product)
    staff: dict[str, list[str]] = defaultdict(list)
    for person in people(rng, count, taken):
        firm = firms.pick(rng)
        world.add(person, WORKS_AT, firm)
        world.add(person, LIVES_IN, cities.pick(rng))
        if staff[firm]:
            world.add(person, REPORTS_TO, rng.choice(staff[firm][-50:]))
        staff[firm].append(person)


DOMAIN = Domain("company", RELATIONS, PHRASINGS, CHAINS, populate, ABSENT, SCHEMA)
