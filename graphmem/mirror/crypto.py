"""Encryption at rest for the mirror's content columns: Fernet per field, bound to its row,
and a blind HMAC index.

A sealed value is `f2:<Fernet token>` over `[binding, text]`, where the binding names the
row and column the value belongs to (`event|<id>|<space>|<kind>`, `fact|<id>|<space>|<column>`
…): Fernet authenticates the token, so a value copied into another row, another space or
another column no longer opens there (`Misbound`). Values sealed before bindings existed are
`f1:<token>` and still open, without that check. With GRAPHMEM_ENCRYPT off a value is
`p1:<plain text>`, so a store written under either setting stays readable under the other.
Decrypted values are kept in a bounded in-memory cache (GRAPHMEM_DECRYPT_CACHE entries,
0 = off); every hard delete clears it, so erased content does not outlive its rows here.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections import OrderedDict

from cryptography.fernet import Fernet, InvalidToken

from graphmem.errors import GraphMemError
from graphmem.mirror.keys import DataKeys

BOUND = "f2:"
SEALED = "f1:"
PLAIN = "p1:"


class DecryptionFailed(GraphMemError):
    """A sealed value does not open with this key: GRAPHMEM_ENCRYPTION_KEY or the key file
    differs from the one that wrote the store."""


class Misbound(DecryptionFailed):
    """A sealed value opened, but it was sealed for another row, space or column: it was
    copied there."""


def binding(*parts: object) -> str:
    """The name of a value's place: its table and the row's identity, joined by `|`."""
    return "|".join(str(p) for p in parts)


class FieldCipher:
    def __init__(self, keys: DataKeys, encrypt: bool = True, cache_size: int = 4096) -> None:
        self._fernet = Fernet(keys.fernet)
        self._index_key = keys.index
        self.encrypt = encrypt
        self._cache: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def seal(self, text: str | None, bound: str) -> str | None:
        """`text` sealed for the place named by `bound` (see `binding`)."""
        if text is None:
            return None
        if not self.encrypt:
            return PLAIN + text
        body = json.dumps([bound, text], ensure_ascii=False, separators=(",", ":"))
        return BOUND + self._fernet.encrypt(body.encode()).decode()

    def open(self, stored: str | None, bound: str) -> str | None:
        """The text of a value stored at the place `bound` names; Misbound when it was
        sealed for another place, DecryptionFailed when it does not open at all."""
        if stored is None:
            return None
        if stored.startswith(PLAIN):
            return stored[len(PLAIN):]
        if not stored.startswith((BOUND, SEALED)):
            raise DecryptionFailed("a mirror value carries no known seal prefix")
        place, text = self._cached(stored) or self._decrypt(stored)
        if stored.startswith(BOUND) and place != bound:
            raise Misbound(f"a value stored at {bound} was sealed for {place}: it was copied"
                           " there from another row")
        return text

    def _cached(self, stored: str) -> tuple[str, str] | None:
        with self._lock:
            hit = self._cache.get(stored)
            if hit is not None:
                self._cache.move_to_end(stored)
            return hit

    def _decrypt(self, stored: str) -> tuple[str, str]:
        try:
            plain = self._fernet.decrypt(stored[3:].encode()).decode()
        except InvalidToken:
            raise DecryptionFailed(
                "a mirror value does not decrypt: the encryption key (GRAPHMEM_ENCRYPTION_KEY or"
                " keys/encrypt.key) is not the one that wrote it, or the value was altered"
            ) from None
        found = ("", plain)
        if stored.startswith(BOUND):
            place, text = json.loads(plain)
            found = (str(place), str(text))
        if self._cache_size:
            with self._lock:
                self._cache[stored] = found
                if len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return found

    def index(self, space: str, subject: str) -> str:
        """The blind index: equal (space, subject) pairs give equal digests, nothing else."""
        message = f"{space}\x00{subject}".encode()
        return hmac.new(self._index_key, message, hashlib.sha256).hexdigest()

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()

    def cached_texts(self) -> list[str]:
        """The decrypted texts held in the cache (what an erasure must not leave here)."""
        with self._lock:
            return [text for _, text in self._cache.values()]

    @property
    def cached(self) -> int:
        with self._lock:
            return len(self._cache)
