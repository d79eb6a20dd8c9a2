"""Who may call: API keys and the sources principals speak as, opened for the transports
(which check a key on every request) and for an operator's commands (which issue, list and
revoke keys and bind sources)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from graphmem.auth.keys import KeyStore
from graphmem.auth.sources import SourceBook
from graphmem.mirror.db import RelationalStore
from graphmem.model.principals import Authenticator
from graphmem.runtime import Runtime
from graphmem.settings import Settings


def authenticator(runtime: Runtime) -> Authenticator:
    """The key store a server checks callers against, with the short-lived verified cache."""
    return KeyStore.open(runtime.store, runtime.settings, cached=True)


@contextmanager
def key_store(settings: Settings) -> Iterator[KeyStore]:
    """The keys for an operator's command; a revocation rewrites this host's stamp, so this
    host's servers refuse the key from their next request on."""
    store = RelationalStore(settings.relational_url)
    try:
        yield KeyStore.open(store, settings)
    finally:
        store.close()


@contextmanager
def source_book(settings: Settings) -> Iterator[SourceBook]:
    """The tenants' sources for an operator's command; a change rewrites this host's stamp."""
    store = RelationalStore(settings.relational_url)
    try:
        yield SourceBook.open(store, settings)
    finally:
        store.close()
