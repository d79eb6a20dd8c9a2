"""The configured local engine reproduces the reference vectors of all-MiniLM-L6-v2.

The reference was computed once with sentence-transformers on PyTorch (`make
reference-vectors`); the default engine (ONNX Runtime) must give the same vector for every
sentence: cosine similarity at least 0.999. `make test-sentence-transformers` runs this module
with the reference engine itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from graphmem.embeddings import Embedder, build_embedder
from graphmem.settings import load_settings

FIXTURES = Path(__file__).parent / "fixtures"
SENTENCES: list[str] = json.loads((FIXTURES / "sentences.json").read_text())
REFERENCE = np.array(json.loads((FIXTURES / "reference_vectors.json").read_text())["vectors"])


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return build_embedder(load_settings(embedding_base_url=None))


def test_the_fixture_covers_every_sentence() -> None:
    assert REFERENCE.shape == (len(SENTENCES), 384)


def test_every_sentence_matches_its_reference_vector(embedder: Embedder) -> None:
    vectors = np.array(embedder.embed(SENTENCES))
    cosines = (vectors * REFERENCE).sum(axis=1) / (
        np.linalg.norm(vectors, axis=1) * np.linalg.norm(REFERENCE, axis=1))
    worst = int(np.argmin(cosines))
    assert cosines.min() >= 0.999, f"{SENTENCES[worst][:60]!r}: cosine {cosines[worst]:.6f}"


def test_a_text_alone_embeds_as_it_does_in_a_batch(embedder: Embedder) -> None:
    """Padding in a batch must not move a short text's vector."""
    alone = np.array([embedder.embed([text])[0] for text in SENTENCES[:6]])
    batched = np.array(embedder.embed(SENTENCES[:6] + [SENTENCES[19]]))[:6]
    assert np.allclose(alone, batched, atol=1e-5)


def test_vectors_are_unit_length(embedder: Embedder) -> None:
    norms = np.linalg.norm(np.array(embedder.embed(SENTENCES[:10])), axis=1)
    assert np.allclose(norms, 1.0, atol=1e-5)


def test_a_text_past_the_models_length_is_cut_where_the_reference_cuts_it(
        embedder: Embedder) -> None:
    long = SENTENCES[19]
    assert len(long.split()) > 256
    longer = long + " and then a very different ending about databases and billing"
    first, second = np.array(embedder.embed([long, longer]))
    assert float(first @ second) > 0.9999
