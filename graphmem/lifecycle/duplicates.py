"""Near-duplicate entities: pairs whose names embed with cosine >= 0.95, for `fsck` to report.

Candidates only, for a person to act on; nothing is merged. Runs on the configured embedder
(graphmem.embeddings, the local all-MiniLM-L6-v2 by default), in blocks so a large space
never needs the whole similarity matrix at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from graphmem.model.entities import Entity

THRESHOLD = 0.95
BLOCK = 1024
MAX_PAIRS = 200


class Embedder(Protocol):
    def documents(self, texts: Sequence[str]) -> list[list[float]]: ...


@dataclass(frozen=True)
class Pair:
    a: Entity
    b: Entity
    cosine: float

    def __str__(self) -> str:
        return f"{self.a} ~ {self.b} (cosine {self.cosine:.3f})"


def _unit(vectors: list[list[float]]) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1, norms)


def near_duplicates(entities: Sequence[Entity], embedder: Embedder,
                    threshold: float = THRESHOLD) -> list[Pair]:
    """Entity pairs of one space whose names are at least `threshold` similar, closest first."""
    if len(entities) < 2:
        return []
    unit = _unit(embedder.documents([e.name for e in entities]))
    pairs: list[Pair] = []
    for start in range(0, len(entities), BLOCK):
        sims = unit[start:start + BLOCK] @ unit.T
        rows, cols = np.nonzero(sims >= threshold)
        for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
            if j > start + i:
                pairs.append(Pair(entities[start + i], entities[j], float(sims[i, j])))
    pairs.sort(key=lambda p: (-p.cosine, p.a.key, p.b.key))
    return pairs[:MAX_PAIRS]
