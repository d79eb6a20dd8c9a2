"""The peer benchmark's workload: pre-extracted facts, one per call, the same on both sides.

Standard library only: the peer's driver imports this file inside its own virtual environment.
60% new slots, 30% changes of an existing slot (a supersede), 5% removals, 5% restatements.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any


def facts(seed: int) -> Iterator[dict[str, Any]]:
    """An endless, reproducible stream of extractor-shaped facts."""
    rng = random.Random(seed)
    current: dict[str, str] = {}
    slots: list[str] = []
    version = 0
    while True:
        version += 1
        roll = rng.random()
        if roll < 0.60 or len(slots) < 10:
            subject = f"setting_{len(slots)}"
            slots.append(subject)
            current[subject] = f"v{version}"
            yield {"subject": subject, "value": current[subject], "action": "ADD",
                   "confidence": 0.9}
            continue
        subject = rng.choice(slots)
        if subject not in current:
            current[subject] = f"v{version}"
            yield {"subject": subject, "value": current[subject], "action": "ADD",
                   "confidence": 0.9}
        elif roll < 0.90:
            current[subject] = f"v{version}"
            yield {"subject": subject, "value": current[subject], "action": "SUPERSEDE",
                   "confidence": 0.9}
        elif roll < 0.95:
            yield {"subject": subject, "value": current.pop(subject), "action": "RETRACT",
                   "confidence": 0.9}
        else:
            yield {"subject": subject, "value": current[subject], "action": "ADD",
                   "confidence": 0.9}


def subjects(count: int, seed: int) -> list[str]:
    """Subjects to look up: spread over the slots a space of `count` facts holds."""
    rng = random.Random(seed)
    slots = max(10, int(count * 0.6))
    return [f"setting_{rng.randrange(slots)}" for _ in range(200)]
