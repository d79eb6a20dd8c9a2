"""The keys one process signs and encrypts with, loaded on first use.

The signer signs audit heads and receipts; its public key goes into the store's key ring once
per process (and again after a rotation), so a verifier finds it. The field cipher holds the
data keys and the decrypt cache that hard deletes clear.
"""

from __future__ import annotations

import threading

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from graphmem.mirror import keys
from graphmem.mirror.crypto import FieldCipher
from graphmem.mirror.db import RelationalStore
from graphmem.settings import Settings


class Keyring:
    """The signer, the field cipher and the ring of trusted public keys of one process."""

    def __init__(self, settings: Settings, store: RelationalStore) -> None:
        self._settings = settings
        self._store = store
        self._lock = threading.Lock()
        self._signer: keys.Signer | None = None
        self._cipher: FieldCipher | None = None
        self._registered = False

    @property
    def signer(self) -> keys.Signer:
        with self._lock:
            if self._signer is None:
                self._signer = keys.signer(self._settings)
            return self._signer

    @property
    def cipher(self) -> FieldCipher:
        with self._lock:
            if self._cipher is None:
                self._cipher = FieldCipher(keys.data_keys(self._settings),
                                           self._settings.encrypt, self._settings.decrypt_cache)
            return self._cipher

    def use_signer(self, signer: keys.Signer) -> None:
        """Sign with `signer` from now on (after `keys.rotate`)."""
        with self._lock:
            self._signer = signer
            self._registered = False

    def ensure_registered(self) -> keys.Signer:
        """The signer, with its public key in the ring (once per process)."""
        signer = self.signer
        if not self._registered:
            keys.register(self._store, signer)
            self._registered = True
        return signer

    def trusted(self) -> dict[str, Ed25519PublicKey]:
        return keys.trusted_keys(self._store, self.ensure_registered().public)
