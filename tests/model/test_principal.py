"""Principals: the tenant comes from the key, allowed spaces are prefixes, fail closed."""

from __future__ import annotations

import pytest

from graphmem.errors import AccessDenied, InvalidInput
from graphmem.model import Space
from graphmem.model.principals import Principal, local_admin


def test_a_space_is_named_inside_the_principals_tenant() -> None:
    p = Principal("id", "bot", "acme", "reader")
    assert p.space("alice/bot/r1") == Space("acme", "alice", "bot", "r1")
    assert p.space("alice") == Space("acme", "alice")
    assert p.space("") == Space("acme")
    assert p.space("acme/alice/bot/r1") == Space("acme", "alice", "bot", "r1")
    with pytest.raises(AccessDenied, match="another tenant"):
        p.space("other/alice/bot/r1")
    with pytest.raises(InvalidInput):
        p.space("a/b/c/d/e")
    with pytest.raises(InvalidInput):
        p.space("al ice")


def test_allowed_spaces_are_prefixes_of_user_agent_run() -> None:
    p = Principal("id", "bot", "acme", "reader", ("alice", "bob/bot"))
    assert p.admits(Space("acme", "alice", "x", "y"))
    assert p.admits(Space("acme", "bob", "bot", "r9"))
    assert not p.admits(Space("acme", "bob", "other", "r9"))
    assert not p.admits(Space("acme", "alicex"))
    assert not p.admits(Space("other", "alice"))
    assert not p.tenant_wide


def test_the_keyless_local_admin_stays_in_the_default_tenant() -> None:
    local = local_admin()
    assert local.tenant == "default" and local.capabilities >= {"admin", "delete"}
    assert local.space("default/u/a/r") == Space("default", "u", "a", "r")
    with pytest.raises(AccessDenied):
        local.space("other/u/a/r")
    assert local.admits(Space("default", "u")) and not local.admits(Space("other"))


def test_an_unknown_role_has_no_capabilities_at_all() -> None:
    with pytest.raises(InvalidInput):
        _ = Principal("id", "bot", "acme", "root").capabilities


def test_a_user_is_named_alone_or_with_the_principals_own_tenant() -> None:
    p = Principal("id", "bot", "acme", "steward")
    assert p.user_space("alice") == Space("acme", "alice")
    assert p.user_space("acme/alice") == Space("acme", "alice")
    with pytest.raises(AccessDenied, match="not 'bot''s tenant"):
        p.user_space("other/alice")
    for bad in ("", "/alice", "alice/", "alice/bot/r1", "al ice"):
        with pytest.raises(InvalidInput):
            p.user_space(bad)


def test_holding_a_user_needs_the_whole_user_not_one_of_its_agents() -> None:
    assert Principal("id", "bot", "acme", "steward").holds_user(Space("acme", "alice"))
    assert Principal("id", "bot", "acme", "steward", ("alice",)).holds_user(Space("acme", "alice"))
    part = Principal("id", "bot", "acme", "steward", ("alice/bot", "bob"))
    assert not part.holds_user(Space("acme", "alice"))
    assert not Principal("id", "bot", "acme", "steward").holds_user(Space("other", "alice"))
    assert not local_admin().holds_user(Space("other", "alice"))
    assert local_admin().holds_user(Space("default", "alice"))


def test_a_tenant_is_only_ever_the_principals_own() -> None:
    p = Principal("id", "bot", "acme", "admin")
    assert p.tenant_space(None) == Space("acme") == p.tenant_space("acme")
    with pytest.raises(AccessDenied):
        p.tenant_space("other")
    with pytest.raises(AccessDenied):
        local_admin().tenant_space("other")
    assert local_admin().tenant_space("default") == Space("default")
