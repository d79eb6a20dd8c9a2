"""remember(text) through the test model server, hostile arguments, a key given to
`graphmem mcp`, and subscriptions on the handshake protocol over stdio."""

from __future__ import annotations

import subprocess
import uuid
import warnings
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPDeprecationWarning

from graphmem import GraphMem
from graphmem.auth import KeyStore
from graphmem.model import Space
from graphmem.runtime import Runtime

from support import loopback
from support.api_support import Api, new_tenant
from support.llm_fixtures import llm_overrides
from support.llm_server import LLMServer
from support.mcp_support import GRAPHMEM, http, stdio, text_of

pytestmark = pytest.mark.races

MESSAGE = "We moved from Redux to Zustand"


def test_remember_text_makes_one_model_call_and_reconciles(
        serve_mcp: Callable[..., Api], llm: LLMServer, runtime: Runtime) -> None:
    api = serve_mcp(**llm_overrides(llm))
    tenant, user = new_tenant(), "dev"
    llm.extraction(MESSAGE, {"subject": "state", "value": "Zustand", "kind": "state",
                             "time_ref": "current", "action": "SUPERSEDE",
                             "confidence": 0.95})
    with http(f"{api.base}/mcp", api.key("writer", tenant)) as writer:
        assert writer.text("remember_facts", {"facts": [
            {"subject": "state", "value": "Redux", "confidence": 0.95}],
            "user_id": user}) == "Stored: [ADD] state = Redux"
        assert llm.count("extract") == 0
        result = writer.call("remember", {"text": MESSAGE, "user_id": user})
        assert text_of(result) == "Stored: [SUPERSEDE] state = Zustand", text_of(result)
        assert llm.count("extract") == 1
        again = writer.text("remember", {"text": MESSAGE, "user_id": user})
        assert again == "Stored: [DEDUP] state = Zustand" and llm.count("extract") == 1
    mem = GraphMem(Space(tenant, user), runtime=runtime)
    assert [f.value for f in mem.active("state")] == ["Zustand"]
    assert [e.status for e in mem.history("state")] == ["SUPERSEDED", "ACTIVE"]


def test_a_failing_model_endpoint_is_a_tool_error_with_a_reference(
        serve_mcp: Callable[..., Api], llm: LLMServer) -> None:
    api = serve_mcp(**llm_overrides(llm))
    llm.fail("chat", 500, times=10, message="upstream exploded at http://secret.internal")
    with http(f"{api.base}/mcp", api.key("writer", new_tenant())) as writer:
        failed = writer.call("remember", {"text": "We use Postgres now"})
    assert failed.is_error
    assert text_of(failed).startswith("graphmem couldn't complete remember: the configured"
                                      " model endpoint failed (ref ")
    assert "secret.internal" not in text_of(failed) and "Traceback" not in text_of(failed)


HOSTILE: list[tuple[str, dict[str, Any], str]] = [
    ("recall", {"question": "x" * 20_000}, "at most 10000 characters"),
    ("recall", {"question": ""}, "at least 1 character"),
    ("recall_related", {"question": "who?", "hops": "many"}, "valid integer"),
    ("recall_related", {"entities": [{"type": "person", "name": "Bob"}], "hops": 9},
     "hops must be between 1 and 4"),
    ("remember_facts", {"facts": "not a list"}, "valid list"),
    ("remember_facts", {"facts": [{"subject": "a", "value": "b", "mood": "x"}]},
     "Extra inputs are not permitted"),
    ("remember_facts", {"facts": [{"subject": "a", "value": "b", "confidence": 7}]},
     "fact field 'confidence' must be between 0 and 1, got 7"),
    ("remember_facts", {"facts": [{"subject": "a\x00b", "value": "b"}]}, "NUL character"),
    ("remember_facts", {"facts": [{"value": "orphan"}]}, "subject"),
    ("remember_facts", {"facts": [{"subject": "a", "value": "v" * 250_000}]},
     "fact field 'value' is 250000 characters; the limit is 200000"),
    ("history", {"subject": "plan", "user_id": "../../etc"}, "should match pattern"),
    ("history", {"subject": "plan", "as_of": "yesterday"}, "valid datetime"),
    ("history", {"subject": "plan", "as_of": "2026-01-01T00:00:00"}, "timezone"),
    ("confirm_change", {"fact_id": "no-such-fact"}, "no-such-fact"),
    ("delete", {}, "exactly one of fact_id or subject"),
    ("verify_receipt", {"receipt": {"receipt": "forged"}}, "Receipt NOT verified"),
    ("set_reconcile_policy", {"mode": "LOUDEST"}, "Input should be"),
    ("no_such_tool", {}, "Unknown tool: no_such_tool"),
]


def test_hostile_arguments_get_tool_errors_and_the_server_stays_up(api: Api) -> None:
    with http(f"{api.base}/mcp", api.key("admin", new_tenant())) as admin:
        for name, arguments, expected in HOSTILE:
            result = admin.call(name, arguments)
            shown = text_of(result)
            if name != "verify_receipt":
                assert result.is_error, (name, arguments, shown)
            assert expected in shown, (name, shown)
            assert "Traceback" not in shown and "File \"" not in shown, shown
        headers = {"Authorization": f"Bearer {api.key('admin', new_tenant())}",
                   "Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}
        big = loopback.post(f"{api.base}/mcp", content=b"{" + b" " * (2 * 1024 * 1024) + b"}",
                            headers=headers, timeout=30)
        assert big.status_code == 413
        garbage = loopback.post(f"{api.base}/mcp", content=b"{not json", headers=headers,
                                timeout=30)
        assert 400 <= garbage.status_code < 500
        assert admin.text("list_memories", {}) == "No memories stored."
    assert loopback.get(f"{api.base}/healthz", timeout=30).status_code == 200


def test_graphmem_mcp_acts_with_the_key_it_is_given(
        mcp_env: dict[str, str], keys: KeyStore, runtime: Runtime) -> None:
    tenant = new_tenant()
    reader = keys.create(tenant, "reader")
    GraphMem(Space(tenant, "team"), runtime=runtime).remember_facts(
        [{"subject": "plan", "value": "Pro", "confidence": 0.95}])
    with stdio({**mcp_env, "GRAPHMEM_API_KEY": reader.token}) as session:
        assert "remember_facts" not in session.tools() and "recall" in session.tools()
        assert "plan = Pro" in session.text("list_memories", {"user_id": "team"})
        denied = session.call("remember_facts", {"facts": [{"subject": "plan", "value": "X"}],
                                                 "user_id": "team"})
        assert denied.is_error and text_of(denied).startswith("Access denied: ")
        keys.revoke(reader.key_id)
        after = session.call("list_memories", {"user_id": "team"})
        assert after.is_error and text_of(after) == "the API key is unknown or revoked"


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
def test_a_handshake_client_is_notified_of_changes_to_a_subscribed_space(
        mcp_env: dict[str, str], runtime: Runtime) -> None:
    user = f"u-{uuid.uuid4().hex[:8]}"
    uri = f"graphmem://conflicts/{user}/default/default"
    seen: list[str] = []
    arrived = anyio.Event()

    async def notified(message: Any) -> None:
        params = getattr(getattr(message, "params", None), "uri", None)
        if params is not None:
            seen.append(str(params))
            arrived.set()

    mem = GraphMem(Space("default", user), runtime=runtime)
    with stdio(mcp_env, mode="legacy", message_handler=notified) as session:
        assert session.client.server_capabilities.resources is not None
        assert session.client.server_capabilities.resources.subscribe is True

        async def subscribe_then_write(client: Any) -> None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await client.subscribe_resource(uri)
            await anyio.to_thread.run_sync(lambda: mem.remember_facts(
                [{"subject": "db", "value": "MySQL", "confidence": 0.95},
                 {"subject": "db", "value": "Postgres", "confidence": 0.95}]))
            with anyio.fail_after(15):
                await arrived.wait()

        session.run(subscribe_then_write)
        assert seen[0] == uri
        read = session.run(lambda c: c.read_resource(uri))
        conflict = mem.review.conflicts("open")[0]
        assert read.contents[0].text.startswith(f"{conflict.id} [open] ambiguity")


def test_graphmem_mcp_refuses_a_bad_key_before_the_protocol_starts(
        mcp_env: dict[str, str]) -> None:
    unknown = "gm_sk_" + "0" * 12 + "_" + "A" * 43  # well-formed, never issued
    proc = subprocess.run([GRAPHMEM, "mcp", "--key", unknown], env=mcp_env, input="",
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip().splitlines()[-1] == "error: the API key is unknown or revoked"
