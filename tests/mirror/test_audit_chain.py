"""The audit chain on a real store (SQLite and Postgres): append, verify, and every kind of
tampering it must catch."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from graphmem.mirror import audit, keys
from graphmem.mirror.audit import AuditEntry
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.verify import verify as verify_chain
from graphmem.model.audit import ChainReport
from graphmem.settings import Settings, load_settings

pytestmark = pytest.mark.races


@pytest.fixture
def key_settings(tmp_path: Path) -> Settings:
    return load_settings(home=tmp_path / "home")


@pytest.fixture
def signer(key_settings: Settings) -> keys.Signer:
    return keys.signer(key_settings)


def fill(store: RelationalStore, signer: keys.Signer, n: int = 6) -> None:
    for i in range(n):
        tenant = "acme" if i % 2 else "globex"
        audit.append(store, signer, [AuditEntry(f"{tenant}/u/a/r", "alice", f"op{i}", "ok",
                                                {"count": i})])


def verify(store: RelationalStore, signer: keys.Signer, deep: bool = False
           ) -> ChainReport:
    keys.register(store, signer)
    return verify_chain(store, keys.trusted_keys(store, signer.public), deep=deep)


def test_an_untouched_chain_verifies(relational_store: RelationalStore,
                                     signer: keys.Signer) -> None:
    fill(relational_store, signer)
    for deep in (False, True):
        report = verify(relational_store, signer, deep)
        assert report.ok, report.problems
        assert (report.rows, report.head_seq) == (6, 6)


def test_an_empty_chain_verifies(relational_store: RelationalStore, signer: keys.Signer) -> None:
    assert verify(relational_store, signer).ok


def test_a_modified_row_is_found(relational_store: RelationalStore, signer: keys.Signer) -> None:
    fill(relational_store, signer)
    with relational_store.transaction() as cur:
        cur.execute("UPDATE audit_log SET outcome = 'denied' WHERE seq = 3")
    report = verify(relational_store, signer)
    assert not report.ok
    assert report.problems == ["row 3: its content does not match its hash (modified, or moved"
                               " to another tenant)"]


def test_a_modified_row_with_a_recomputed_hash_is_found(relational_store: RelationalStore,
                                                        signer: keys.Signer) -> None:
    fill(relational_store, signer)
    row = next(r for r in audit.rows(relational_store) if r.seq == 3)
    forged = audit.chain_hash(row.prev_hash, audit.canonical(
        row.seq, row.at, row.tenant, row.space, "mallory", row.operation, row.outcome,
        row.detail))
    with relational_store.transaction() as cur:
        cur.execute("UPDATE audit_log SET caller = 'mallory', hash = ? WHERE seq = 3", (forged,))
    report = verify(relational_store, signer)
    assert "row 4: it does not follow row 3 (rows reordered, or one replaced)" in report.problems
    deep = verify(relational_store, signer, deep=True)
    assert "row 3: its signature does not verify" in deep.problems


def test_a_deleted_row_is_found(relational_store: RelationalStore, signer: keys.Signer) -> None:
    fill(relational_store, signer)
    with relational_store.transaction() as cur:
        cur.execute("DELETE FROM audit_log WHERE seq = 4")
    report = verify(relational_store, signer)
    assert report.problems == ["rows 4..4 are missing (deleted)"]


def test_a_reordered_pair_is_found(relational_store: RelationalStore, signer: keys.Signer) -> None:
    fill(relational_store, signer)
    with relational_store.transaction() as cur:
        cur.execute("UPDATE audit_log SET seq = -1 WHERE seq = 2")
        cur.execute("UPDATE audit_log SET seq = 2 WHERE seq = 3")
        cur.execute("UPDATE audit_log SET seq = 3 WHERE seq = -1")
    report = verify(relational_store, signer)
    assert report.problems[:2] == [  # a row's position is part of its hash
        "row 2: its content does not match its hash (modified, or moved to another tenant)",
        "row 3: its content does not match its hash (modified, or moved to another tenant)",
    ]


def test_a_truncated_tail_is_found(relational_store: RelationalStore, signer: keys.Signer) -> None:
    fill(relational_store, signer)
    with relational_store.transaction() as cur:
        cur.execute("DELETE FROM audit_log WHERE seq > 4")
    report = verify(relational_store, signer)
    assert report.problems == ["the log ends at row 4 but the signed head is at row 6: rows"
                               " 5..6 were removed (truncated)"]


def test_truncation_with_a_rewritten_head_is_found(relational_store: RelationalStore,
                                                   signer: keys.Signer,
                                                   tmp_path: Path) -> None:
    fill(relational_store, signer)
    last = next(r for r in audit.rows(relational_store) if r.seq == 4)
    forger = keys.signer(load_settings(home=tmp_path / "mallory"))
    at = "2030-01-01T00:00:00+00:00"
    with relational_store.transaction() as cur:
        cur.execute("DELETE FROM audit_log WHERE seq > 4")
        cur.execute("UPDATE audit_head SET seq = 4, hash = ?, at = ?, signature = ?,"
                    " key_id = ?", (last.hash, at, forger.sign(audit.head_message(4, last.hash,
                                                                                   at)),
                                    forger.key_id))
    report = verify(relational_store, signer)
    assert report.problems == [f"the head checkpoint is signed by key {forger.key_id}, which is"
                               " not trusted (rotate keys with `graphmem audit rotate-key`,"
                               " never by hand)"]
    with relational_store.transaction() as cur:  # the old key id, a forged signature
        cur.execute("UPDATE audit_head SET key_id = ?", (signer.key_id,))
    assert verify(relational_store, signer).problems == [
        "the head checkpoint's signature does not verify"]


def test_rows_after_the_head_are_found(relational_store: RelationalStore,
                                       signer: keys.Signer) -> None:
    fill(relational_store, signer)
    with relational_store.transaction() as cur:
        cur.execute("UPDATE audit_head SET seq = 5")
    report = verify(relational_store, signer)
    assert "rows 6..6 come after the signed head (appended without the key)" in report.problems


def test_tenant_is_inside_the_hash_and_confines_listings(
        relational_store: RelationalStore, signer: keys.Signer) -> None:
    fill(relational_store, signer)
    acme = audit.listing(relational_store, "acme")
    assert [r.seq for r in acme] == [6, 4, 2]
    assert {r.tenant for r in acme} == {"acme"}
    assert [r.seq for r in audit.listing(relational_store, None, limit=2)] == [6, 5]
    assert [r.seq for r in audit.listing(relational_store, "acme", before=4)] == [2]
    with relational_store.transaction() as cur:
        cur.execute("UPDATE audit_log SET tenant = 'globex' WHERE seq = 4")
    assert verify(relational_store, signer).problems == [
        "row 4: its content does not match its hash (modified, or moved to another tenant)"]


def test_concurrent_appenders_keep_one_chain(relational_store: RelationalStore,
                                             signer: keys.Signer) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(20):
                audit.append(relational_store, signer,
                             [AuditEntry(f"t{n}/u/a/r", f"w{n}", "op", "ok", {"i": i})])
        except BaseException as e:  # noqa: BLE001 - collected for the assertion below
            errors.append(e)
        finally:
            relational_store.close()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    report = verify(relational_store, signer, deep=True)
    assert report.ok, report.problems
    assert report.rows == 80


def test_rotation_keeps_old_rows_verifiable(relational_store: RelationalStore,
                                            key_settings: Settings) -> None:
    old = keys.signer(key_settings)
    keys.register(relational_store, old)
    fill(relational_store, old, 3)
    new = keys.new_seed_file(key_settings)
    keys.rotate(relational_store, old, new)
    audit.resign_head(relational_store, new)
    fill(relational_store, new, 3)
    assert keys.signer(key_settings).key_id == new.key_id, "the key file holds the new seed"
    trusted = keys.trusted_keys(relational_store, new.public)
    assert set(trusted) == {old.key_id, new.key_id}
    report = verify_chain(relational_store, trusted, deep=True)
    assert report.ok, report.problems
    keys_rows = relational_store.query(
        "SELECT key_id, retired_at IS NOT NULL, endorsed_by FROM signing_keys ORDER BY key_id")
    assert sorted(keys_rows) == sorted([(old.key_id, True, new.key_id),
                                        (new.key_id, False, None)])


def test_a_ring_key_without_endorsement_is_not_trusted(relational_store: RelationalStore,
                                                       key_settings: Settings,
                                                       tmp_path: Path) -> None:
    current = keys.signer(key_settings)
    intruder = keys.signer(load_settings(home=tmp_path / "intruder"))
    keys.register(relational_store, current)
    keys.register(relational_store, intruder)
    with relational_store.transaction() as cur:
        cur.execute("UPDATE signing_keys SET endorsed_by = ?, endorsement = ? WHERE key_id = ?",
                    (current.key_id, intruder.sign(b"not an endorsement"), intruder.key_id))
    assert set(keys.trusted_keys(relational_store, current.public)) == {current.key_id}


# ---- a chain written before rows hashed their tenant: the upgrade seals it ----------------
def legacy_chain(url: str, signer: keys.Signer, settings: Settings,
                 monkeypatch: pytest.MonkeyPatch) -> RelationalStore:
    """A store at migration 3 with rows hashed the old way and two events sealed the old
    way, then migrated to the current version."""
    from cryptography.fernet import Fernet

    from graphmem.mirror import migrations

    store = RelationalStore(url)
    with monkeypatch.context() as patched:
        patched.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:3])
        migrations.up(store)
    fernet = Fernet(keys.data_keys(settings).fernet)
    prev = audit.GENESIS
    with store.transaction() as cur:
        for seq in range(1, 5):
            tenant = "acme" if seq % 2 else "globex"
            at, space = f"2026-01-0{seq}T00:00:00+00:00", f"{tenant}/u/a/r"
            digest = audit.chain_hash(prev, audit.canonical_v1(at, space, "alice", "op", "ok",
                                                               "{}"))
            cur.execute("INSERT INTO audit_log (seq, at, tenant, space, caller, operation,"
                        " outcome, detail, prev_hash, hash, signature, key_id)"
                        " VALUES (?, ?, ?, ?, 'alice', 'op', 'ok', '{}', ?, ?, ?, ?)",
                        (seq, at, tenant, space, prev, digest,
                         signer.sign(bytes.fromhex(digest)), signer.key_id))
            prev = digest
        at = "2026-01-05T00:00:00+00:00"
        cur.execute("UPDATE audit_head SET seq = 4, hash = ?, at = ?, signature = ?,"
                    " key_id = ?", (prev, at, signer.sign(audit.head_message(4, prev, at)),
                                    signer.key_id))
        for n in (1, 2):
            cur.execute("INSERT INTO events (event_id, space, kind, payload, created_at,"
                        " applied_at) VALUES (?, 'acme/u/a/r', 'remember', ?, ?, ?)",
                        (f"e{n}", "f1:" + fernet.encrypt(b'{"facts": []}').decode(), at, at))
    migrations.up(store)
    return store


def test_an_old_chain_still_verifies_and_is_sealed_by_the_next_append(
        relational_url: str, signer: keys.Signer, key_settings: Settings,
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = legacy_chain(relational_url, signer, key_settings, monkeypatch)
    try:
        assert verify(store, signer, deep=True).ok, "rows written before still verify"
        audit.append(store, signer, [AuditEntry("acme/u/a/r", "bob", "active", "ok")])
        found = list(audit.rows(store))
        assert [r.v for r in found] == [1, 1, 1, 1, 2, 2, 2]
        assert [r.operation for r in found[4:]] == ["audit_seal", "audit_seal", "active"]
        report = verify(store, signer, deep=True)
        assert report.ok and report.rows == 7, report.problems
        with store.transaction() as cur:  # an old row moved to another tenant
            cur.execute("UPDATE audit_log SET tenant = 'globex' WHERE seq = 1")
        assert verify(store, signer).problems == [
            "the 4 rows written before the upgrade do not match their seal (row 5): one was"
            " moved to another tenant, or rows were added or removed there"]
        with store.transaction() as cur:
            cur.execute("UPDATE audit_log SET tenant = 'acme' WHERE seq = 1")
            cur.execute("UPDATE events SET space = 'globex/u/a/r' WHERE event_id = 'e2'")
        assert verify(store, signer).problems == [
            "event e2 (audit row 6) differs from what the chain recorded (edited, or moved to"
            " another space)"]
    finally:
        store.close()


def test_a_row_written_the_old_way_after_the_upgrade_is_found(
        relational_store: RelationalStore, signer: keys.Signer) -> None:
    fill(relational_store, signer, 3)
    row = next(r for r in audit.rows(relational_store) if r.seq == 2)
    old = audit.chain_hash(row.prev_hash, audit.canonical_v1(row.at, row.space, row.caller,
                                                             row.operation, row.outcome,
                                                             row.detail))
    with relational_store.transaction() as cur:
        cur.execute("UPDATE audit_log SET v = 1, hash = ? WHERE seq = 2", (old,))
    problems = verify(relational_store, signer).problems
    assert "row 2: an old-format row after the upgrade (downgraded)" in problems
