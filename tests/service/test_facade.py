"""`GraphMem` is a handful of core verbs and five audited namespaces; the flat names of the
release before still work, each with a DeprecationWarning naming its new place, and are
audited under the same operation."""

from __future__ import annotations

import inspect
import warnings

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput
from graphmem.model.requests import Write
from graphmem.service.memory import FORMER_STATE, MOVED

CORE = {"space", "runtime", "remember", "remember_facts", "forget", "recall", "recall_related",
        "active", "history", "close", "review", "entities", "records", "erasure", "transfer"}


def public(mem: GraphMem) -> set[str]:
    return {name for name in set(dir(type(mem))) | set(vars(mem)) if not name.startswith("_")}


def test_graphmem_has_at_most_fifteen_public_members(mem: GraphMem) -> None:
    assert public(mem) == CORE
    assert len(public(mem)) <= 15


def test_every_former_name_leads_to_a_method_of_its_namespace(mem: GraphMem) -> None:
    for name, (namespace, new) in MOVED.items():
        owner = getattr(mem, namespace) if namespace else mem
        assert inspect.ismethod(getattr(owner, new)), name
        assert not hasattr(type(mem), name), f"{name} is still a public member"


def test_a_former_flat_name_warns_and_still_works_and_is_audited_the_same(
        mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9}])
    with pytest.warns(DeprecationWarning, match=r"GraphMem\.stats is deprecated: use"
                                                r" mem\.records\.stats"):
        stats = mem.stats()  # type: ignore[operator]
    assert stats == mem.records.stats()
    with pytest.warns(DeprecationWarning, match=r"mem\.forget\(facts=…\)"):
        [gone] = mem.forget_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9}])
    assert gone.action.value == "RETRACT"
    with pytest.warns(DeprecationWarning, match=r"use mem\.space\.key"):
        assert mem.key == mem.space.key
    mem.records.drain()
    operations = [r.operation for r in mem.records.audit_log(limit=10)]
    assert operations[:4] == ["forget_facts", "stats", "stats", "remember_facts"], operations


def test_the_former_state_is_reachable_with_a_warning(mem: GraphMem) -> None:
    for name in FORMER_STATE:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            getattr(mem, name)
        assert [w.category for w in caught] == [DeprecationWarning], name


def test_an_unknown_attribute_is_still_an_attribute_error(mem: GraphMem) -> None:
    with pytest.raises(AttributeError, match="no attribute 'remember_fact'"):
        mem.remember_fact  # type: ignore[attr-defined]  # noqa: B018


def test_a_write_request_for_another_operation_is_refused(mem: GraphMem) -> None:
    with pytest.raises(InvalidInput, match="remember_facts was given a request for forget"):
        mem.remember_facts(Write(None, "we dropped Sentry", retract=True))
    assert mem.active() == []
