"""What every embedder is: a name and a batched `embed`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

Vector = list[float]


class Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> list[Vector]: ...
