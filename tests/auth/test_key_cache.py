"""Verified keys are kept briefly; a revocation stamp on the host empties every cache."""

from __future__ import annotations

from pathlib import Path

from graphmem.auth.cache import VerifiedKeys, touch_stamp
from graphmem.model.principals import Principal

ALICE = Principal("p1", "alice", "acme", "reader")
BOB = Principal("p2", "bob", "acme", "writer")


def test_a_verified_key_is_kept_for_its_period_only(tmp_path: Path) -> None:
    cache = VerifiedKeys(5.0, tmp_path / "stamp")
    cache.put("d1", ALICE, cache.stamp_now(), now=100.0)
    assert cache.get("d1", now=104.9) == ALICE
    assert cache.get("d1", now=105.0) is None
    assert cache.get("d2", now=101.0) is None


def test_a_new_revocation_stamp_forgets_every_key(tmp_path: Path) -> None:
    stamp = tmp_path / "stamp"
    cache = VerifiedKeys(60.0, stamp)
    cache.put("d1", ALICE, cache.stamp_now(), now=0.0)
    touch_stamp(stamp)  # `graphmem keys revoke` on this host, or another server's revoke
    assert cache.get("d1", now=1.0) is None
    cache.put("d1", ALICE, cache.stamp_now(), now=1.0)
    assert cache.get("d1", now=2.0) == ALICE


def test_a_lookup_that_raced_a_revocation_is_not_trusted(tmp_path: Path) -> None:
    stamp = tmp_path / "stamp"
    cache = VerifiedKeys(60.0, stamp)
    before = cache.stamp_now()  # read before the database lookup...
    touch_stamp(stamp)  # ...a revocation lands in between...
    cache.put("d1", ALICE, before, now=0.0)  # ...and the lookup's answer is kept
    assert cache.get("d1", now=1.0) is None


def test_no_period_means_no_cache(tmp_path: Path) -> None:
    cache = VerifiedKeys(0.0, tmp_path / "stamp")
    cache.put("d1", ALICE, None, now=0.0)
    assert cache.get("d1", now=0.0) is None


def test_the_cache_is_bounded(tmp_path: Path) -> None:
    cache = VerifiedKeys(60.0, None, max_entries=2)
    for i, who in enumerate((ALICE, BOB, ALICE)):
        cache.put(f"d{i}", who, None, now=0.0)
    assert len([d for d in ("d0", "d1", "d2") if cache.get(d, now=1.0)]) <= 2
    assert cache.get("d2", now=1.0) == ALICE


def test_a_key_verified_lately_works_while_the_store_is_down(tmp_path: Path) -> None:
    cache = VerifiedKeys(5.0, tmp_path / "stamp", outage_seconds=900.0)
    cache.put("d1", ALICE, cache.stamp_now(), now=100.0)
    assert cache.get("d1", now=200.0) is None, "past the cache period a lookup is due"
    assert cache.during_outage("d1", now=200.0) == ALICE, "but an outage lets it through"
    assert cache.during_outage("d1", now=1_000.0) is None, "not past the outage grace"
    assert cache.during_outage("d2", now=101.0) is None, "a key never verified never is"


def test_a_revocation_stamp_ends_the_outage_grace_too(tmp_path: Path) -> None:
    stamp = tmp_path / "stamp"
    cache = VerifiedKeys(5.0, stamp, outage_seconds=900.0)
    cache.put("d1", ALICE, cache.stamp_now(), now=0.0)
    touch_stamp(stamp)
    assert cache.during_outage("d1", now=1.0) is None


def test_no_outage_grace_when_it_is_zero(tmp_path: Path) -> None:
    cache = VerifiedKeys(5.0, tmp_path / "stamp", outage_seconds=0.0)
    cache.put("d1", ALICE, cache.stamp_now(), now=0.0)
    assert cache.during_outage("d1", now=1.0) is None
