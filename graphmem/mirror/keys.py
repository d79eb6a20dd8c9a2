"""Signing and encryption keys.

The Ed25519 signing seed derives from GRAPHMEM_KEY when it is set, else from
`<home>/keys/sign.key`, 32 random bytes generated once with mode 0600. A passphrase (16
characters at least) goes through scrypt (memory-hard: each guess costs 32 MiB and a good
fraction of a second) with a salt stored once per deployment, GRAPHMEM_KEY_SALT or
`<home>/keys/sign.salt`: the public key is published, so what makes guessing the passphrase
from it expensive is the KDF, and the salt keeps one table of guesses from serving every
deployment. Seeds derived from a passphrase by an earlier release (HKDF with a fixed salt)
are recognised: the first process registering the scrypt key endorses that key in the ring,
so everything it signed keeps verifying.

Encryption uses a separate key: GRAPHMEM_ENCRYPTION_KEY (a Fernet key), else
`<home>/keys/encrypt.key`. The blind index key derives from the encryption key, so the two
always travel together.

Rotation (`rotate`) keeps every old public key in the `signing_keys` ring, endorsed by its
successor, so rows and receipts signed before the rotation still verify; a key found in the
ring without an endorsement from a trusted key is not trusted.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import secrets
import stat
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from graphmem.errors import ConfigError, InvalidInput
from graphmem.mirror.db import RelationalStore
from graphmem.secret_files import write_secret
from graphmem.settings import Settings

log = logging.getLogger(__name__)

SIGN_FILE = "sign.key"
SALT_FILE = "sign.salt"
ENCRYPT_FILE = "encrypt.key"
MIN_PASSPHRASE = 16
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1  # 128 * r * n bytes: 32 MiB per derivation
MIN_SALT = 16


def _hkdf(material: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"graphmem", info=info).derive(
        material)


def secret_file(path: Path) -> bytes:
    """32 random bytes kept as hex in `path` (0600), created atomically on first use: a racing
    process either links its file first or reads the winner's."""
    if not path.exists():
        write_secret(path, secrets.token_hex(32))
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        text = path.read_text().strip()
        if mode & 0o077:
            log.warning("key file %s is readable by others (mode %o): chmod 600 it", path, mode)
        raw = bytes.fromhex(text)
    except (OSError, ValueError) as e:
        raise ConfigError(f"cannot read the key file {path}: {e}") from e
    if len(raw) != 32:
        raise ConfigError(f"the key file {path} does not hold 32 bytes of hex: restore it")
    return raw


def public_bytes(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    """A short, stable name for a public key: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(public_bytes(key)).hexdigest()[:16]


def public_pem(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.PEM,
                            serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def load_public_key(text: str | bytes) -> Ed25519PublicKey:
    """A PEM block, or the raw 32-byte key in base64 or hex."""
    data = text.encode() if isinstance(text, str) else text
    try:
        if data.lstrip().startswith(b"-----BEGIN"):
            key = serialization.load_pem_public_key(data)
            if not isinstance(key, Ed25519PublicKey):
                raise InvalidInput("the public key is not an Ed25519 key")
            return key
        stripped = data.strip()
        raw = (bytes.fromhex(stripped.decode()) if len(stripped) == 64
               else base64.b64decode(stripped, validate=True))
        return Ed25519PublicKey.from_public_bytes(raw)
    except (ValueError, TypeError) as e:
        raise InvalidInput(f"not an Ed25519 public key: {e}") from None


def verify_signature(key: Ed25519PublicKey, signature_b64: str, message: bytes) -> bool:
    try:
        key.verify(base64.b64decode(signature_b64), message)
        return True
    except (InvalidSignature, ValueError):
        return False


@dataclass(frozen=True)
class Signer:
    private: Ed25519PrivateKey
    # the key an earlier release derived from the same passphrase, endorsed on registration
    legacy: Ed25519PublicKey | None = field(default=None, compare=False)

    @property
    def public(self) -> Ed25519PublicKey:
        return self.private.public_key()

    @property
    def key_id(self) -> str:
        return key_id(self.public)

    def sign(self, message: bytes) -> str:
        return base64.b64encode(self.private.sign(message)).decode()


def key_salt(settings: Settings) -> bytes:
    """The deployment's salt for GRAPHMEM_KEY: GRAPHMEM_KEY_SALT (hex), else a file in the
    home, created once. Every process and host using the passphrase must share it."""
    if settings.key_salt is None:
        return secret_file(settings.home / "keys" / SALT_FILE)
    try:
        salt = bytes.fromhex(settings.key_salt.strip())
    except ValueError:
        raise ConfigError("GRAPHMEM_KEY_SALT is not hex") from None
    if len(salt) < MIN_SALT:
        raise ConfigError(f"GRAPHMEM_KEY_SALT is too short: use {MIN_SALT} bytes or more"
                          f" ({2 * MIN_SALT} hex digits)")
    return salt


def _checked(secret: str, what: str) -> bytes:
    if len(secret) < MIN_PASSPHRASE:
        raise ConfigError(f"{what} is too short: use at least {MIN_PASSPHRASE} characters")
    return secret.encode()


def _seed_from_secret(secret: str, what: str, salt: bytes) -> bytes:
    return Scrypt(salt=salt, length=32, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P).derive(
        _checked(secret, what))


def legacy_seed(secret: str) -> bytes:
    """The seed an earlier release derived from a passphrase (HKDF-SHA256, fixed salt)."""
    return _hkdf(secret.encode(), b"graphmem/audit-signing/v1")


def signing_seed(settings: Settings) -> bytes:
    if settings.key is not None:
        return _seed_from_secret(settings.key.get_secret_value(), "GRAPHMEM_KEY",
                                 key_salt(settings))
    return secret_file(settings.home / "keys" / SIGN_FILE)


def signer(settings: Settings) -> Signer:
    legacy = None
    if settings.key is not None:
        old = legacy_seed(settings.key.get_secret_value())
        legacy = Ed25519PrivateKey.from_private_bytes(old).public_key()
    return Signer(Ed25519PrivateKey.from_private_bytes(signing_seed(settings)), legacy)


@dataclass(frozen=True)
class DataKeys:
    """The Fernet key for content columns and the HMAC key of the blind index."""

    fernet: bytes
    index: bytes


def data_keys(settings: Settings) -> DataKeys:
    if settings.encryption_key is not None:
        text = settings.encryption_key.get_secret_value().strip()
        try:
            raw = base64.urlsafe_b64decode(text.encode())
        except ValueError as e:
            raise ConfigError(f"GRAPHMEM_ENCRYPTION_KEY is not a Fernet key: {e}") from None
        if len(raw) != 32:
            raise ConfigError("GRAPHMEM_ENCRYPTION_KEY is not a Fernet key (32 bytes, urlsafe"
                              " base64): make one with `graphmem audit new-encryption-key`")
    else:
        raw = secret_file(settings.home / "keys" / ENCRYPT_FILE)
    return DataKeys(base64.urlsafe_b64encode(raw), _hkdf(raw, b"graphmem/blind-index/v1"))


# ---- the key ring ---------------------------------------------------------------------------
def _endorsement_message(endorsed: str, public_b64: str, by: str) -> bytes:
    return json.dumps({"endorses": endorsed, "public_key": public_b64, "by": by},
                      sort_keys=True, separators=(",", ":")).encode()


def register(store: RelationalStore, current: Signer) -> None:
    """Put the current public key in the ring (a no-op when it is there); endorse the key an
    earlier release derived from the same passphrase, if that key signed here."""
    public_b64 = base64.b64encode(public_bytes(current.public)).decode()
    with store.transaction() as cur:
        cur.execute("INSERT INTO signing_keys (key_id, public_key, created_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (key_id) DO NOTHING",
                    (current.key_id, public_b64, datetime.now(UTC).isoformat()))
    if current.legacy is not None and key_id(current.legacy) != current.key_id:
        _adopt(store, current, current.legacy)


def _adopt(store: RelationalStore, current: Signer, legacy: Ed25519PublicKey) -> None:
    """Retire the legacy key in the ring, endorsed by the current one (nothing when it was
    never registered, or was endorsed already)."""
    old_id = key_id(legacy)
    found = store.query("SELECT public_key FROM signing_keys WHERE key_id = ? AND endorsed_by"
                        " IS NULL", (old_id,))
    if not found:
        return
    endorsement = current.sign(_endorsement_message(old_id, found[0][0], current.key_id))
    with store.transaction() as cur:
        cur.execute("UPDATE signing_keys SET retired_at = ?, endorsed_by = ?, endorsement = ?"
                    " WHERE key_id = ? AND endorsed_by IS NULL",
                    (datetime.now(UTC).isoformat(), current.key_id, endorsement, old_id))
    log.warning("GRAPHMEM_KEY now derives signing key %s with scrypt; %s, derived by an"
                " earlier release, is retired and endorsed by it, so what it signed keeps"
                " verifying", current.key_id, old_id)


def trusted_keys(store: RelationalStore, current: Ed25519PublicKey
                 ) -> dict[str, Ed25519PublicKey]:
    """The current key, and every ring key endorsed (transitively) by a trusted successor."""
    trusted = {key_id(current): current}
    rows = store.query("SELECT key_id, public_key, endorsed_by, endorsement FROM signing_keys")
    changed = True
    while changed:
        changed = False
        for kid, public_b64, by, endorsement in rows:
            if kid in trusted or by not in trusted or not endorsement:
                continue
            key = load_public_key(public_b64)
            if key_id(key) == kid and verify_signature(
                    trusted[by], endorsement, _endorsement_message(kid, public_b64, by)):
                trusted[kid] = key
                changed = True
    return trusted


def rotate(store: RelationalStore, old: Signer, new: Signer) -> None:
    """Retire `old`: the new key endorses it, so what it signed keeps verifying."""
    register(store, new)
    public_b64 = base64.b64encode(public_bytes(old.public)).decode()
    endorsement = new.sign(_endorsement_message(old.key_id, public_b64, new.key_id))
    now = datetime.now(UTC).isoformat()
    with store.transaction() as cur:
        cur.execute("INSERT INTO signing_keys (key_id, public_key, created_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (key_id) DO NOTHING", (old.key_id, public_b64, now))
        cur.execute("UPDATE signing_keys SET retired_at = ?, endorsed_by = ?, endorsement = ?"
                    " WHERE key_id = ?", (now, new.key_id, endorsement, old.key_id))


def new_seed_file(settings: Settings) -> Signer:
    """Replace the generated signing key file with a fresh one (the old seed is discarded:
    only its public key is needed from now on, and the ring keeps it)."""
    seed = secrets.token_bytes(32)
    write_secret(settings.home / "keys" / SIGN_FILE, seed.hex(), replace=True)
    return Signer(Ed25519PrivateKey.from_private_bytes(seed))


def signer_from_secret(secret: str, settings: Settings) -> Signer:
    """The signer a GRAPHMEM_KEY value would give (with the deployment's salt), for rotating
    to a new value."""
    seed = _seed_from_secret(secret, "the new key", key_salt(settings))
    return Signer(Ed25519PrivateKey.from_private_bytes(seed))
