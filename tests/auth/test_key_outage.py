"""While the relational store that holds the keys cannot be reached, a server goes on
accepting the keys it verified lately (GRAPHMEM_API_KEY_OUTAGE_SECONDS) and refuses any other
with a retryable UNAVAILABLE, never with a 401 that would tell a client its key is wrong."""

from __future__ import annotations

import pytest

from graphmem.auth import KeyStore
from graphmem.errors import StoreUnavailable
from graphmem.mirror import migrations
from graphmem.mirror.db import RelationalStore

from support.tcp_proxy import tcp_proxy

pytestmark = [pytest.mark.postgres, pytest.mark.races]
PEPPER = b"p" * 32


def test_a_key_verified_before_the_store_went_away_still_works(pg_schema_url: str) -> None:
    with tcp_proxy("127.0.0.1", 5432) as proxy:
        url = pg_schema_url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        store = RelationalStore(url)
        migrations.up(store)
        keys = KeyStore(store, PEPPER, cache_seconds=0.0, outage_seconds=900.0)
        known = keys.create("acme", "writer")
        other = keys.create("acme", "reader")
        assert keys.authenticate(known.token).key_id == known.key_id
        proxy.cut()
        try:
            assert keys.authenticate(known.token).key_id == known.key_id
            with pytest.raises(StoreUnavailable):
                keys.authenticate(other.token)
            strict = KeyStore(store, PEPPER, cache_seconds=0.0, outage_seconds=0.0)
            with pytest.raises(StoreUnavailable):
                strict.authenticate(known.token)
        finally:
            proxy.restore()
            store.close()
