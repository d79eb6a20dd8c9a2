"""The same model through sentence-transformers on PyTorch: the reference engine, installed with
`pip install "graphmem[sentence-transformers]"` and chosen with
`GRAPHMEM_EMBEDDING_ENGINE=sentence-transformers`."""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphmem.embeddings.errors import EmbedderUnavailable
from graphmem.embeddings.model_files import model_path
from graphmem.embeddings.types import Vector
from graphmem.settings import Settings

EXTRA_HINT = 'pip install "graphmem[sentence-transformers]"'

# Imported by the model's load (torch.multiprocessing, transformers) and registering a
# threading exit hook when imported, which Python refuses once the interpreter has begun to
# exit: a load still running then would fail half-imported.
_EXIT_SENSITIVE_IMPORTS = ("concurrent.futures.thread", "concurrent.futures.process")


def prepare_background_load() -> None:
    """Import, on the calling thread, what a model load cannot import once the interpreter
    has begun to exit, so a background load still running when a short script ends can
    finish (the embed worker calls this before it starts its thread)."""
    for name in _EXIT_SENSITIVE_IMPORTS:
        importlib.import_module(name)


def _exiting() -> bool:
    return sys.is_finalizing() or not threading.main_thread().is_alive()


class SentenceTransformersEmbedder:
    """sentence-transformers on the CPU; the model loads on first use, once."""

    engine = "sentence-transformers"

    def __init__(self, settings: Settings) -> None:
        self.path = model_path(settings)
        self.name = f"local:{self.path.name}"
        self.threads = settings.embedding_threads
        self._model: Any = None
        self._lock = threading.Lock()
        self._encode_lock = threading.Lock()

    def files(self) -> tuple[Path, ...]:
        return (self.path,)

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = self._open()
            return self._model

    def _open(self) -> Any:
        try:
            import torch
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging
        except ImportError as e:
            raise EmbedderUnavailable(
                f"GRAPHMEM_EMBEDDING_ENGINE=sentence-transformers needs the extra: {EXTRA_HINT}"
            ) from e
        try:
            torch.set_num_threads(self.threads)
            hf_logging.disable_progress_bar()
            return SentenceTransformer(str(self.path), device="cpu", local_files_only=True)
        except (ImportError, OSError, ValueError, RuntimeError) as e:
            if _exiting():  # the model is fine; the interpreter is going away
                raise EmbedderUnavailable("the process exited before the local embedding"
                                          " model finished loading") from e
            raise EmbedderUnavailable(
                f"the local embedding model at {self.path} failed to load: {e}") from e

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """One call at a time: the fast tokenizer is not safe to share between threads."""
        model = self._load()
        try:
            with self._encode_lock:
                vectors = model.encode(list(texts), batch_size=64, normalize_embeddings=True,
                                       convert_to_numpy=True, show_progress_bar=False)
        except (RuntimeError, ValueError) as e:
            raise EmbedderUnavailable(f"the local embedding model failed: {e}") from e
        rows: list[Vector] = vectors.tolist()
        return rows
