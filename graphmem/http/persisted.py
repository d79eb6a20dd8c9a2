"""Persisted queries: a client sends a document's SHA-256 instead of the document.

Two sources, Apollo's protocol for both (`extensions.persistedQuery = {version: 1,
sha256Hash}`): trusted documents from GRAPHMEM_PERSISTED_QUERIES (a JSON object of hash →
document, e.g. what a frontend build generates), known to every worker; and automatic ones,
registered when a client sends a document with its hash (checked), kept per worker in a
bounded LRU (GRAPHMEM_APQ_CACHE). An unknown hash answers PERSISTED_QUERY_NOT_FOUND, on which
a client sends the document once more with the hash.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from graphmem.errors import ConfigError, InvalidInput

NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"
NOT_SUPPORTED = "PERSISTED_QUERY_NOT_SUPPORTED"


class NotPersisted(Exception):
    """The hash is unknown (or persisted queries are off): Apollo clients retry with the
    document, so this answers 200 with the protocol's code, not an error status."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def digest(document: str) -> str:
    return hashlib.sha256(document.encode()).hexdigest()


def load_manifest(path: Path | None) -> dict[str, str]:
    """The trusted documents file: {sha256 hex: document}; every hash must be its
    document's."""
    if path is None:
        return {}
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ConfigError(f"GRAPHMEM_PERSISTED_QUERIES {path}: not readable JSON ({e})") from e
    if not isinstance(found, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in found.items()):
        raise ConfigError(f"GRAPHMEM_PERSISTED_QUERIES {path}: must be an object of"
                          " sha256 → document")
    wrong = [k for k, v in found.items() if digest(v) != k.lower()]
    if wrong:
        raise ConfigError(f"GRAPHMEM_PERSISTED_QUERIES {path}: {wrong[0][:16]}… is not the"
                          " SHA-256 of its document")
    return {k.lower(): v for k, v in found.items()}


class PersistedQueries:
    def __init__(self, manifest: dict[str, str], size: int) -> None:
        self.manifest = manifest
        self.size = size
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, str] = OrderedDict()

    def resolve(self, query: str | None, extensions: dict[str, Any] | None) -> str | None:
        """The document to run: the one sent, or the one its hash names."""
        persisted = (extensions or {}).get("persistedQuery")
        if persisted is None:
            return query
        if not self.manifest and not self.size:
            raise NotPersisted(NOT_SUPPORTED, "PersistedQueryNotSupported")
        if not isinstance(persisted, dict) or persisted.get("version") != 1:
            raise InvalidInput("extensions.persistedQuery must be {version: 1, sha256Hash}")
        wanted = persisted.get("sha256Hash")
        if not isinstance(wanted, str) or len(wanted) != 64:
            raise InvalidInput("extensions.persistedQuery.sha256Hash must be 64 hex digits")
        wanted = wanted.lower()
        if query is not None:
            if digest(query) != wanted:
                raise InvalidInput("provided sha does not match query")
            self._register(wanted, query)
            return query
        found = self.manifest.get(wanted) or self._lookup(wanted)
        if found is None:
            raise NotPersisted(NOT_FOUND, "PersistedQueryNotFound")
        return found

    def _lookup(self, wanted: str) -> str | None:
        with self._lock:
            found = self._cache.get(wanted)
            if found is not None:
                self._cache.move_to_end(wanted)
            return found

    def _register(self, wanted: str, query: str) -> None:
        if not self.size or wanted in self.manifest:
            return
        with self._lock:
            self._cache[wanted] = query
            self._cache.move_to_end(wanted)
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
