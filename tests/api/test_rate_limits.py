"""Per-IP rate limits before authentication: 429 with Retry-After, per client, and never on
the health and metrics endpoints."""

from __future__ import annotations

from collections.abc import Callable

from support import loopback
from support.api_support import Api, codes

QUERY = "{ __typename }"


def test_the_rate_limit_answers_429_per_client_ip(serve_api: Callable[..., Api]) -> None:
    limited = serve_api(rate_per_min=5, trusted_proxies=("127.0.0.1",))
    flood = {"X-Forwarded-For": "198.51.100.7"}
    answers = [limited.post(QUERY, headers=flood).status_code for _ in range(8)]
    assert answers[:5] == [401] * 5  # within the budget: refused by authentication
    assert answers[5:] == [429] * 3  # the limit runs before authentication
    refused = limited.post(QUERY, headers=flood)
    assert codes(refused.json()) == ["RATE_LIMITED"]
    assert int(refused.headers["retry-after"]) >= 1
    other = limited.post(QUERY, headers={"X-Forwarded-For": "198.51.100.8"})
    assert other.status_code == 401


def test_health_and_metrics_are_not_rate_limited(serve_api: Callable[..., Api]) -> None:
    limited = serve_api(own=True, rate_per_min=5)
    for _ in range(12):
        assert loopback.get(f"{limited.base}/healthz").status_code == 200
        assert loopback.get(f"{limited.base}/metrics").status_code == 200
