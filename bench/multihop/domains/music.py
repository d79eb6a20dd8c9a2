"""Held out: nothing in graphmem was tuned on this domain. Musicians are members of bands
and were born in cities, play instruments; bands are signed to labels, were formed in
cities and released albums, which producers produced."""

from __future__ import annotations

import random

from bench.multihop.names import Zipf, people, things
from bench.multihop.world import DEV, HELD, Domain, Phrasing, Relation, Step, World

MEMBER_OF, SIGNED_TO, FORMED_IN = "member of", "signed to", "formed in"
RELEASED, PRODUCED_BY, PLAYS, BORN_IN = "released", "produced by", "plays", "born in"
INSTRUMENTS = ("guitar", "bass", "drums", "piano", "violin", "cello", "saxophone",
               "trumpet", "flute", "harmonica", "banjo", "clarinet", "organ", "synthesizer")

RELATIONS = {r.label: r for r in (
    Relation(MEMBER_OF, "musician", "band", "band"),
    Relation(SIGNED_TO, "band", "label", "record label"),
    Relation(FORMED_IN, "band", "city", "origin"),
    Relation(RELEASED, "band", "album", "album", many=True),
    Relation(PRODUCED_BY, "album", "person", "producer"),
    Relation(PLAYS, "musician", "instrument", "instrument"),
    Relation(BORN_IN, "musician", "city", "birthplace"),
)}

ME, SI, FO = Step(MEMBER_OF), Step(SIGNED_TO), Step(FORMED_IN)
RE, PD, PL, BO = Step(RELEASED), Step(PRODUCED_BY), Step(PLAYS), Step(BORN_IN)
ME_, RE_, PD_ = Step(MEMBER_OF, False), Step(RELEASED, False), Step(PRODUCED_BY, False)

PHRASINGS = {
    ME: Phrasing(
        inner=(("the band {x} plays in", DEV), ("{x}'s band", DEV),
               ("the group {x} belongs to", HELD), ("the band that {x} joined", HELD)),
        final=(("Which band {be} {x} a member of?", DEV), ("What band {do} {x} play in?", DEV),
               ("Which group did {x} join?", HELD))),
    ME_: Phrasing(
        inner=(("the members of {x}", DEV), ("the musicians in {x}", HELD)),
        final=(("Who is in {x}?", DEV), ("Who plays in {x}?", HELD)), plural=True),
    SI: Phrasing(
        inner=(("the label {x} is signed to", DEV), ("{x}'s record label", DEV),
               ("the record company that signed {x}", HELD)),
        final=(("Which label {be} {x} signed to?", DEV),
               ("What record label {do} {x} record for?", HELD))),
    FO: Phrasing(
        inner=(("the city where {x} was formed", DEV), ("{x}'s hometown", HELD)),
        final=(("Where {was} {x} formed?", DEV), ("In which city did {x} form?", DEV),
               ("Where did {x} get together?", HELD), ("Which city {do} {x} come from?",
                                                       HELD))),
    RE: Phrasing(
        inner=(("the albums {x} released", DEV), ("{x}'s albums", DEV),
               ("the records {x} put out", HELD)),
        final=(("Which albums did {x} release?", DEV), ("What records has {x} put out?",
                                                        HELD)),
        plural=True),
    RE_: Phrasing(
        inner=(("the band that released {x}", DEV), ("the artist behind {x}", HELD)),
        final=(("Who released {x}?", DEV), ("Which band recorded {x}?", HELD))),
    PD: Phrasing(
        inner=(("the producer of {x}", DEV), ("the person who produced {x}", HELD)),
        final=(("Who produced {x}?", DEV), ("Who was {x}'s producer?", DEV),
               ("Who handled production on {x}?", HELD))),
    PD_: Phrasing(
        inner=(("the albums {x} produced", DEV), ("the records produced by {x}", HELD)),
        final=(("Which albums did {x} produce?", DEV),), plural=True),
    PL: Phrasing(
        final=(("What instrument {do} {x} play?", DEV),
               ("Which instrument {be} {x} known for?", HELD))),
    BO: Phrasing(
        inner=(("the birthplace of {x}", DEV), ("the city where {x} was born", HELD)),
        final=(("Where {was} {x} born?", DEV), ("Which city {do} {x} come from?", HELD))),
}
CHAINS = {
    2: [(ME, SI), (ME, FO), (RE_, FO), (RE, PD), (ME_, PL), (RE_, SI)],
    3: [(ME, RE, PD), (RE_, ME_, PL), (PD_, RE_, SI), (RE_, ME_, BO)],
    4: [(PD_, RE_, ME_, BO), (PD_, RE_, ME_, PL)],
}
ABSENT = (("Who manages {x}?", "band"), ("How many copies did {x} sell?", "album"),
          ("Who designed the cover of {x}?", "album"), ("Who is the spouse of {x}?",
                                                        "musician"),
          ("What is the genre of {x}?", "band"), ("Who founded {x}?", "label"))

SCHEMA = [  # what a user declaring these relations would write
    {"label": MEMBER_OF, "description": "the band a musician is a member of",
     "forward": ["is a member of", "plays in"], "head_nouns": ["member"],
     "tail_nouns": ["band"], "head_type": "musician", "tail_type": "band"},
    {"label": SIGNED_TO, "description": "the record label the band is signed to",
     "forward": ["is signed to"], "inverse": ["signed"], "tail_nouns": ["label",
                                                                      "record label"],
     "head_type": "band", "tail_type": "label"},
    {"label": FORMED_IN, "description": "the city where the band was formed",
     "forward": ["was formed in"], "tail_nouns": ["hometown"], "head_type": "band",
     "tail_type": "city"},
    {"label": RELEASED, "description": "an album the band released",
     "forward": ["released"], "inverse": ["released by"], "head_nouns": ["artist"],
     "tail_nouns": ["album"], "head_type": "band", "tail_type": "album",
     "cardinality": "many"},
    {"label": PRODUCED_BY, "description": "the producer of the album",
     "forward": ["produced by"], "inverse": ["produced"], "tail_nouns": ["producer"],
     "head_type": "album", "tail_type": "person"},
    {"label": PLAYS, "description": "the instrument a musician plays",
     "forward": ["plays"], "tail_nouns": ["instrument"], "head_type": "musician",
     "tail_type": "instrument"},
    {"label": BORN_IN, "description": "the city where the musician was born",
     "forward": ["was born in"], "tail_nouns": ["birthplace"], "head_type": "musician",
     "tail_type": "city"},
]


def populate(world: World, facts: int, rng: random.Random) -> None:
    """About `facts` facts: a band has three or four members, a label, a city and two or
    three albums, each with a producer; a musician plays an instrument and was born
    somewhere."""
    taken = {w.casefold() for w in INSTRUMENTS}
    count = max(10, facts // 24)
    cities = Zipf(things(rng, 30, taken, (2,)))
    labels = Zipf([f"{n} Records" for n in things(rng, max(5, count // 10), taken)])
    producers = Zipf(people(rng, max(10, count // 3), taken), exponent=0.7)
    musicians = iter(people(rng, count * 4, taken))
    albums = iter(things(rng, count * 3, taken, (2, 3)))
    for band in (f"The {n}s" for n in things(rng, count, taken, (2,))):
        world.add(band, SIGNED_TO, labels.pick(rng))
        world.add(band, FORMED_IN, cities.pick(rng))
        for _ in range(rng.randint(3, 4)):
            musician = next(musicians)
            world.add(musician, MEMBER_OF, band)
            world.add(musician, PLAYS, rng.choice(INSTRUMENTS))
            world.add(musician, BORN_IN, cities.pick(rng))
        for _ in range(rng.randint(2, 3)):
            album = next(albums)
            world.add(band, RELEASED, album)
            world.add(album, PRODUCED_BY, producers.pick(rng))


DOMAIN = Domain("music", RELATIONS, PHRASINGS, CHAINS, populate, ABSENT, SCHEMA)
