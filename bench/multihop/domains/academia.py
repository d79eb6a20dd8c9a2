"""Researchers are advised by researchers, are affiliated with universities, write papers
and research fields; universities are in cities; papers are published in journals."""

from __future__ import annotations

import random

from bench.multihop.names import Zipf, people, things
from bench.multihop.world import DEV, HELD, Domain, Phrasing, Relation, Step, World

ADVISED_BY, AFFILIATED_WITH, LOCATED_IN = "advised by", "affiliated with", "located in"
AUTHORED, PUBLISHED_IN, RESEARCHES = "authored", "published in", "researches"
FIELDS = ("topology", "genomics", "linguistics", "astrophysics", "economics", "robotics",
          "epidemiology", "cryptography", "oceanography", "neuroscience", "archaeology",
          "seismology", "immunology", "philosophy")

RELATIONS = {r.label: r for r in (
    Relation(ADVISED_BY, "person", "person", "advisor"),
    Relation(AFFILIATED_WITH, "person", "university", "university"),
    Relation(LOCATED_IN, "university", "city", "city"),
    Relation(AUTHORED, "person", "paper", "paper", many=True),
    Relation(PUBLISHED_IN, "paper", "journal", "journal"),
    Relation(RESEARCHES, "person", "field", "research field"),
)}

AD, AF, LO = Step(ADVISED_BY), Step(AFFILIATED_WITH), Step(LOCATED_IN)
AU, PU, RS = Step(AUTHORED), Step(PUBLISHED_IN), Step(RESEARCHES)
AD_, AF_, AU_ = Step(ADVISED_BY, False), Step(AFFILIATED_WITH, False), Step(AUTHORED, False)

PHRASINGS = {
    AD: Phrasing(
        inner=(("{x}'s advisor", DEV), ("the doctoral advisor of {x}", DEV),
               ("{x}'s thesis supervisor", HELD), ("the mentor of {x}", HELD)),
        final=(("Who advised {x}?", DEV), ("Who was {x}'s advisor?", DEV),
               ("Who supervised {x}?", HELD), ("Who mentored {x}?", HELD))),
    AD_: Phrasing(
        inner=(("the students of {x}", DEV), ("the people {x} advised", DEV),
               ("the doctoral students {x} supervised", HELD), ("the mentees of {x}", HELD)),
        final=(("Whom did {x} advise?", DEV), ("Who were the students of {x}?", DEV),
               ("Who did {x} mentor?", HELD)),
        plural=True),
    AF: Phrasing(
        inner=(("the university {x} is affiliated with", DEV), ("{x}'s university", DEV),
               ("the institution where {x} teaches", HELD), ("the school {x} belongs to",
                                                              HELD)),
        final=(("Which university {be} {x} affiliated with?", DEV), ("Where {do} {x} work?", DEV),
               ("At which institution {do} {x} teach?", HELD),
               ("Which school employs {x}?", HELD))),
    AF_: Phrasing(
        inner=(("the researchers at {x}", DEV), ("the faculty of {x}", HELD)),
        final=(("Who is affiliated with {x}?", DEV), ("Who teaches at {x}?", HELD)),
        plural=True),
    LO: Phrasing(
        inner=(("the city where {x} is located", DEV), ("the town that hosts {x}", HELD)),
        final=(("Where {be} {x} located?", DEV), ("In which city {be} {x}?", DEV),
               ("Where {be} {x} based?", HELD), ("Which city is home to {x}?", HELD))),
    AU: Phrasing(
        inner=(("the papers {x} authored", DEV), ("the papers written by {x}", DEV),
               ("{x}'s publications", HELD), ("the articles {x} published", HELD)),
        final=(("What papers did {x} author?", DEV), ("Which papers did {x} write?", DEV),
               ("Which articles has {x} published?", HELD)),
        plural=True),
    AU_: Phrasing(
        inner=(("the authors of {x}", DEV), ("the people who wrote {x}", DEV),
               ("the researchers behind {x}", HELD)),
        final=(("Who wrote {x}?", DEV), ("Who authored {x}?", DEV),
               ("Who are the researchers behind {x}?", HELD)),
        plural=True),
    PU: Phrasing(
        inner=(("the journal that published {x}", DEV), ("the venue where {x} appeared",
                                                          HELD)),
        final=(("Where {was} {x} published?", DEV), ("Which journal published {x}?", DEV),
               ("In which venue did {x} appear?", HELD))),
    RS: Phrasing(
        final=(("What {do} {x} research?", DEV), ("What is the research area of {x}?", DEV),
               ("What field {do} {x} study?", HELD), ("Which subject {do} {x} work on?",
                                                      HELD))),
}
CHAINS = {
    2: [(AD, AF), (AF, LO), (AU_, AD), (AD, RS), (AD_, AU), (AU, PU)],
    3: [(AU_, AD, AF), (AD, AF, LO), (AD, AD, RS), (AD_, AU, PU)],
    4: [(AU_, AD, AF, LO), (AD, AD, AF, LO)],
}
ABSENT = (("Who funded {x}?", "paper"), ("What is the impact factor of {x}?", "journal"),
          ("Who is the dean of {x}?", "university"), ("What prize did {x} win?", "person"),
          ("Who is the spouse of {x}?", "person"), ("What is the population of {x}?", "city"),
          ("Who edits {x}?", "journal"), ("How many students does {x} enrol?", "university"))

SCHEMA = [  # what a user declaring these relations would write
    {"label": ADVISED_BY, "description": "the doctoral advisor of a researcher",
     "forward": ["advised by"], "inverse": ["advised"], "head_nouns": ["student"],
     "tail_nouns": ["advisor", "doctoral advisor"], "head_type": "person",
     "tail_type": "person"},
    {"label": AFFILIATED_WITH, "description": "the university a researcher works at",
     "forward": ["is affiliated with", "works at"], "head_nouns": ["researcher"],
     "tail_nouns": ["university", "affiliation"], "head_type": "person",
     "tail_type": "university"},
    {"label": LOCATED_IN, "description": "the city a university is in",
     "forward": ["is located in"], "tail_nouns": ["city"], "head_type": "university",
     "tail_type": "city"},
    {"label": AUTHORED, "description": "a paper the researcher wrote",
     "forward": ["authored", "wrote"], "inverse": ["written by"], "head_nouns": ["author"],
     "tail_nouns": ["paper"], "head_type": "person", "tail_type": "paper",
     "cardinality": "many"},
    {"label": PUBLISHED_IN, "description": "the journal that published the paper",
     "forward": ["published in"], "tail_nouns": ["journal"], "head_type": "paper",
     "tail_type": "journal"},
    {"label": RESEARCHES, "description": "the field a researcher works in",
     "forward": ["researches"], "tail_nouns": ["research field", "field"],
     "head_type": "person", "tail_type": "field"},
]


def populate(world: World, facts: int, rng: random.Random) -> None:
    """About `facts` facts: a researcher has an affiliation, a field, most an advisor, and
    a few papers with co-authors."""
    taken = {f.casefold() for f in FIELDS}
    count = max(30, facts // 5)
    cities = Zipf(things(rng, 30, taken, (2,)))
    universities = Zipf([f"University of {n}" for n in things(rng, max(8, count // 40), taken)])
    journals = Zipf([f"Journal of {n}" for n in things(rng, 25, taken)])
    fields = Zipf(list(FIELDS))
    for university in universities.items:
        world.add(university, LOCATED_IN, cities.pick(rng))
    seniors: list[str] = []
    papers = iter(things(rng, count * 3, taken, (3,)))
    for person in people(rng, count, taken):
        world.add(person, AFFILIATED_WITH, universities.pick(rng))
        world.add(person, RESEARCHES, fields.pick(rng))
        if seniors and rng.random() < 0.85:
            world.add(person, ADVISED_BY, rng.choice(seniors[-200:]))
        for _ in range(rng.randint(1, 2)):
            paper = f"On {next(papers)}"
            world.add(paper, PUBLISHED_IN, journals.pick(rng))
            world.add(person, AUTHORED, paper)
            if seniors and rng.random() < 0.4:
                world.add(rng.choice(seniors[-200:]), AUTHORED, paper)
        seniors.append(person)


DOMAIN = Domain("academia", RELATIONS, PHRASINGS, CHAINS, populate, ABSENT, SCHEMA)
