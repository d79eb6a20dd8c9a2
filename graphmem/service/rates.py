"""Token buckets for rate limits: one map for every limit (a client's address, an IPv6
client's /64, a key id), bounded, shared by HTTP requests and WebSocket operations."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from dataclasses import dataclass


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    """A token bucket per client: `per_minute` requests, refilled continuously; at most
    `max_clients` buckets, the least recently used forgotten first."""

    def __init__(self, per_minute: int, max_clients: int = 100_000) -> None:
        self.per_minute = per_minute
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def take(self, client: str, now: float | None = None, cost: float = 1.0) -> float:
        """0 when allowed (`cost` tokens taken), else the seconds until it would be (inf
        when `cost` exceeds the whole budget)."""
        now = time.monotonic() if now is None else now
        bucket = self._buckets.get(client)
        if bucket is None:
            while len(self._buckets) >= self.max_clients:
                self._buckets.popitem(last=False)
            bucket = self._buckets[client] = _Bucket(self.capacity, now)
        else:
            self._buckets.move_to_end(client)
        bucket.tokens = min(self.capacity, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens >= cost:
            bucket.tokens -= cost
            return 0.0
        if cost > self.capacity:
            return float("inf")
        return (cost - bucket.tokens) / self.rate

    def take_client(self, address: str) -> float:
        return self.take(client_bucket(address))

    def take_key(self, key_id: str) -> float:
        return self.take(f"key:{key_id}")

    def __len__(self) -> int:
        return len(self._buckets)


def host_share(per_minute: int, hosts: int) -> int:
    """This host's part of a deployment-wide per-minute limit: a balancer that spreads
    requests evenly over `hosts` hosts lets through the whole limit, and no more, with every
    bucket held in memory (GRAPHMEM_HOSTS)."""
    return max(1, math.ceil(per_minute / hosts))


def client_bucket(address: str) -> str:
    """An IPv6 client is its /64 (one host usually holds the whole block)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)
