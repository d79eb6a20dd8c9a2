"""Made-up names: pronounceable words no dictionary holds, so a question's words never
collide with an entity's name, and Zipf-weighted picks, so some entities become hubs."""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable

FIRST = ("Amara", "Bruno", "Chen", "Dalia", "Emeka", "Freya", "Goran", "Hana", "Ivo", "Jun",
         "Kofi", "Lena", "Mateo", "Nia", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Tomas",
         "Uma", "Vera", "Wen", "Xavi", "Yara", "Zane")
ONSETS = ("b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br",
          "dr", "gr", "kr", "st", "tr")
VOWELS = ("a", "e", "i", "o", "u", "ai", "ou")
CODAS = ("n", "r", "s", "l", "m", "nd", "rt", "x", "")


def word(rng: random.Random, syllables: int) -> str:
    return "".join(rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS)
                   for _ in range(syllables)).capitalize()


def unique(rng: random.Random, count: int, make: Callable[[], str],
           taken: set[str] | None = None) -> list[str]:
    """`count` distinct names from `make`, none of them in `taken` (which grows)."""
    seen = taken if taken is not None else set()
    found: list[str] = []
    while len(found) < count:
        name = make()
        if name.casefold() not in seen:
            seen.add(name.casefold())
            found.append(name)
    return found


def people(rng: random.Random, count: int, taken: set[str]) -> list[str]:
    return unique(rng, count, lambda: f"{rng.choice(FIRST)} {word(rng, 2)}", taken)


def things(rng: random.Random, count: int, taken: set[str], syllables: tuple[int, ...] = (2, 3)
           ) -> list[str]:
    return unique(rng, count, lambda: word(rng, rng.choice(syllables)), taken)


class Zipf:
    """Picks among `items`, the first far more often than the last."""

    def __init__(self, items: list[str], exponent: float = 0.9) -> None:
        self.items = items
        self.weights = list(itertools.accumulate(1 / (i + 1) ** exponent
                                                 for i in range(len(items))))

    def pick(self, rng: random.Random) -> str:
        return self.items[bisect.bisect(self.weights, rng.random() * self.weights[-1])]
