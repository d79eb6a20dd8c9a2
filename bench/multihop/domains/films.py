"""Films as a movie knowledge base records them (the relations of MetaQA's WikiMovies
graph): a film is directed and written by people, stars actors, came out in a year, is in
a language and has genres. Questions walk relations both ways: "the films X directed"
walks `directed_by` from its tail."""

from __future__ import annotations

import random

from bench.multihop.names import Zipf, people, things
from bench.multihop.world import DEV, HELD, Domain, Phrasing, Relation, Step, World

DIRECTED_BY, WRITTEN_BY, STARRED_ACTORS = "directed_by", "written_by", "starred_actors"
RELEASE_YEAR, IN_LANGUAGE, HAS_GENRE = "release_year", "in_language", "has_genre"
LANGUAGES = ("English", "French", "German", "Spanish", "Italian", "Japanese", "Korean",
             "Hindi", "Swedish", "Portuguese", "Mandarin", "Russian", "Danish", "Turkish")
GENRES = ("Drama", "Comedy", "Thriller", "Horror", "Western", "Romance", "Documentary",
          "Animation", "Musical", "Mystery", "Fantasy", "Crime", "War", "Adventure")

RELATIONS = {r.label: r for r in (
    Relation(DIRECTED_BY, "film", "person", "director"),
    Relation(WRITTEN_BY, "film", "person", "writer"),
    Relation(STARRED_ACTORS, "film", "person", "actor", many=True),
    Relation(RELEASE_YEAR, "film", "year", "release year"),
    Relation(IN_LANGUAGE, "film", "language", "language"),
    Relation(HAS_GENRE, "film", "genre", "genre", many=True),
)}

D, WR, S = Step(DIRECTED_BY), Step(WRITTEN_BY), Step(STARRED_ACTORS)
Y, LA, G = Step(RELEASE_YEAR), Step(IN_LANGUAGE), Step(HAS_GENRE)
D_, WR_, S_ = Step(DIRECTED_BY, False), Step(WRITTEN_BY, False), Step(STARRED_ACTORS, False)

PHRASINGS = {
    D: Phrasing(
        inner=(("the director of {x}", DEV), ("{x}'s director", DEV),
               ("the person who directed {x}", HELD), ("the filmmaker behind {x}", HELD)),
        final=(("Who directed {x}?", DEV), ("Who is the director of {x}?", DEV),
               ("Who {was} {x} directed by?", HELD), ("Who helmed {x}?", HELD))),
    D_: Phrasing(
        inner=(("the films directed by {x}", DEV), ("the movies {x} directed", DEV),
               ("the pictures {x} helmed", HELD)),
        final=(("Which films did {x} direct?", DEV), ("What movies were directed by {x}?", DEV),
               ("Which pictures did {x} helm?", HELD)),
        plural=True),
    WR: Phrasing(
        inner=(("the writer of {x}", DEV), ("{x}'s screenwriter", DEV),
               ("the author of {x}", HELD), ("the person who penned {x}", HELD)),
        final=(("Who wrote {x}?", DEV), ("Who is the writer of {x}?", DEV),
               ("Who penned {x}?", HELD), ("Who was the screenwriter of {x}?", HELD))),
    WR_: Phrasing(
        inner=(("the films written by {x}", DEV), ("the movies {x} wrote", DEV),
               ("the films scripted by {x}", HELD)),
        final=(("Which films did {x} write?", DEV), ("What movies were written by {x}?", DEV),
               ("Which films did {x} script?", HELD)),
        plural=True),
    S: Phrasing(
        inner=(("the actors in {x}", DEV), ("the stars of {x}", DEV),
               ("the cast of {x}", HELD), ("the people who appeared in {x}", HELD)),
        final=(("Who acted in {x}?", DEV), ("Who starred in {x}?", DEV),
               ("Which actors appear in {x}?", HELD), ("Who was in the cast of {x}?", HELD)),
        plural=True),
    S_: Phrasing(
        inner=(("the films {x} acted in", DEV), ("the movies starring {x}", DEV),
               ("the films {x} appeared in", HELD), ("the movies featuring {x}", HELD)),
        final=(("Which films did {x} act in?", DEV), ("What movies did {x} star in?", DEV),
               ("In which films does {x} appear?", HELD), ("Which movies feature {x}?", HELD)),
        plural=True),
    Y: Phrasing(
        final=(("When {was} {x} released?", DEV), ("What year did {x} come out?", DEV),
               ("In which year did {x} premiere?", HELD), ("When did {x} hit theaters?",
                                                           HELD))),
    LA: Phrasing(
        final=(("What language {be} {x} in?", DEV), ("What is the language of {x}?", DEV),
               ("In which language {was} {x} made?", HELD),
               ("Which language {be} {x} spoken in?", HELD))),
    G: Phrasing(
        final=(("What genre {be} {x}?", DEV), ("What genres {do} {x} belong to?", DEV),
               ("What kind of film {be} {x}?", HELD),
               ("Which category {do} {x} fall into?", HELD))),
}
CHAINS = {
    2: [(S_, D), (D_, S), (WR_, Y), (D_, G), (S_, LA), (D, D_), (WR, WR_)],
    3: [(WR, WR_, D), (D, D_, Y), (S_, D, D_), (D, D_, G), (S_, WR, WR_)],
    4: [(S_, D, D_, G), (S_, D, D_, LA), (WR, WR_, D, D_)],
}
ABSENT = (("Who composed the music for {x}?", "film"), ("What was the budget of {x}?", "film"),
          ("Where was {x} filmed?", "film"), ("Who edited {x}?", "film"),
          ("What awards did {x} win?", "film"), ("Who is the spouse of {x}?", "person"),
          ("Where was {x} born?", "person"), ("How tall is {x}?", "person"))

SCHEMA = [  # what a user declaring these relations would write
    {"label": DIRECTED_BY, "description": "the person who directed the film",
     "forward": ["directed by"], "inverse": ["directed"], "tail_nouns": ["director"],
     "head_type": "film", "tail_type": "person"},
    {"label": WRITTEN_BY, "description": "the person who wrote the film's screenplay",
     "forward": ["written by"], "inverse": ["wrote"], "tail_nouns": ["writer"],
     "head_type": "film", "tail_type": "person"},
    {"label": STARRED_ACTORS, "description": "an actor in the film's cast",
     "forward": ["stars"], "inverse": ["acted in", "starred in"],
     "tail_nouns": ["actor", "star"], "head_type": "film", "tail_type": "person",
     "cardinality": "many"},
    {"label": RELEASE_YEAR, "description": "the year the film was released",
     "forward": ["was released in"], "tail_nouns": ["release year", "year"],
     "head_type": "film", "tail_type": "year"},
    {"label": IN_LANGUAGE, "description": "the language the film is in",
     "forward": ["is in"], "tail_nouns": ["language"], "head_type": "film",
     "tail_type": "language"},
    {"label": HAS_GENRE, "description": "a genre of the film", "tail_nouns": ["genre"],
     "head_type": "film", "tail_type": "genre", "cardinality": "many"},
]


def populate(world: World, facts: int, rng: random.Random) -> None:
    """About `facts` facts: eight per film; directors, writers and actors are drawn from one
    pool of people, a few of them prolific."""
    taken = {w.casefold() for w in (*LANGUAGES, *GENRES)}
    count = max(20, facts // 8)
    crew = Zipf(people(rng, max(30, count), taken), exponent=0.7)
    languages, genres = Zipf(list(LANGUAGES), 1.2), Zipf(list(GENRES), 0.8)
    for title in things(rng, count, taken, (2, 3)):
        world.add(title, DIRECTED_BY, crew.pick(rng))
        world.add(title, WRITTEN_BY, crew.pick(rng))
        for actor in {crew.pick(rng) for _ in range(rng.randint(2, 4))}:
            world.add(title, STARRED_ACTORS, actor)
        world.add(title, RELEASE_YEAR, str(rng.randint(1950, 2024)))
        world.add(title, IN_LANGUAGE, languages.pick(rng))
        for genre in {genres.pick(rng) for _ in range(rng.randint(1, 2))}:
            world.add(title, HAS_GENRE, genre)


DOMAIN = Domain("films", RELATIONS, PHRASINGS, CHAINS, populate, ABSENT, SCHEMA)
