"""API keys: `gm_sk_<id>_<secret>`, stored as an HMAC-SHA256 digest with a pepper, shown once.

A key is 256 random bits, so a fast keyed hash is enough (no password stretching needed) and
authentication costs one indexed lookup; a server keeps verified keys for a few seconds
(graphmem.auth.cache), and a revocation on the same host takes effect on the next request.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.auth.cache import STAMP_FILE, VerifiedKeys, touch_stamp
from graphmem.auth.errors import Unauthenticated
from graphmem.auth.pepper import load_pepper
from graphmem.auth.sources import check_source, missing_table
from graphmem.errors import InvalidInput, NotFound, SchemaOutdated, StoreUnavailable
from graphmem.mirror.db import Cursor, RelationalStore
from graphmem.model import Space
from graphmem.model.principals import INVALID, Principal, check_spaces
from graphmem.model.roles import capabilities_for
from graphmem.settings import Settings

PREFIX = "gm_sk_"
_TOKEN = re.compile(r"^gm_sk_([0-9a-f]{12})_([A-Za-z0-9_\-]{43})$")
_NAME = re.compile(r"^[A-Za-z0-9_.@:\-]{1,128}$")
_OUTDATED = "the relational store has no API key tables: run `graphmem migrate up`"
# One answer for a key that does not exist and one that was revoked: a caller holding a
# guessed or stolen key learns nothing about which it is.


@dataclass(frozen=True)
class IssuedKey:
    """A new key: `token` is shown once and never stored."""

    principal: Principal
    key_id: str
    token: str


@dataclass(frozen=True)
class KeyInfo:
    key_id: str
    principal: Principal
    created_at: str
    revoked_at: str | None


class KeyStore:
    """Principals and their keys in the relational store (migration 3)."""

    def __init__(self, store: RelationalStore, pepper: bytes, cache_seconds: float = 0.0,
                 stamp: Path | None = None, outage_seconds: float = 0.0) -> None:
        """`stamp`: the host's revocation stamp (revoke rewrites it, caches watch it);
        `cache_seconds` > 0 keeps verified keys that long (servers); `outage_seconds` > 0
        lets a key verified that recently work while the store is unreachable."""
        self.store = store
        self._pepper = pepper
        self._stamp = stamp
        self._verified = VerifiedKeys(cache_seconds, stamp, outage_seconds=outage_seconds)

    @classmethod
    def open(cls, store: RelationalStore, settings: Settings, cached: bool = False) -> KeyStore:
        """The key store of a deployment: its pepper, its home's revocation stamp, and (for
        a server) the key cache of GRAPHMEM_API_KEY_CACHE_SECONDS and the outage grace of
        GRAPHMEM_API_KEY_OUTAGE_SECONDS."""
        return cls(store, load_pepper(settings),
                   settings.api_key_cache_seconds if cached else 0.0,
                   settings.home / STAMP_FILE,
                   settings.api_key_outage_seconds if cached else 0.0)

    def digest(self, token: str) -> str:
        return hmac.new(self._pepper, token.encode(), hashlib.sha256).hexdigest()

    # ---- issuing ---------------------------------------------------------------------------
    def create(self, tenant: str, role: str, spaces: tuple[str, ...] | None = None,
               name: str | None = None, source: str | None = None) -> IssuedKey:
        """A key for the principal (tenant, name); the principal is created on first use.
        `source`: the source the principal speaks as (its writes may name it; graphmem.auth
        .sources)."""
        capabilities_for(role)
        source = None if source is None else check_source(source)
        try:
            Space(tenant=tenant)
        except ValueError as e:
            raise InvalidInput(str(e).replace("space tenant", "tenant")) from None
        spaces = check_spaces(spaces)
        key_id = secrets.token_hex(6)
        name = name or f"key-{key_id}"
        if not _NAME.match(name):
            raise InvalidInput(f"principal name {name!r} is invalid: use 1-128 letters, digits"
                               " or _ . @ : -")
        token = f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
        now = _now()
        with self._tx() as cur:
            principal = self._principal(cur, tenant, name, role, spaces, source, now)
            cur.execute("INSERT INTO api_keys (id, principal_id, digest, created_at)"
                        " VALUES (?, ?, ?, ?)", (key_id, principal.id, self.digest(token), now))
        return IssuedKey(Principal(**{**principal.__dict__, "key_id": key_id}), key_id, token)

    def _principal(self, cur: Any, tenant: str, name: str, role: str,
                   spaces: tuple[str, ...] | None, source: str | None, now: str) -> Principal:
        cur.execute("SELECT id, role, spaces, source FROM principals WHERE tenant = ? AND"
                    " name = ?", (tenant, name))
        row = cur.fetchone()
        if row is None:
            principal = Principal(uuid.uuid4().hex, name, tenant, role, spaces, source=source)
            cur.execute("INSERT INTO principals (id, tenant, name, role, spaces, source,"
                        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (principal.id, tenant, name, role, _spaces_json(spaces), source, now))
            return principal
        if row[1] != role or _spaces(row[2]) != spaces or row[3] != source:
            raise InvalidInput(f"principal {name!r} of tenant {tenant!r} exists with role"
                               f" {row[1]!r}, spaces {_spaces(row[2])} and source {row[3]!r}:"
                               " reuse those, or choose another --name")
        return Principal(row[0], name, tenant, role, spaces, source=source)

    # ---- checking --------------------------------------------------------------------------
    def verified(self, token: str) -> Principal | None:
        """The principal of a key verified moments ago, without a lookup; None: look it up
        with `authenticate` (cheap enough for the event loop)."""
        return self._verified.get(self.digest(token))

    def authenticate(self, token: str) -> Principal:
        """The principal behind a live key; anything else is Unauthenticated."""
        match = _TOKEN.match(token)
        if match is None:
            raise Unauthenticated("the API key is malformed: expected gm_sk_…")
        digest = self.digest(token)
        stamp = self._verified.stamp_now()
        try:
            rows = self._query(
                "SELECT k.id, k.revoked_at, p.id, p.name, p.tenant, p.role, p.spaces,"
                " p.source FROM api_keys k JOIN principals p ON p.id = k.principal_id"
                " WHERE k.digest = ?", (digest,))
        except StoreUnavailable:
            known = self._verified.during_outage(digest)
            if known is None:
                raise
            return known
        if not rows or rows[0][0] != match.group(1) or rows[0][1] is not None:
            raise Unauthenticated(INVALID)
        key_id, _, pid, name, tenant, role, spaces, source = rows[0]
        principal = Principal(pid, name, tenant, role, _spaces(spaces), key_id=key_id,
                              source=source)
        self._verified.put(digest, principal, stamp)
        return principal

    # ---- listing and revoking ---------------------------------------------------------------
    def keys(self, tenant: str | None = None) -> list[KeyInfo]:
        sql = ("SELECT k.id, k.created_at, k.revoked_at, p.id, p.name, p.tenant, p.role,"
               " p.spaces, p.source FROM api_keys k JOIN principals p ON p.id = k.principal_id")
        order = " ORDER BY k.created_at, k.id"
        rows = (self._query(sql + order, ()) if tenant is None
                else self._query(sql + " WHERE p.tenant = ?" + order, (tenant,)))
        return [KeyInfo(r[0], Principal(r[3], r[4], r[5], r[6], _spaces(r[7]), key_id=r[0],
                                        source=r[8]), r[1], r[2]) for r in rows]

    def revoke(self, key_id: str) -> KeyInfo:
        with self._tx() as cur:
            cur.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                        (_now(), key_id))
        self._verified.clear()
        if self._stamp is not None:
            touch_stamp(self._stamp)  # every server on this host forgets its verified keys
        found = [k for k in self.keys() if k.key_id == key_id]
        if not found:
            raise NotFound(f"no API key {key_id!r}: `graphmem keys list` shows the ids")
        return found[0]

    # ---- plumbing ------------------------------------------------------------------------------
    def _tx(self) -> AbstractContextManager[Cursor]:
        return _transaction(self.store)

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._tx() as cur:
            cur.execute(sql, params)
            return [tuple(r) for r in cur.fetchall()]


@contextmanager
def _transaction(store: RelationalStore) -> Iterator[Cursor]:
    """A transaction that names the fix when the key tables do not exist yet."""
    try:
        with store.transaction() as cur:
            yield cur
    except Exception as e:
        if missing_table(e):
            raise SchemaOutdated(_OUTDATED) from e
        raise


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _spaces_json(spaces: tuple[str, ...] | None) -> str | None:
    return None if spaces is None else json.dumps(list(spaces))


def _spaces(raw: str | None) -> tuple[str, ...] | None:
    return None if raw is None else tuple(json.loads(raw))
