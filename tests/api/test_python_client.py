"""The typed Python client generated from the schema (clients/python, ariadne-codegen):
what is committed is what the generator writes from today's schema, and it talks to a live
server: a mutation, queries, and a graphql-transport-ws subscription."""

from __future__ import annotations

import asyncio
import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.api_support import Api, new_tenant

pytestmark = pytest.mark.races  # the generator's process, a subscription's socket

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
sys.path.insert(0, str(CLIENT))  # the package as committed, not an installed copy

from graphmem_client import GraphMemClient  # noqa: E402
from graphmem_client.input_types import FactInput  # noqa: E402


def test_the_committed_client_is_what_the_generator_writes(tmp_path: Path) -> None:
    work = tmp_path / "python"
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("graphmem_client",
                                                                "__pycache__"))
    config = work / "pyproject.toml"
    schema = CLIENT.parents[1] / "schema" / "schema.graphql"
    operations = CLIENT.parent / "operations.graphql"
    config.write_text(config.read_text().replace("../../schema/schema.graphql", str(schema))
                      .replace("../operations.graphql", str(operations)))
    generator = CLIENT.parents[1] / ".venv-clients" / "bin" / "ariadne-codegen"
    assert generator.exists(), "`make clients` installs ariadne-codegen in .venv-clients"
    subprocess.run([str(generator), "--config", str(config)], cwd=work, check=True,
                   capture_output=True, timeout=120)
    compared = filecmp.dircmp(CLIENT / "graphmem_client", work / "graphmem_client",
                              ignore=["__pycache__"])
    assert (compared.left_only, compared.right_only, compared.diff_files) == ([], [], []), (
        "run `make clients` and commit what it writes")


def client(api: Api, token: str) -> GraphMemClient:
    bearer = f"Bearer {token}"
    return GraphMemClient(url=f"{api.base}/graphql", headers={"Authorization": bearer},
                          ws_url=api.ws_url, ws_connection_init_payload={
                              "authorization": bearer})


def test_a_write_a_read_and_a_subscription_through_the_typed_client(api: Api) -> None:
    token = api.key("writer", new_tenant())

    async def go() -> None:
        async with client(api, token) as gm:
            written = await gm.remember_facts("alice", [
                FactInput(subject="home_city", value="Lisbon", confidence=0.95)])
            assert written.remember_facts[0].action.value == "ADD"
            fact_id = written.remember_facts[0].fact_id
            assert fact_id is not None
            page = await gm.facts("alice", subject="home_city", first=10)
            assert [n.value for n in page.facts.nodes] == ["Lisbon"]
            one = await gm.fact("alice", fact_id)
            assert one.fact.recorded_at is not None and one.fact.status.value == "ACTIVE"
            after = (await gm.change_cursor("alice")).change_cursor
            events = gm.fact_changed("alice", after=after)
            waiting = asyncio.ensure_future(events.__anext__())
            await asyncio.sleep(0.5)  # the subscription is sent before the write below
            await gm.remember_facts("alice", [FactInput(subject="home_city", value="Porto",
                                                        confidence=0.95)])
            heard = await asyncio.wait_for(waiting, timeout=30)
            assert (heard.fact_changed.subject, heard.fact_changed.value) == (
                "home_city", "Porto")
            await events.aclose()

    asyncio.run(go())


def test_a_refusal_is_raised_with_its_code(api: Api) -> None:
    from graphmem_client.exceptions import GraphQLClientGraphQLMultiError

    async def go() -> None:
        async with client(api, api.key("reader", new_tenant())) as gm:
            with pytest.raises(GraphQLClientGraphQLMultiError) as refused:
                await gm.remember_facts("alice", [FactInput(subject="a", value="b")])
            assert refused.value.errors[0].extensions["code"] == "FORBIDDEN"

    asyncio.run(go())
