"""Documents embedded in batches, queries cached by exact text, and the count of calls that
reached the model (tests hold each operation to its documented number of model calls)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from graphmem.embeddings.types import Embedder, Vector


class Embeddings:
    """Documents in batches; queries cached by exact text (`GRAPHMEM_QUERY_CACHE` entries).

    `calls` counts calls that reached the model, so tests can hold each operation to its
    documented number of model calls.
    """

    def __init__(self, embedder: Embedder, cache_size: int) -> None:
        self.embedder = embedder
        self.cache_size = cache_size
        self.calls = 0
        self._cache: OrderedDict[str, Vector] = OrderedDict()
        self._lock = threading.Lock()
        self._calls_lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.embedder.name

    def documents(self, texts: Sequence[str]) -> list[Vector]:
        """One batched call for every text given."""
        if not texts:
            return []
        with self._calls_lock:  # not self._lock: warm() holds that one around this call
            self.calls += 1
        return self.embedder.embed(texts)

    def query(self, text: str) -> Vector:
        with self._lock:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                return hit
        vector = self.documents([text])[0]
        if self.cache_size:
            with self._lock:
                self._cache[text] = vector
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return vector

    def queries(self, texts: Sequence[str]) -> dict[str, Vector]:
        """Query vectors of many short texts, cached by exact text: one batched call for
        those not cached (none when all are)."""
        wanted = list(dict.fromkeys(texts))
        with self._lock:
            found = {t: self._cache[t] for t in wanted if t in self._cache}
        missing = [t for t in wanted if t not in found]
        if not missing:
            return found
        found.update(zip(missing, self.documents(missing), strict=True))
        if self.cache_size:
            with self._lock:
                for text in missing:
                    self._cache[text] = found[text]
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return found

    def warm(self, questions: Sequence[str]) -> None:
        """Cache many questions with one batched call (for batch evaluation)."""
        todo = [q for q in dict.fromkeys(questions) if q not in self._cache]
        if not todo or not self.cache_size:
            return
        with self._lock:
            for text, vector in zip(todo, self.documents(todo), strict=True):
                self._cache[text] = vector
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def cached_questions(self) -> list[str]:
        """The questions whose vectors are cached."""
        with self._lock:
            return list(self._cache)

    def clear_cache(self) -> None:
        """Forget every cached question (erasure calls this; so does the benchmark)."""
        with self._lock:
            self._cache.clear()

    def close(self) -> None:
        close = getattr(self.embedder, "close", None)
        if close is not None:
            close()
