"""Authentication at the HTTP layer: a bearer key or 401; keyless only from loopback when
authentication is switched off; the request id is echoed on every answer."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from graphmem.auth import KeyStore
from graphmem.auth.pepper import load_pepper

from support import isolation, loopback
from support.api_support import Api, codes, new_tenant

pytestmark = pytest.mark.races

STATS = "query($s: String!) { stats(space: $s) { space active } }"


def test_no_key_is_401_with_a_challenge(api: Api) -> None:
    response = api.post(STATS, {"s": "u"})
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert codes(response.json()) == ["UNAUTHENTICATED"]
    assert "Bearer gm_sk_" in response.json()["errors"][0]["message"]


def test_wrong_scheme_malformed_and_unknown_keys_are_401(api: Api) -> None:
    bad = ["Basic dXNlcjpwdw==", "Bearer", "Bearer gm_sk_short",
           "Bearer gm_sk_0123456789ab_" + "A" * 43, "Bearer " + "x" * 5000]
    for value in bad:
        response = api.post(STATS, {"s": "u"}, headers={"Authorization": value})
        assert response.status_code == 401, value
        assert codes(response.json()) == ["UNAUTHENTICATED"]


def test_a_valid_key_resolves_to_its_tenant(api: Api) -> None:
    tenant = new_tenant()
    data = api.ok(api.key("reader", tenant), STATS, {"s": "alice/bot/r1"})
    assert data["stats"]["space"] == f"{tenant}/alice/bot/r1"


def test_a_revoked_key_fails_on_the_next_request(api: Api) -> None:
    issued = api.keys.create(new_tenant(), "reader")
    assert api.post(STATS, {"s": "u"}, issued.token).status_code == 200
    api.keys.revoke(issued.key_id)
    response = api.post(STATS, {"s": "u"}, issued.token)
    assert response.status_code == 401
    unknown = api.post(STATS, {"s": "u"}, "gm_sk_0123456789ab_" + "A" * 43)
    # the same answer as for a key that never existed: nothing tells the two apart
    assert response.json() == unknown.json()


def test_health_and_readiness_need_no_key(api: Api) -> None:
    assert loopback.get(f"{api.base}/healthz").status_code == 200
    assert loopback.get(f"{api.base}/readyz").status_code == 200


def test_request_id_is_reused_when_valid_and_replaced_when_not(api: Api) -> None:
    kept = api.post(STATS, {"s": "u"}, headers={"X-Request-ID": "client-req-0001"})
    assert kept.headers["x-request-id"] == "client-req-0001"
    for bad in ("bad id with spaces", "x" * 129, "short", "<script>"):
        forged = api.post(STATS, {"s": "u"}, headers={"X-Request-ID": bad})
        assert forged.headers["x-request-id"] != bad
        assert len(forged.headers["x-request-id"]) == 32
    assert loopback.get(f"{api.base}/healthz").headers["x-request-id"]


def test_keyless_loopback_is_the_local_admin_when_auth_is_off(
        serve_api: Callable[..., Api]) -> None:
    local = serve_api(auth_required=False)
    user = isolation.user("keyless")  # the keyless caller's spaces are in tenant `default`
    data = local.ok(None, STATS, {"s": f"{user}/a/r"})
    assert data["stats"]["space"] == f"default/{user}/a/r"
    write = local.ok(None, "mutation($s: String!) { setReconcilePolicy(space: $s, mode: REVIEW)"
                           " { policy { mode } } }", {"s": user})
    assert write["setReconcilePolicy"]["policy"]["mode"] == "REVIEW"


def test_keyless_is_refused_from_elsewhere_even_when_auth_is_off(
        serve_api: Callable[..., Api]) -> None:
    # Through a trusted proxy on loopback, this request arrives as the remote client
    # 203.0.113.9 would through a reverse proxy.
    proxied = serve_api(auth_required=False, trusted_proxies=("127.0.0.1",))
    response = proxied.post(STATS, {"s": "u"}, headers={"X-Forwarded-For": "203.0.113.9"})
    assert response.status_code == 401
    assert "loopback only" in response.json()["errors"][0]["message"]
    # A proxy nobody declared is still a proxy: what it forwards is never local.
    local = serve_api(auth_required=False)
    response = local.post(STATS, {"s": "u"}, headers={"X-Forwarded-For": "203.0.113.9"})
    assert response.status_code == 401
    assert "through a proxy" in response.json()["errors"][0]["message"]


def test_a_key_still_counts_when_auth_is_off(serve_api: Callable[..., Api]) -> None:
    local = serve_api(auth_required=False)
    tenant = new_tenant()
    data = local.ok(local.key("reader", tenant), STATS, {"s": "u"})
    assert data["stats"]["space"].startswith(tenant + "/")


def test_a_key_revoked_from_another_host_fails_within_the_cache_period(
        serve_api: Callable[..., Api]) -> None:
    short = serve_api(api_key_cache_seconds=0.2)
    issued = short.keys.create(new_tenant(), "reader")
    assert short.post(STATS, {"s": "u"}, issued.token).status_code == 200
    elsewhere = KeyStore(short.keys.store, load_pepper(short.settings))  # no shared stamp
    elsewhere.revoke(issued.key_id)
    deadline = time.monotonic() + 30
    while short.post(STATS, {"s": "u"}, issued.token).status_code == 200:
        assert time.monotonic() < deadline, "the revoked key was still accepted after 30 s"
        time.sleep(0.05)
    assert short.post(STATS, {"s": "u"}, issued.token).status_code == 401
