"""The guard fails closed: no rule, no principal, no capability or no scope means no call."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.errors import AccessDenied, Unauthenticated
from graphmem.model.principals import Principal
from graphmem.resolvers import OPERATIONS, RequestContext
from graphmem.resolvers.guard import admit
from graphmem.resolvers.registry import operation


def context(principal: Principal | None) -> RequestContext:
    none: Any = None
    return RequestContext(runtime=none, keys=none, feed=none, metrics=none,
                          principal=principal, request_id="test")


def test_a_field_without_a_rule_is_denied() -> None:
    with pytest.raises(AccessDenied, match="has no access rule"):
        admit(context(Principal("i", "n", "t", "admin")), "noSuchField", "u")


def test_no_principal_is_unauthenticated() -> None:
    with pytest.raises(Unauthenticated):
        admit(context(None), "facts", "u")


def test_a_missing_capability_is_denied() -> None:
    with pytest.raises(AccessDenied, match="lacks the write capability"):
        admit(context(Principal("i", "n", "t", "reader")), "rememberFacts", "u")


def test_an_out_of_scope_space_is_denied() -> None:
    scoped = Principal("i", "n", "t", "admin", ("alice",))
    with pytest.raises(AccessDenied, match="outside"):
        admit(context(scoped), "facts", "bob")
    _, call = admit(context(scoped), "facts", "alice/x")
    assert call.space is not None and call.space.key == "t/alice/x/default"


def test_every_rule_names_a_real_capability_and_operations_cannot_be_registered_twice() -> None:
    assert {op.capability for op in OPERATIONS.values()} <= {
        "read", "write", "delete", "verify", "approve", "admin", "backfill"}
    with pytest.raises(ValueError, match="twice"):
        operation("facts", "read")(lambda call: None)
    with pytest.raises(ValueError, match="unknown capability"):
        operation("x", "root")


def test_a_user_wide_operation_needs_a_key_holding_the_whole_user() -> None:
    whole = Principal("i", "n", "t", "steward", ("alice",))
    _, call = admit(context(whole), "eraseUser", "alice")
    assert call.space is not None and call.space.key == "t/alice/default/default"
    for spaces, user in ((("alice/bot",), "alice"), (("alice",), "bob")):
        with pytest.raises(AccessDenied, match="every space of user"):
            admit(context(Principal("i", "n", "t", "steward", spaces)), "eraseUser", user)


def test_a_tenant_wide_operation_needs_an_unrestricted_key_of_that_tenant() -> None:
    _, call = admit(context(Principal("i", "n", "t", "steward")), "eraseTenant", "t")
    assert call.space is not None and call.space.tenant == "t"
    with pytest.raises(AccessDenied, match="not 'n''s tenant"):
        admit(context(Principal("i", "n", "t", "steward")), "eraseTenant", "other")
    with pytest.raises(AccessDenied, match="whole tenant"):
        admit(context(Principal("i", "n", "t", "admin", ("alice",))), "exportPublicKey", None)
    _, call = admit(context(Principal("i", "n", "t", "reader")), "exportPublicKey", None)
    assert call.space is None


def test_an_operation_reaches_a_space_a_user_the_tenant_or_the_caller_only() -> None:
    assert {op.reach for op in OPERATIONS.values()} <= {"space", "user", "tenant", "caller"}
    with pytest.raises(ValueError, match="unknown reach"):
        operation("y", "read", reach="world")  # type: ignore[arg-type]


def test_what_reaches_only_the_caller_names_no_space_and_reads_no_memory() -> None:
    assert {name for name, op in OPERATIONS.items() if op.reach == "caller"} == {
        "viewer", "serverInfo"}
    scoped = Principal("i", "n", "t", "reader", ("alice",))
    _, call = admit(context(scoped), "viewer", None)
    assert call.space is None and call.principal is scoped
    with pytest.raises(Unauthenticated):
        admit(context(None), "serverInfo", None)
