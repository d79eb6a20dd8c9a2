"""A deterministic stand-in for the embedding model, for benchmarks that compare engines.

The write path is measured without a model: each text's vector is derived from its hash,
so the background embedding thread still runs its real statements (read the targets, store
text and vectors under the vector index) at the cost of Neo4j, not of torch.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence

from graphmem.embeddings import Embeddings, Vector
from graphmem.graph.driver import GraphDriver
from graphmem.mirror.db import RelationalStore
from graphmem.runtime import Runtime
from graphmem.settings import load_settings

DIMENSIONS = 384  # the fact_embedding index's


class HashEmbedder:
    name = "stub:hash"

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        return [_vector(t) for t in texts]


def _vector(text: str) -> Vector:
    seed = hashlib.blake2b(text.encode(), digest_size=32).digest()
    raw = (seed * (DIMENSIONS * 4 // len(seed) + 1))[:DIMENSIONS * 4]
    values = [v / 2**31 - 1.0 for v in struct.unpack(f"<{DIMENSIONS}I", raw)]
    norm = sum(v * v for v in values) ** 0.5 or 1.0
    return [v / norm for v in values]


def stub_embeddings() -> Embeddings:
    return Embeddings(HashEmbedder(), 0)


def open_runtime() -> Runtime:
    """A migrated Runtime of the configured stores whose embedder is the stub."""
    settings = load_settings()
    runtime = Runtime(settings, GraphDriver(settings), RelationalStore(settings.relational_url),
                      embedder=stub_embeddings())
    runtime.migrate()
    return runtime
