"""GRAPHMEM_KEY on a real store (SQLite and Postgres): the public key a deployment publishes
does not fall to a dictionary computed once for every deployment, short passphrases are
refused, and a deployment that signed with the former derivation keeps verifying."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from pydantic import SecretStr

from graphmem import GraphMem
from graphmem.errors import ConfigError
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import audit, keys
from graphmem.mirror.audit import AuditEntry
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation
from support.mirror_support import NO_EMBEDDER, close_runtime, open_runtime, with_store

PASSPHRASE = "correct horse battery staple"
# what an attacker tries against every deployment's public key at once
DICTIONARY = ["password1234567890", "graphmem-signing-key", PASSPHRASE, "letmeinletmeinletmein"]


@pytest.fixture
def keyed(settings: Settings, graph: GraphDriver, relational_url: str,
          tmp_path: Path) -> Iterator[Runtime]:
    own = with_store(settings, relational_url, home=tmp_path / "home",
                     key=SecretStr(PASSPHRASE), **NO_EMBEDDER)
    runtime = open_runtime(own, graph)
    yield runtime
    close_runtime(runtime)


def mem(runtime: Runtime) -> GraphMem:
    return GraphMem(isolation.space(), runtime=runtime)


def fixed_salt_guess(passphrase: str) -> str:
    """The key id a passphrase gave with the former derivation (HKDF, one fixed salt)."""
    seed = keys.legacy_seed(passphrase)
    return keys.key_id(Ed25519PrivateKey.from_private_bytes(seed).public_key())


def test_the_published_key_does_not_fall_to_a_precomputed_dictionary(keyed: Runtime) -> None:
    published = keys.load_public_key(mem(keyed).records.export_public_key())
    table = {fixed_salt_guess(p): p for p in DICTIONARY}  # computed once, for everybody
    assert keys.key_id(published) not in table
    # the same passphrase under another deployment's salt is another key
    elsewhere = keyed.settings.model_copy(update={"key_salt": "ab" * 16})
    assert keys.signer(elsewhere).key_id != keys.key_id(published)
    salt = (keyed.settings.home / "keys" / keys.SALT_FILE)
    assert salt.stat().st_mode & 0o077 == 0


def test_a_short_passphrase_is_refused(settings: Settings, graph: GraphDriver,
                                       relational_url: str, tmp_path: Path) -> None:
    weak = with_store(settings, relational_url, home=tmp_path / "home",
                      key=SecretStr("fifteen chars!!"), **NO_EMBEDDER)
    runtime = open_runtime(weak, graph)
    try:
        with pytest.raises(ConfigError, match="GRAPHMEM_KEY is too short: use at least 16"):
            mem(runtime).records.export_public_key()
    finally:
        close_runtime(runtime)


def test_rows_signed_with_the_former_derivation_keep_verifying(keyed: Runtime) -> None:
    former = keys.Signer(Ed25519PrivateKey.from_private_bytes(keys.legacy_seed(PASSPHRASE)))
    keys.register(keyed.store, former)  # what the earlier release registered and signed
    audit.append(keyed.store, former, [AuditEntry("t-old/u/a/r", "alice", "remember_facts",
                                                  "ok", {"count": 1})])
    m = mem(keyed)
    m.remember_facts([{"subject": "plan", "value": "Pro"}])
    report = keyed.mirror.verify(deep=True)
    assert report.ok, report.problems
    current = keyed.mirror.signer
    assert current.key_id != former.key_id
    assert set(keyed.mirror.trusted()) == {current.key_id, former.key_id}
    ring = keyed.store.query("SELECT key_id, retired_at IS NOT NULL, endorsed_by"
                             " FROM signing_keys")
    assert (former.key_id, True, current.key_id) in [tuple(r) for r in ring]


def test_a_ring_key_the_passphrase_never_gave_is_not_adopted(keyed: Runtime,
                                                             tmp_path: Path) -> None:
    stranger = keys.signer(keyed.settings.model_copy(update={"key": None,
                                                            "home": tmp_path / "x"}))
    keys.register(keyed.store, stranger)
    audit.append(keyed.store, stranger, [AuditEntry("t-x/u/a/r", "mallory", "op", "ok", {})])
    report = keyed.mirror.verify(deep=True)
    assert not report.ok
    assert stranger.key_id not in keyed.mirror.trusted()
