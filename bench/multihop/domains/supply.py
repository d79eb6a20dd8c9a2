"""A supply chain: companies are supplied by other companies, produce products and are
based in countries; a product has parts, each sourced from a company."""

from __future__ import annotations

import random

from bench.multihop.names import Zipf, things
from bench.multihop.world import DEV, HELD, Domain, Phrasing, Relation, Step, World

SUPPLIED_BY, PRODUCES, HAS_PART = "supplied by", "produces", "has part"
SOURCED_FROM, BASED_IN = "sourced from", "based in"
COUNTRIES = ("Norway", "Chile", "Kenya", "Vietnam", "Poland", "Mexico", "Ghana", "Peru",
             "Austria", "Malaysia", "Morocco", "Finland", "Uruguay", "Jordan", "Estonia",
             "Nepal", "Portugal", "Senegal", "Croatia", "Iceland")
PARTS = ("gasket", "bearing", "capacitor", "resistor", "spring", "hinge", "axle", "gear",
         "bracket", "sprocket", "piston", "nozzle", "filter", "cable", "diode", "magnet",
         "lens", "fuse", "relay", "rotor", "sensor", "screen", "battery", "motor", "valve")

RELATIONS = {r.label: r for r in (
    Relation(SUPPLIED_BY, "company", "company", "supplier", many=True),
    Relation(PRODUCES, "company", "product", "product", many=True),
    Relation(HAS_PART, "product", "component", "component", many=True),
    Relation(SOURCED_FROM, "component", "company", "vendor"),
    Relation(BASED_IN, "company", "country", "country"),
)}

SU, PR, PA = Step(SUPPLIED_BY), Step(PRODUCES), Step(HAS_PART)
SO, BA = Step(SOURCED_FROM), Step(BASED_IN)
SU_, PR_, PA_ = Step(SUPPLIED_BY, False), Step(PRODUCES, False), Step(HAS_PART, False)

PHRASINGS = {
    SU: Phrasing(
        inner=(("{x}'s supplier", DEV), ("the supplier of {x}", DEV),
               ("the company that supplies {x}", HELD), ("the vendor {x} buys from", HELD)),
        final=(("Who supplies {x}?", DEV), ("Which company is the supplier of {x}?", DEV),
               ("Who {do} {x} buy from?", HELD), ("Which vendor sells to {x}?", HELD))),
    SU_: Phrasing(
        inner=(("the customers of {x}", DEV), ("the companies {x} supplies", DEV),
               ("the firms that buy from {x}", HELD)),
        final=(("Who {do} {x} supply?", DEV), ("Which companies buy from {x}?", HELD)),
        plural=True),
    PR: Phrasing(
        inner=(("the products of {x}", DEV), ("the goods {x} produces", DEV),
               ("the items {x} makes", HELD)),
        final=(("What {do} {x} produce?", DEV), ("Which products {do} {x} make?", HELD),
               ("What goods {do} {x} manufacture?", HELD)),
        plural=True),
    PR_: Phrasing(
        inner=(("the producer of {x}", DEV), ("the company that produces {x}", DEV),
               ("the maker of {x}", HELD), ("the manufacturer of {x}", HELD)),
        final=(("Who produces {x}?", DEV), ("Which company makes {x}?", HELD))),
    PA: Phrasing(
        inner=(("the components of {x}", DEV), ("the parts of {x}", DEV),
               ("the parts that go into {x}", HELD)),
        final=(("What parts {do} {x} have?", DEV), ("What components {do} {x} contain?", HELD),
               ("What {be} {x} made of?", HELD)),
        plural=True),
    PA_: Phrasing(
        inner=(("the products that have {x}", DEV), ("the products that contain {x}", HELD)),
        final=(("Which products have {x}?", DEV), ("Which products contain {x}?", HELD)),
        plural=True),
    SO: Phrasing(
        inner=(("the source of {x}", DEV), ("the company {x} is sourced from", DEV),
               ("the vendor of {x}", HELD), ("the firm that sells {x}", HELD)),
        final=(("Where {be} {x} sourced from?", DEV), ("Who sells {x}?", HELD),
               ("Which company provides {x}?", HELD))),
    BA: Phrasing(
        inner=(("the country where {x} is based", DEV), ("the home country of {x}", HELD)),
        final=(("Where {be} {x} based?", DEV), ("In which country {be} {x} based?", DEV),
               ("Which country {be} {x} located in?", HELD),
               ("Where {do} {x} operate from?", HELD))),
}
CHAINS = {
    2: [(SU, BA), (PR_, BA), (PA, SO), (SU, PR), (PR_, SU), (SO, BA)],
    3: [(PR_, SU, BA), (PA, SO, BA), (SU, SU, PR), (PA, SO, PR)],
    4: [(PR_, SU, SU, BA), (PA, SO, SU, BA)],
}
ABSENT = (("What is the price of {x}?", "product"), ("Who is the chief executive of {x}?",
                                                    "company"),
          ("What is the weight of {x}?", "component"), ("What is the capital of {x}?",
                                                        "country"),
          ("When was {x} founded?", "company"), ("Who audits {x}?", "company"),
          ("What is the warranty of {x}?", "product"))

SCHEMA = [  # what a user declaring these relations would write
    {"label": SUPPLIED_BY, "description": "a company that supplies this company",
     "forward": ["is supplied by"], "inverse": ["supplies"], "head_nouns": ["customer"],
     "tail_nouns": ["supplier"], "head_type": "company", "tail_type": "company",
     "cardinality": "many"},
    {"label": PRODUCES, "description": "a product the company produces",
     "forward": ["produces", "makes"], "inverse": ["is produced by"],
     "head_nouns": ["producer"], "tail_nouns": ["product"], "head_type": "company",
     "tail_type": "product", "cardinality": "many"},
    {"label": HAS_PART, "description": "a component the product is built from",
     "forward": ["has part", "contains"], "inverse": ["is part of"],
     "tail_nouns": ["part", "component"], "head_type": "product",
     "tail_type": "component", "cardinality": "many"},
    {"label": SOURCED_FROM, "description": "the company a component is bought from",
     "forward": ["is sourced from"], "inverse": ["sells"], "tail_nouns": ["source"],
     "head_type": "component", "tail_type": "company"},
    {"label": BASED_IN, "description": "the country where the company is based",
     "forward": ["is based in"], "tail_nouns": ["country"], "head_type": "company",
     "tail_type": "country"},
]


def populate(world: World, facts: int, rng: random.Random) -> None:
    """About `facts` facts: each company is based somewhere, is supplied by one or two
    others and produces a few products of a few parts; a part is sourced from a company."""
    taken = {w.casefold() for w in (*COUNTRIES, *PARTS)}
    count = max(20, facts // 12)
    countries = Zipf(list(COUNTRIES))
    firms = things(rng, count, taken, (2, 3))
    makers = Zipf(firms, exponent=0.6)
    products = iter(things(rng, count * 3, taken, (2,)))
    parts: list[str] = []
    for k, firm in enumerate(firms):
        world.add(firm, BASED_IN, countries.pick(rng))
        for supplier in {makers.pick(rng) for _ in range(rng.randint(1, 2))} - {firm}:
            world.add(firm, SUPPLIED_BY, supplier)
        for _ in range(rng.randint(1, 2)):
            product = f"{next(products)} {rng.choice(('X', 'Pro', 'One', 'Max'))}"
            world.add(firm, PRODUCES, product)
            for kind in rng.sample(PARTS, rng.randint(2, 3)):
                part = f"{kind} {rng.choice(firms).upper()[:2]}{k % 90 + 10}"
                world.add(product, HAS_PART, part)
                if part not in parts:
                    parts.append(part)
                    world.add(part, SOURCED_FROM, makers.pick(rng))


DOMAIN = Domain("supply", RELATIONS, PHRASINGS, CHAINS, populate, ABSENT, SCHEMA)
