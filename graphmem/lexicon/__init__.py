"""The lexicon: WordNet 3.0, read from its database files (Debian's `wordnet-base`), which
tells the multi-hop ranking what words mean when no one declared it. Optional: without
the files, relations are read from their labels and the embedding model alone, and
`graphmem doctor` says what is missing."""

from __future__ import annotations

import threading
from pathlib import Path

from graphmem.lexicon.senses import Senses
from graphmem.lexicon.wordnet import WordNet, WordNetMissing

__all__ = ["Senses", "WordNetMissing", "open_senses"]

_OPEN: dict[Path, Senses] = {}
_LOCK = threading.Lock()


def open_senses(root: Path) -> Senses:
    """The lexicon over the WordNet files under `root`, opened once per process.

    Raises WordNetMissing when they are not there."""
    with _LOCK:
        found = _OPEN.get(root)
        if found is None:
            found = _OPEN[root] = Senses(WordNet(root))
        return found
