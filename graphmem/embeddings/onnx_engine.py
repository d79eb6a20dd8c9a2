"""all-MiniLM-L6-v2 on ONNX Runtime: the default local embedder, CPU only, offline.

The graph is built in memory from the packaged weights when the first text is embedded
(`bert_graph`); tokenisation is the model's own `tokenizer.json` through `tokenizers`, with
the model's maximum sequence length, so a text is cut exactly where sentence-transformers
cuts it.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.embeddings.errors import EmbedderUnavailable
from graphmem.embeddings.model_files import INSTALL_HINT, model_path, required_files
from graphmem.embeddings.types import Vector
from graphmem.settings import Settings

BATCH = 64
# Loaded encoders by (process, model folder, threads): one per process however many Runtimes
# it holds, each a tokenizer, an ONNX session (whose runs are thread-safe) and the
# tokenizer's lock; a forked child loads its own. Building the graph from the weights costs
# about a second of CPU.
_LOADED: dict[tuple[int, Path, int], tuple[Any, Any, threading.Lock]] = {}
_LOADING = threading.Lock()


def max_tokens(folder: Path) -> int:
    """The sequence length the model was trained to (sentence-transformers' max_seq_length)."""
    config = json.loads((folder / "sentence_bert_config.json").read_text())
    return int(config["max_seq_length"])


class OnnxEmbedder:
    """The encoder and its tokenizer, loaded on first use, once per process."""

    engine = "onnx"

    def __init__(self, settings: Settings) -> None:
        self.path = model_path(settings)
        self.name = f"local:{self.path.name}"
        self.threads = settings.embedding_threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()
        self._tokenize_lock = threading.Lock()

    def files(self) -> tuple[Path, ...]:
        return required_files(self.path)

    def _load(self) -> Any:
        with self._lock:
            if self._session is None:
                missing = [str(f) for f in self.files() if not f.is_file()]
                if missing:
                    raise EmbedderUnavailable(
                        f"the local embedding model's files are missing ({', '.join(missing)}):"
                        f" {INSTALL_HINT}")
                self._tokenizer, self._session, self._tokenize_lock = self._loaded()
            return self._session

    def _loaded(self) -> tuple[Any, Any, threading.Lock]:
        key = (os.getpid(), self.path.resolve(), self.threads)
        with _LOADING:
            if key not in _LOADED:
                try:
                    _LOADED[key] = (self._open_tokenizer(), self._open_session(),
                                    threading.Lock())
                except (ImportError, OSError, ValueError, RuntimeError) as e:
                    raise EmbedderUnavailable(f"the local embedding model at {self.path}"
                                              f" failed to load: {e}") from e
            return _LOADED[key]

    def _open_tokenizer(self) -> Any:
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(self.path / "tokenizer.json"))
        tokenizer.enable_truncation(max_tokens(self.path))
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        return tokenizer

    def _open_session(self) -> Any:
        import onnxruntime as ort

        from graphmem.embeddings.bert_graph import build_sentence_encoder

        model = build_sentence_encoder(self.path / "model.safetensors",
                                       self.path / "config.json")
        options = ort.SessionOptions()
        # One thread by default: a server embeds beside request handling on a shared CPU.
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        return ort.InferenceSession(model.SerializeToString(), options,
                                    providers=["CPUExecutionProvider"])

    def _encode(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        with self._tokenize_lock:  # padding state lives in the tokenizer
            batch = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in batch], dtype=np.int64)
        mask = np.array([e.attention_mask for e in batch], dtype=np.int64)
        return ids, mask

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """Batches of similar length, so short texts do not pay for a long one's padding."""
        session = self._load()
        items = list(texts)
        order = sorted(range(len(items)), key=lambda i: len(items[i]))
        out: list[Vector] = [[] for _ in items]
        try:
            for start in range(0, len(order), BATCH):
                chunk = order[start:start + BATCH]
                ids, mask = self._encode([items[i] for i in chunk])
                vectors = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
                for i, row in zip(chunk, vectors.tolist(), strict=True):
                    out[i] = row
        except Exception as e:  # ONNX Runtime raises its own Fail/InvalidArgument types
            raise EmbedderUnavailable(f"the local embedding model failed: {e}") from e
        return out
