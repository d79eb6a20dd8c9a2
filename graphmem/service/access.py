"""Who may call: API keys and the sources principals speak as, opened for the transports
(which check a key on every request) and for an operator's commands (which issue, list and
revoke keys and bind sources)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, TypeVar

from graphmem.auth.keys import KeyStore
from graphmem.auth.sources import SourceBook
from graphmem.mirror.db import RelationalStore
from graphmem.model.principals import Authenticator
from graphmem.settings import Settings

if TYPE_CHECKING:  # a key command opens only the relational store
    from graphmem.runtime import Runtime

T = TypeVar("T")


def authenticator(runtime: Runtime) -> Authenticator:
    """The key store a server checks callers against, with the short-lived verified cache."""
    return KeyStore.open(runtime.store, runtime.settings, cached=True)


def key_store(settings: Settings) -> AbstractContextManager[KeyStore]:
    """The keys for an operator's command; a revocation rewrites this host's stamp, so this
    host's servers refuse the key from their next request on."""
    return _over_store(settings, KeyStore.open)


def source_book(settings: Settings) -> AbstractContextManager[SourceBook]:
    """The tenants' sources for an operator's command; a change rewrites this host's stamp."""
    return _over_store(settings, SourceBook.open)


@contextmanager
def _over_store(settings: Settings,
                open_: Callable[[RelationalStore, Settings], T]) -> Iterator[T]:
    """What `open_` builds over the relational store, which closes with the block."""
    store = RelationalStore(settings.relational_url)
    try:
        yield open_(store, settings)
    finally:
        store.close()
