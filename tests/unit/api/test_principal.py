"""Principals: the tenant comes from the key, allowed spaces are prefixes, fail closed."""

from __future__ import annotations

import pytest

from graphmem.auth import Principal, local_admin
from graphmem.errors import AccessDenied, InvalidInput
from graphmem.model import Space


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


def test_only_the_local_admin_crosses_tenants() -> None:
    local = local_admin()
    assert local.space("other/u/a/r").tenant == "other"
    assert local.admits(Space("other")) and local.capabilities >= {"admin", "delete"}


def test_an_unknown_role_has_no_capabilities_at_all() -> None:
    with pytest.raises(InvalidInput):
        _ = Principal("id", "bot", "acme", "root").capabilities
