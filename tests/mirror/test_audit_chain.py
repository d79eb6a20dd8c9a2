"""The audit chain on a real store (SQLite and Postgres): append, verify, and every kind of
tampering it must catch."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from graphmem.mirror import audit, keys
from graphmem.mirror.audit import AuditEntry
from graphmem.mirror.db import RelationalStore
from graphmem.settings import Settings, load_settings


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
           ) -> audit.ChainReport:
    keys.register(store, signer)
    return audit.verify_chain(store, keys.trusted_keys(store, signer.public), deep=deep)


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
    assert report.problems == ["row 3: its content does not match its hash (modified)"]


def test_a_modified_row_with_a_recomputed_hash_is_found(relational_store: RelationalStore,
                                                        signer: keys.Signer) -> None:
    fill(relational_store, signer)
    row = next(r for r in audit.rows(relational_store) if r.seq == 3)
    forged = audit.chain_hash(row.prev_hash, audit.canonical(
        row.at, row.space, "mallory", row.operation, row.outcome, row.detail))
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
    assert report.problems[:2] == [
        "row 2: it does not follow row 1 (rows reordered, or one replaced)",
        "row 3: it does not follow row 2 (rows reordered, or one replaced)",
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


def test_tenant_sits_outside_the_hash_and_confines_listings(
        relational_store: RelationalStore, signer: keys.Signer) -> None:
    fill(relational_store, signer)
    acme = audit.listing(relational_store, "acme")
    assert [r.seq for r in acme] == [6, 4, 2]
    assert {r.tenant for r in acme} == {"acme"}
    assert [r.seq for r in audit.listing(relational_store, None, limit=2)] == [6, 5]
    assert [r.seq for r in audit.listing(relational_store, "acme", before=4)] == [2]


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
    report = audit.verify_chain(relational_store, trusted, deep=True)
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
