"""API keys in the relational store (SQLite and Postgres): stored as digests, shown once,
revocable; principals carry tenant, role and allowed spaces."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from graphmem.auth import KeyStore
from graphmem.auth.pepper import PEPPER_FILE, load_pepper
from graphmem.errors import ConfigError, InvalidInput, NotFound, SchemaOutdated, Unauthenticated
from graphmem.mirror.db import RelationalStore
from graphmem.settings import load_settings

PEPPER = b"p" * 40


def test_a_key_authenticates_as_its_principal(relational_store: RelationalStore) -> None:
    keys = KeyStore(relational_store, PEPPER)
    issued = keys.create("acme", "approver", ("alice", "bob/bot"), name="review-bot")
    assert issued.token.startswith("gm_sk_" + issued.key_id + "_")
    principal = keys.authenticate(issued.token)
    assert (principal.name, principal.tenant, principal.role, principal.spaces) == (
        "review-bot", "acme", "approver", ("alice", "bob/bot"))
    assert principal.capabilities == {"read", "write", "approve"}
    assert principal.key_id == issued.key_id


def test_only_a_digest_is_stored(relational_store: RelationalStore) -> None:
    keys = KeyStore(relational_store, PEPPER)
    issued = keys.create("acme", "reader")
    secret = issued.token.split("_", 3)[3]  # gm_sk_<id>_<secret>; the secret may hold "_"
    rows = relational_store.query("SELECT id, principal_id, digest, created_at FROM api_keys")
    stored = " ".join(str(v) for row in rows for v in row)
    assert secret not in stored and issued.token not in stored
    assert keys.digest(issued.token) in stored


def test_another_pepper_verifies_nothing(relational_store: RelationalStore) -> None:
    issued = KeyStore(relational_store, PEPPER).create("acme", "reader")
    with pytest.raises(Unauthenticated, match="unknown or revoked"):
        KeyStore(relational_store, b"q" * 40).authenticate(issued.token)


@pytest.mark.parametrize("token", ["", "gm_sk_", "sk_live_x", "gm_sk_0123456789ab_short",
                                   "gm_sk_0123456789ab_" + "A" * 43, "x" * 10_000])
def test_malformed_and_unknown_keys_are_unauthenticated(relational_store: RelationalStore,
                                                        token: str) -> None:
    with pytest.raises(Unauthenticated):
        KeyStore(relational_store, PEPPER).authenticate(token)


def test_revoking_a_key_stops_it(relational_store: RelationalStore) -> None:
    keys = KeyStore(relational_store, PEPPER)
    first = keys.create("acme", "writer", name="ingest")
    second = keys.create("acme", "writer", name="ingest")  # rotation: same principal
    assert first.principal.id == second.principal.id
    info = keys.revoke(first.key_id)
    assert info.revoked_at is not None
    with pytest.raises(Unauthenticated) as revoked:
        keys.authenticate(first.token)
    with pytest.raises(Unauthenticated) as unknown:
        keys.authenticate("gm_sk_0123456789ab_" + "A" * 43)
    assert str(revoked.value) == str(unknown.value)  # a revoked key looks like an unknown one
    assert keys.authenticate(second.token).name == "ingest"
    with pytest.raises(NotFound):
        keys.revoke("nosuchkey")


def test_listing_never_shows_a_secret(relational_store: RelationalStore) -> None:
    keys = KeyStore(relational_store, PEPPER)
    a = keys.create("acme", "reader")
    keys.create("other", "admin")
    listed = keys.keys("acme")
    assert [k.key_id for k in listed] == [a.key_id]
    assert a.token not in repr(listed)
    assert {k.principal.tenant for k in keys.keys()} == {"acme", "other"}


@pytest.mark.parametrize("tenant,role,spaces,name", [
    ("acme", "superuser", None, None),
    ("ac me", "reader", None, None),
    ("acme", "reader", ("a/b/c/d",), None),
    ("acme", "reader", ("al ice",), None),
    ("acme", "reader", None, "bad name"),
])
def test_invalid_keys_are_refused(relational_store: RelationalStore, tenant: str, role: str,
                                  spaces: tuple[str, ...] | None, name: str | None) -> None:
    with pytest.raises(InvalidInput):
        KeyStore(relational_store, PEPPER).create(tenant, role, spaces, name)


def test_a_principal_cannot_silently_change_role(relational_store: RelationalStore) -> None:
    keys = KeyStore(relational_store, PEPPER)
    keys.create("acme", "reader", name="bot")
    with pytest.raises(InvalidInput, match="exists with role 'reader'"):
        keys.create("acme", "admin", name="bot")


def test_missing_tables_say_to_migrate(tmp_path: Path) -> None:
    store = RelationalStore(f"sqlite:///{tmp_path / 'empty.db'}")
    try:
        with pytest.raises(SchemaOutdated, match="graphmem migrate up"):
            KeyStore(store, PEPPER).keys()
    finally:
        store.close()


def test_the_pepper_is_generated_once_and_kept(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path)
    first = load_pepper(settings)
    assert load_pepper(settings) == first and len(first) >= 32
    assert (tmp_path / PEPPER_FILE).stat().st_mode & 0o777 == 0o600
    explicit = load_settings(home=tmp_path, api_key_pepper=SecretStr("z" * 40))
    assert load_pepper(explicit) == b"z" * 40
    (tmp_path / PEPPER_FILE).write_text("short")
    with pytest.raises(ConfigError, match="too short"):
        load_pepper(settings)
