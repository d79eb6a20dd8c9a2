"""Every kind of tampering with the audit chain and the event log it covers, performed on a
real store (SQLite and Postgres) behind a real mirror: each is found by `verify`.

The kinds: a row modified, deleted, reordered; the tail truncated; the whole chain wiped;
the chain rolled back to an older signed head; a row moved to another tenant; an event of
the log restore replays edited. Wiping and rolling back leave a consistent-looking chain
behind: the checkpoint file and the head a receipt saw are what find them.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.lifecycle import restore
from graphmem.mirror import audit
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support.mirror_support import NO_EMBEDDER, close_runtime, open_runtime, with_store


@dataclass
class Written:
    """A chain with rows of two tenants and events, a receipt, and an older signed head."""

    runtime: Runtime
    acme: GraphMem
    globex: GraphMem
    receipt: dict[str, Any]
    old_head: tuple[Any, ...]

    def sql(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        with self.runtime.store.transaction() as cur:
            for text, params in statements:
                cur.execute(text, params)

    def problems(self, receipt: bool = False) -> list[str]:
        report = self.acme.records.verify_audit(receipt=self.receipt if receipt else None)
        return report.problems

    def row_of(self, tenant: str) -> int:
        return int(self.runtime.store.query(
            "SELECT MIN(seq) FROM audit_log WHERE tenant = ? AND v = 2", (tenant,))[0][0])


@pytest.fixture
def written(settings: Settings, graph: GraphDriver, relational_url: str) -> Iterator[Written]:
    rt = open_runtime(with_store(settings, relational_url, audit_checkpoint_rows=1,
                                 **NO_EMBEDDER), graph)
    acme = GraphMem(f"acme-{uuid.uuid4().hex[:8]}/u/a/r", runtime=rt)
    globex = GraphMem(f"globex-{uuid.uuid4().hex[:8]}/u/a/r", runtime=rt)
    acme.remember_facts([{"subject": "plan", "value": "Pro"}])
    globex.remember_facts([{"subject": "owner", "value": "Hank Scorpio"}])
    acme.active()
    rt.mirror.flush()
    old_head = audit.signed_head(rt.store)
    assert old_head is not None
    acme.remember_facts([{"subject": "plan", "value": "Enterprise"}])
    globex.history("owner")
    receipt = acme.records.attest()
    report = acme.records.verify_audit(receipt=receipt)
    assert report.ok, report.problems
    rt.mirror.flush()  # the verify's own row: nothing is queued while the test tampers
    yield Written(rt, acme, globex, receipt, old_head)
    close_runtime(rt)


def modify(w: Written) -> None:
    w.sql(("UPDATE audit_log SET outcome = 'denied' WHERE seq = ?",
           (w.row_of(w.acme.space.tenant),)))


def delete(w: Written) -> None:
    w.sql(("DELETE FROM audit_log WHERE seq = ?", (w.row_of(w.globex.space.tenant),)))


def reorder(w: Written) -> None:
    w.sql(("UPDATE audit_log SET seq = -1 WHERE seq = 2", ()),
          ("UPDATE audit_log SET seq = 2 WHERE seq = 3", ()),
          ("UPDATE audit_log SET seq = 3 WHERE seq = -1", ()))


def truncate_tail(w: Written) -> None:
    last = audit.head(w.runtime.store)[0]
    w.sql(("DELETE FROM audit_log WHERE seq > ?", (last - 2,)))


def wipe_all(w: Written) -> None:
    w.sql(("DELETE FROM audit_log", ()), ("DELETE FROM events", ()),
          ("UPDATE audit_head SET seq = 0, hash = ?, at = '', signature = '', key_id = ''",
           (audit.GENESIS,)))


def roll_back(w: Written) -> None:
    seq, hash_, at, signature, key_id = w.old_head
    last = int(w.runtime.store.query("SELECT MAX(seq) FROM events")[0][0])
    w.sql(("DELETE FROM audit_log WHERE seq > ?", (seq,)),
          ("DELETE FROM events WHERE seq > ?", (last - 1,)),
          ("UPDATE audit_head SET seq = ?, hash = ?, at = ?, signature = ?, key_id = ?",
           (seq, hash_, at, signature, key_id)))


def move_tenant(w: Written) -> None:
    w.sql(("UPDATE audit_log SET tenant = ? WHERE seq = ?",
           (w.globex.space.tenant, w.row_of(w.acme.space.tenant))),)


def edit_event(w: Written) -> None:
    other = w.runtime.store.query("SELECT payload FROM events WHERE space = ?",
                                  (w.globex.space.key,))[0][0]
    w.sql(("UPDATE events SET payload = ? WHERE event_id = (SELECT MIN(event_id) FROM events"
           " WHERE space = ?)", (other, w.acme.space.key)),)


TAMPERING: dict[str, tuple[Callable[[Written], None], str]] = {
    "modify": (modify, "its content does not match its hash"),
    "delete": (delete, "are missing (deleted)"),
    "reorder": (reorder, "row 2: its content does not match its hash"),
    "truncate tail": (truncate_tail, "were removed (truncated)"),
    "wipe all": (wipe_all, "rows were removed, or the chain was wiped or rolled back"),
    "roll back to an older head": (roll_back,
                                   "rows were removed, or the chain was wiped or rolled back"),
    "move a row to another tenant": (move_tenant, "(modified, or moved to another tenant)"),
    "edit an event": (edit_event, "differs from what the chain recorded (edited, or moved to"
                                  " another space)"),
}


@pytest.mark.parametrize("kind", list(TAMPERING))
def test_every_kind_of_tampering_is_detected(written: Written, kind: str) -> None:
    tamper, expected = TAMPERING[kind]
    tamper(written)
    problems = written.problems()
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize("kind", ["wipe all", "roll back to an older head"])
def test_a_receipt_alone_finds_a_wiped_or_rolled_back_chain(written: Written,
                                                            kind: str) -> None:
    """Without the checkpoint file (lost with the host, say), the head a receipt saw still
    finds what leaves the chain consistent in itself."""
    TAMPERING[kind][0](written)
    written.runtime.mirror.checkpoints.path.unlink()
    assert written.problems() == [], "nothing inside the database tells"
    problems = written.problems(receipt=True)
    assert len(problems) == 1 and problems[0].startswith(
        f"the chain no longer holds the head receipt {written.receipt['receipt']['id']}")


def test_restore_refuses_an_event_copied_from_another_space(written: Written) -> None:
    edit_event(written)
    with pytest.raises(restore.TamperedLog, match="was not written there"):
        for _ in restore.events(written.runtime, [written.acme.space.key]):
            pass


def test_the_checkpoint_file_holds_signed_heads_of_this_store(written: Written) -> None:
    lines = written.runtime.mirror.checkpoints.path.read_text().splitlines()
    assert lines, "a head was written at least every GRAPHMEM_AUDIT_CHECKPOINT_ROWS rows"
    with written.runtime.mirror.checkpoints.path.open("a") as handle:
        handle.write(lines[-1].replace('"seq":', '"seq":1', 1) + "\n")  # a forged line
    assert any("is not signed by a trusted key (forged or edited)" in p
               for p in written.problems())


def test_a_database_replaced_under_the_checkpoint_file_is_reported(written: Written) -> None:
    """Wiping everything, the store's identity included: the file's heads name the old one."""
    wipe_all(written)
    written.sql(("UPDATE mirror_meta SET store_id = 'a-new-store'", ()))
    written.runtime.mirror._claims._store_id = None  # this process reads it again
    problems = written.problems()
    assert any("the database was replaced or wiped" in p for p in problems), problems
