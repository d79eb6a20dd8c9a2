"""Which principals may speak as which source, per tenant, and the tenant's trusted and
curated sources.

A write names its source, and the source decides a lot: a curated source is never
overwritten by another, AUTHORITY ranks sources, REVIEW flags cross-source changes, a
trusted source skips the confirm gate. So a source is bound to principals: a key created
with `--source crm` speaks as `crm` (graphmem.auth.keys), and a tenant's mapping
(`graphmem sources set TENANT crm --principal crm-sync`) binds more. A write claiming a
source its caller is not bound to is recorded as claimed (`claimed:crm`, graphmem.model),
ranks 0, is never curated nor trusted, and so never overwrites a curated fact.

The mapping also says which of the tenant's sources are trusted and curated (in every space
of the tenant, besides GRAPHMEM_TRUSTED_SOURCES / GRAPHMEM_CURATED_SOURCES and a space's
policy). A server keeps each tenant's mapping for GRAPHMEM_API_KEY_CACHE_SECONDS; a change
through any SourceBook of the host rewrites a stamp file that every cache checks (one stat),
like key revocations.

A graph write never fails because the relational store does: when the mapping cannot be
read, the last one read is used, and when there is none the write goes on with no mapping
and `unknown` set, which makes it flag every cross-source change (its curated sources are
not known); a store without the table (not migrated yet) has no mapping at all.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from graphmem.auth.cache import Stamp, read_stamp, touch_stamp
from graphmem.errors import InvalidInput, NotFound
from graphmem.mirror.db import RelationalStore
from graphmem.model import CLAIMED, Space
from graphmem.outage_log import OUTAGES
from graphmem.settings import Settings

log = logging.getLogger(__name__)

STAMP_FILE = "sources.changed"
MAX_SOURCE = 200
OUTAGE_RETRY = 5.0


def missing_table(error: BaseException) -> bool:
    """Whether a store error says a table does not exist (a store not migrated yet)."""
    if isinstance(error, sqlite3.OperationalError):
        return "no such table" in str(error)
    return type(error).__name__ == "UndefinedTable" or (
        error.__cause__ is not None and missing_table(error.__cause__))


def check_source(name: str) -> str:
    """A source name a principal can be bound to."""
    name = name.strip()
    if not name or len(name) > MAX_SOURCE or not name.isprintable():
        raise InvalidInput(f"source {name[:40]!r} is invalid: 1-{MAX_SOURCE} printable"
                           " characters")
    if name.startswith(CLAIMED):
        raise InvalidInput(f"source {name!r}: `{CLAIMED}` marks claims, it names no source")
    return name


@dataclass(frozen=True)
class TenantSources:
    """One tenant's mapping: source → the principals bound to it, and its trusted and
    curated sources."""

    bound: dict[str, frozenset[str]] = field(default_factory=dict)
    trusted: frozenset[str] = frozenset()
    curated: frozenset[str] = frozenset()
    unknown: bool = False

    def speaks_as(self, principal: str, source: str) -> bool:
        return principal in self.bound.get(source, frozenset())


@dataclass(frozen=True)
class SourceRow:
    tenant: str
    source: str
    principals: tuple[str, ...]
    trusted: bool
    curated: bool


class SourceBook:
    """The mapping in the relational store (migration 5), cached per tenant."""

    def __init__(self, store: RelationalStore, cache_seconds: float = 0.0,
                 stamp: Path | None = None) -> None:
        self.store = store
        self._seconds = cache_seconds
        self._stamp = stamp
        self._lock = threading.Lock()
        self._cached: dict[str, tuple[TenantSources, float]] = {}
        self._last: dict[str, TenantSources] = {}  # the last mapping read, for outages
        self._seen: Stamp | None = None

    @classmethod
    def open(cls, store: RelationalStore, settings: Settings, cached: bool = False
             ) -> SourceBook:
        return cls(store, settings.api_key_cache_seconds if cached else 0.0,
                   settings.home / STAMP_FILE)

    def of(self, tenant: str) -> TenantSources:
        """The tenant's mapping (from the cache while it is fresh)."""
        now = time.monotonic()
        stamp = read_stamp(self._stamp)
        with self._lock:
            if stamp != self._seen:
                self._cached.clear()
                self._seen = stamp
            found = self._cached.get(tenant)
            if found is not None and found[1] > now:
                return found[0]
        try:
            loaded = self._load(tenant)
        except Exception as e:  # noqa: BLE001 - a write goes on; see the module docstring
            loaded = self._unreadable(tenant, e)
            with self._lock:  # tried again after a while, not on every write
                self._cached[tenant] = (loaded, now + max(self._seconds, OUTAGE_RETRY))
            return loaded
        with self._lock:
            self._last[tenant] = loaded
            if self._seconds > 0:
                self._cached[tenant] = (loaded, now + self._seconds)
        return loaded

    def _unreadable(self, tenant: str, error: Exception) -> TenantSources:
        if missing_table(error):
            return TenantSources()
        with self._lock:
            last = self._last.get(tenant)
        if not OUTAGES.noted(error, "reading a tenant's source mapping"):
            log.warning("cannot read tenant %s's source mapping (%s): %s", tenant,
                        "using the last one read" if last else "flagging cross-source changes",
                        error)
        return last or TenantSources(unknown=True)

    def _load(self, tenant: str) -> TenantSources:
        rows = self.rows(tenant)
        return TenantSources(
            {r.source: frozenset(r.principals) for r in rows},
            frozenset(r.source for r in rows if r.trusted),
            frozenset(r.source for r in rows if r.curated))

    def rows(self, tenant: str | None = None) -> list[SourceRow]:
        found = self.store.query(
            "SELECT tenant, source, principals, trusted, curated FROM tenant_sources"
            " WHERE (CAST(? AS TEXT) IS NULL OR tenant = ?) ORDER BY tenant, source",
            (tenant, tenant))
        return [SourceRow(str(r[0]), str(r[1]), tuple(json.loads(r[2])), bool(r[3]),
                          bool(r[4])) for r in found]

    def set(self, tenant: str, source: str, principals: tuple[str, ...] = (),
            trusted: bool = False, curated: bool = False) -> SourceRow:
        """Bind `source` to `principals` in `tenant` (replacing its earlier entry)."""
        try:
            Space(tenant=tenant)
        except ValueError as e:
            raise InvalidInput(str(e).replace("space tenant", "tenant")) from None
        row = SourceRow(tenant, check_source(source), tuple(sorted(set(principals))),
                        trusted, curated)
        with self.store.transaction() as cur:
            cur.execute("DELETE FROM tenant_sources WHERE tenant = ? AND source = ?",
                        (tenant, row.source))
            cur.execute("INSERT INTO tenant_sources (tenant, source, principals, trusted,"
                        " curated, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                        (tenant, row.source, json.dumps(list(row.principals)), int(trusted),
                         int(curated), datetime.now(UTC).isoformat()))
        self._changed()
        return row

    def remove(self, tenant: str, source: str) -> None:
        with self.store.transaction() as cur:
            cur.execute("SELECT 1 FROM tenant_sources WHERE tenant = ? AND source = ?",
                        (tenant, source))
            if cur.fetchone() is None:
                raise NotFound(f"tenant {tenant!r} has no entry for source {source!r}")
            cur.execute("DELETE FROM tenant_sources WHERE tenant = ? AND source = ?",
                        (tenant, source))
        self._changed()

    def _changed(self) -> None:
        with self._lock:
            self._cached.clear()
        if self._stamp is not None:
            touch_stamp(self._stamp)
