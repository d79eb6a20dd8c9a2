"""Three graphmem hosts behind nginx, over one Neo4j and one Postgres, sharing nothing else:
writes stream in through the balancer with the real model, one host is SIGKILLed mid-load and
started again, and then every acknowledged write is there once, one value per slot, the
mirror equals the graph, the audit chain verifies from every host's home, every fact has its
vector, a subscription on one host hears a write made through another, and a key revoked
through one host is refused by all of them within GRAPHMEM_API_KEY_CACHE_SECONDS."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from graphmem.auth import KeyStore
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.settings import Settings

from support import isolation, loopback
from support.fleet import Fleet, Host
from support.live_events import Socket
from support.load import WRITE, Writer, assert_every_acknowledged_write_once, gql, pending, rows
from support.mirror_support import wait_for

pytestmark = [pytest.mark.races, pytest.mark.postgres, pytest.mark.slow]

CURSOR = "query($s: String!) { changeCursor(space: $s) }"
FACT_CHANGED = ("subscription($s: String!, $after: String) { factChanged(space: $s,"
                " after: $after) { subject value } }")
LOAD_SECONDS = 12.0
CACHE_SECONDS = 5.0  # GRAPHMEM_API_KEY_CACHE_SECONDS, the hosts' default
LEASE = 2  # GRAPHMEM_OUTBOX_LEASE_SECONDS


def unembedded(graph: GraphDriver, tenant: str) -> int:
    return int(rows(graph, "MATCH (f:Fact) WHERE f.space STARTS WITH $t AND f.search_text IS"
                           " NOT NULL AND NOT EXISTS { MATCH (:FactVector {fact_id: f.id}) }"
                           " RETURN count(f) AS n", t=tenant + "/")[0]["n"])


@pytest.fixture
def fleet(settings: Settings, pg_schema_url: str, tmp_path: Path) -> Iterator[Fleet]:
    store = RelationalStore(pg_schema_url)
    store_migrations.up(store)
    store.close()
    made = Fleet(tmp_path, settings, pg_schema_url, count=3, extra={
        "GRAPHMEM_OUTBOX_LEASE_SECONDS": str(LEASE), "GRAPHMEM_MIRROR_INTERVAL": "0.5",
        "GRAPHMEM_EMBED_SWEEP_SECONDS": "3", "GRAPHMEM_RATE_PER_MIN": "1000000",
        "GRAPHMEM_API_MODEL_CALLS_PER_MIN": "1000000"})
    try:
        made.start()
        yield made
    finally:
        made.close()


def test_three_hosts_behind_nginx_lose_nothing_when_one_is_killed_mid_load(
        fleet: Fleet, graph: GraphDriver, pg_schema_url: str) -> None:
    tenant = isolation.tenant()
    store = RelationalStore(pg_schema_url)
    keys = KeyStore(store, fleet.secrets["GRAPHMEM_API_KEY_PEPPER"].encode())
    token = keys.create(tenant, "writer").token
    doomed = keys.create(tenant, "writer")
    store.close()
    host_a, host_b, host_c = fleet.hosts

    # ---- streamed writes through the balancer; host B dies mid-load and comes back ----
    stop = threading.Event()
    writers = [Writer(fleet.base, token, "shared/a/r" if n < 2 else f"own{n}/a/r", n < 2, stop,
                      f"w{n}") for n in range(4)]
    for w in writers:
        w.start()
    time.sleep(LOAD_SECONDS / 3)
    host_b.kill()
    # while B is down, what it left unapplied is taken by A's or C's sweep once its lease is
    # over (2 s), as their own writes keep coming
    wait_for(lambda: pending(graph, tenant, older_than=LEASE + 3) == 0, timeout=60)
    host_b.start()
    host_b.wait_ready()
    time.sleep(LOAD_SECONDS / 3)
    stop.set()
    for w in writers:
        w.join(120)
    acknowledged = [a for w in writers for a in w.acknowledged]
    assert len(acknowledged) > 50, [w.failed for w in writers]

    # ---- the stores: every acknowledged write once, one value per slot ----
    wait_for(lambda: pending(graph, tenant) == 0, timeout=60)
    assert_every_acknowledged_write_once(graph, tenant, acknowledged)
    for space in {f"{tenant}/{a[0]}" for a in acknowledged}:
        check = host_c.cli("mirror", "check", "--space", space)
        assert check.returncode == 0, check.stdout + check.stderr

    # ---- every fact gets its vector, the killed host's last ones included ----
    wait_for(lambda: unembedded(graph, tenant) == 0, timeout=120)

    # ---- a subscription on host A hears a write made through host C ----
    space = "shared/a/r"
    after = gql(host_a.base, token, CURSOR, {"s": space})["changeCursor"]
    with Socket(SimpleNamespace(ws_url=host_a.base.replace("http", "ws") + "/graphql"),
                token) as socket:
        socket.subscribe("1", FACT_CHANGED, {"s": space, "after": after})
        gql(host_c.base, token, WRITE, {"s": space, "f": [{"subject": "heard", "value": "C"}]})
        message = socket.first("1", timeout=30)
    assert message is not None and message["type"] == "next", message
    assert message["payload"]["data"]["factChanged"] == {"subject": "heard", "value": "C"}

    # ---- a key revoked through host C is refused by every host within the cache time ----
    for host in fleet.hosts:
        gql(host.base, doomed.token, CURSOR, {"s": space})  # each host now trusts it
    revoked = host_c.cli("keys", "revoke", doomed.key_id)
    assert revoked.returncode == 0, revoked.stderr
    accepted = accepted_after_revocation(fleet.hosts, doomed.token)
    assert max(accepted.values()) <= CACHE_SECONDS, accepted

    # ---- the shared secrets came from the environment: no home holds one ----
    for host in fleet.hosts:
        for path in (p for p in host.home.rglob("*") if p.is_file()):
            text = path.read_text(errors="replace")
            assert not any(value in text for value in fleet.secrets.values()), path

    # ---- the audit chain: one chain, verified from every host's home and anchor file ----
    for host in fleet.hosts:
        host.stop()  # a clean stop writes the host's last signed head to its anchor file
    for host in fleet.hosts:
        verified = host.cli("audit", "verify")
        assert verified.returncode == 0, f"{host.name}: {verified.stdout} {verified.stderr}"


def accepted_after_revocation(hosts: list[Host], token: str, limit: float = 60.0
                              ) -> dict[str, float]:
    """Per host, how long after the revocation it still accepted the key: the send time of
    the last request it answered 200, once every host has answered 401 (each host is asked
    in turn until then, for at most `limit` seconds)."""
    began = time.monotonic()
    accepted = {h.name: 0.0 for h in hosts}
    refused: set[str] = set()
    while len(refused) < len(hosts) and time.monotonic() - began < limit:
        for host in (h for h in hosts if h.name not in refused):
            sent = time.monotonic() - began
            status = loopback.post(f"{host.base}/graphql", json={"query": "{ __typename }"},
                                   headers={"Authorization": f"Bearer {token}"},
                                   timeout=30).status_code
            if status == 401:
                refused.add(host.name)
            else:
                accepted[host.name] = sent
        time.sleep(0.05)
    assert len(refused) == len(hosts), f"still accepted after {limit}s: {accepted}"
    return accepted
