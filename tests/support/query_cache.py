"""Counting model calls that a cached question must not make.

The query-embedding cache is the process's: an erasure anywhere (another test process's,
heard through the erasure notices) clears it, as it must. A test that counts the calls of a
cached question runs its attempt again when a clearing fell inside it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graphmem.embeddings.cache import Embeddings


def without_clearing(embedder: Embeddings, monkeypatch: pytest.MonkeyPatch,
                     attempt: Callable[[], bool], tries: int = 5) -> bool:
    """Whether `attempt` held once in a window no erasure cleared the cache in."""
    cleared: list[int] = []
    clear = embedder.clear_cache

    def counted() -> None:
        cleared.append(1)
        clear()

    monkeypatch.setattr(embedder, "clear_cache", counted)
    for _ in range(tries):
        cleared.clear()
        if attempt() and not cleared:
            return True
    return False
