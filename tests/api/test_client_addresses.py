"""Rate limits against the real server: X-Forwarded-For counts only from trusted proxies, the
bucket map stays bounded under a flood of addresses, and a key is limited wherever it is
used from."""

from __future__ import annotations

from collections.abc import Callable

from graphmem.http.limits import LimitsMiddleware
from graphmem.service.model_budget import ModelBudget
from graphmem.service.rates import RateLimiter

from support.api_support import Api, codes

QUERY = "{ __typename }"
STATS = 'query { stats(space: "u") { active } }'


def statuses(api: Api, forwarded: list[str], token: str | None = None) -> list[int]:
    return [api.post(QUERY if token is None else STATS, token=token,
                     headers={"X-Forwarded-For": f}).status_code for f in forwarded]


def limiter_of(api: Api) -> RateLimiter:
    app = api.server.config.app
    found = next(m for m in app.user_middleware if m.cls is LimitsMiddleware)
    limiter: RateLimiter = found.kwargs["limiter"]
    return limiter


def test_a_forged_forwarded_for_changes_nothing_without_trusted_proxies(
        serve_api: Callable[..., Api]) -> None:
    limited = serve_api(own=True, rate_per_min=5)
    forged = [f"203.0.113.{i}" for i in range(8)]  # a new "client" every request
    answers = statuses(limited, forged)
    assert answers[:5] == [401] * 5 and answers[5:] == [429] * 3
    assert codes(limited.post(QUERY, headers={"X-Forwarded-For": "203.0.113.99"}).json()) == [
        "RATE_LIMITED"]


def test_behind_a_trusted_proxy_the_client_is_the_address_it_forwarded(
        serve_api: Callable[..., Api]) -> None:
    proxied = serve_api(rate_per_min=5, trusted_proxies=("127.0.0.1",))
    # what the client wrote itself sits to the left of what the proxy appended
    forged = [f"10.9.9.{i}, 198.51.100.40" for i in range(8)]
    answers = statuses(proxied, forged)
    assert answers[:5] == [401] * 5 and answers[5:] == [429] * 3
    assert statuses(proxied, ["198.51.100.41"]) == [401]  # another client, its own bucket


def test_the_bucket_map_stays_bounded_under_a_flood_of_addresses(
        serve_api: Callable[..., Api]) -> None:
    bounded = serve_api(rate_per_min=5, trusted_proxies=("127.0.0.1",), rate_max_clients=50)
    statuses(bounded, [f"198.51.{i // 250}.{i % 250}" for i in range(300)])
    limiter = limiter_of(bounded)
    assert len(limiter) <= 50
    assert statuses(bounded, ["198.51.100.50"] * 6) == [401] * 5 + [429]  # still limiting


def test_a_key_is_limited_across_every_address_it_comes_from(
        serve_api: Callable[..., Api]) -> None:
    proxied = serve_api(rate_per_min=5, trusted_proxies=("127.0.0.1",))
    token = proxied.key("reader")
    spread = [f"198.51.100.{60 + i}" for i in range(8)]  # each address sends one request
    answers = statuses(proxied, spread, token)
    assert answers[:5] == [200] * 5 and answers[5:] == [429] * 3
    # the addresses themselves are not spent: another key from one of them still works
    assert statuses(proxied, [spread[0]], proxied.key("reader")) == [200]


def test_each_of_several_hosts_enforces_its_share_of_the_limit(
        serve_api: Callable[..., Api]) -> None:
    """GRAPHMEM_HOSTS=3 behind a balancer that spreads requests evenly: 9 a minute in all
    is 3 on each host, so the three together let through the whole limit and no more."""
    hosts = [serve_api(own=True, rate_per_min=9, hosts=3) for _ in range(3)]
    assert {limiter_of(h).per_minute for h in hosts} == {3}
    answers = [statuses(hosts[n % 3], ["203.0.113.7"])[0] for n in range(12)]
    assert answers.count(429) == 3
    assert answers[:9] == [401] * 9


def test_each_of_several_hosts_holds_its_share_of_a_keys_model_call_budget() -> None:
    budget = ModelBudget(30, hosts=3)
    allowed = [budget.refusal("key:k1", 1) is None for _ in range(11)]
    assert allowed == [True] * 10 + [False]
    refusal = budget.refusal("key:k1", 1)
    assert refusal is not None and "at most 30 model calls a minute" in refusal
