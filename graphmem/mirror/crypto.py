"""Encryption at rest for the mirror's content columns: Fernet per field, a blind HMAC index.

A sealed value is `f1:<Fernet token>`; with GRAPHMEM_ENCRYPT off it is `p1:<plain text>`, so a
store written under either setting stays readable under the other. Decrypted values are kept
in a bounded in-memory cache (GRAPHMEM_DECRYPT_CACHE entries, 0 = off); every hard delete
clears it, so erased content does not outlive its rows in this process.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections import OrderedDict

from cryptography.fernet import Fernet, InvalidToken

from graphmem.errors import GraphMemError
from graphmem.mirror.keys import DataKeys

SEALED = "f1:"
PLAIN = "p1:"


class DecryptionFailed(GraphMemError):
    """A sealed value does not open with this key: GRAPHMEM_ENCRYPTION_KEY or the key file
    differs from the one that wrote the store."""


class FieldCipher:
    def __init__(self, keys: DataKeys, encrypt: bool = True, cache_size: int = 4096) -> None:
        self._fernet = Fernet(keys.fernet)
        self._index_key = keys.index
        self.encrypt = encrypt
        self._cache: OrderedDict[str, str] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def seal(self, text: str | None) -> str | None:
        if text is None:
            return None
        if not self.encrypt:
            return PLAIN + text
        return SEALED + self._fernet.encrypt(text.encode()).decode()

    def open(self, stored: str | None) -> str | None:
        if stored is None:
            return None
        if stored.startswith(PLAIN):
            return stored[len(PLAIN):]
        if not stored.startswith(SEALED):
            raise DecryptionFailed("a mirror value carries no known seal prefix")
        with self._lock:
            hit = self._cache.get(stored)
            if hit is not None:
                self._cache.move_to_end(stored)
                return hit
        try:
            text = self._fernet.decrypt(stored[len(SEALED):].encode()).decode()
        except InvalidToken:
            raise DecryptionFailed(
                "a mirror value does not decrypt: the encryption key (GRAPHMEM_ENCRYPTION_KEY or"
                " keys/encrypt.key) is not the one that wrote it") from None
        if self._cache_size:
            with self._lock:
                self._cache[stored] = text
                if len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return text

    def index(self, space: str, subject: str) -> str:
        """The blind index: equal (space, subject) pairs give equal digests, nothing else."""
        message = f"{space}\x00{subject}".encode()
        return hmac.new(self._index_key, message, hashlib.sha256).hexdigest()

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()

    @property
    def cached(self) -> int:
        with self._lock:
            return len(self._cache)
