"""GRAPHMEM_API_MAX_HOPS is the one bound of a walk's depth: set above its default, the
Python API walks that deep, and one past it is refused with the setting's name (the service
checks it; the walk below trusts it)."""

from __future__ import annotations

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput
from graphmem.runtime import Runtime

from support.api_support import new_tenant
from support.related_chain import CHAIN, DEEPEST, chain, longest, name_of


def test_the_python_api_walks_as_deep_as_the_setting_and_no_deeper(deep_runtime: Runtime) -> None:
    with GraphMem(f"{new_tenant()}/chain/default/default", runtime=deep_runtime) as mem:
        chain(mem)
        found = mem.recall_related(entities=["stop0"], hops=DEEPEST)
        assert longest([[name_of(k) for k in p.keys] for p in found.paths]) == CHAIN
        with pytest.raises(InvalidInput, match="GRAPHMEM_API_MAX_HOPS"):
            mem.recall_related(entities=["stop0"], hops=DEEPEST + 1)
        with pytest.raises(InvalidInput, match=f"between 1 and {DEEPEST}"):
            mem.entities.neighbourhood("entity", "stop0", hops=DEEPEST + 1)
