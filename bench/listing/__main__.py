"""bench/listing: paging through a space of 100k facts costs the same on the last page as on
the first, through the Python API and through MCP's `list_facts`.

    python -m bench.listing                       # the kept 100k-fact space, pages of 200
    python -m bench.listing --size 10000 --limit 50

Every page of the space (bench.load's recall space under the `bench-recall` tenant, written
once and kept) is read in order, each from the previous page's cursor: through
`GraphMem.records.page` in this process, and as `list_facts` calls to `graphmem mcp` over
stdio with a key of that tenant. Reported: the median time of the first and the last tenth of
the pages and their ratio (flat cost: about 1), and the whole walk.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from bench.api.__main__ import PEPPER, open_scratch
from bench.load.__main__ import RECALL_TENANT, recall_space
from bench.mcp.__main__ import env_for
from bench.results import median, write_section
from graphmem import GraphMem
from graphmem.auth import KeyStore
from graphmem.model import Space
from graphmem.model.listings import FactFilter


def walk_python(mem: GraphMem, limit: int) -> list[float]:
    times, cursor = [], None
    while True:
        started = time.perf_counter()
        page = mem.records.page(FactFilter(), first=limit, after=cursor, count=False)
        times.append(time.perf_counter() - started)
        if not page.has_next:
            return times
        cursor = page.cursors[-1]


async def walk_mcp(env: dict[str, str], space: str, limit: int) -> list[float]:
    user, agent, run = space.split("/")
    graphmem = str(Path(sys.executable).parent / "graphmem")
    times: list[float] = []
    cursor = None
    async with Client(StdioServerParameters(command=graphmem, args=["mcp"], env=env)) as client:
        while True:
            arguments: dict[str, Any] = {"user_id": user, "agent_id": agent, "run_id": run,
                                         "limit": limit}
            if cursor:
                arguments["cursor"] = cursor
            started = time.perf_counter()
            result = await client.call_tool("list_facts", arguments)
            times.append(time.perf_counter() - started)
            if result.is_error or result.structured_content is None:
                raise SystemExit(f"list_facts failed: {result.content}")
            cursor = result.structured_content["next_cursor"]
            if cursor is None:
                return times


def tenths(times: list[float]) -> tuple[float, float]:
    tenth = max(1, len(times) // 10)
    return median(times[1:tenth + 1]), median(times[-tenth:])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.listing")
    parser.add_argument("--size", type=int, default=100_000, help="facts in the space")
    parser.add_argument("--limit", type=int, default=200, help="facts a page")
    args = parser.parse_args(argv)

    _, runtime = open_scratch("listing")
    settings = runtime.settings
    space, _ = recall_space(runtime, args.size)
    token = KeyStore(runtime.store, PEPPER.encode()).create(RECALL_TENANT, "reader").token
    mem = GraphMem(Space.parse(f"{RECALL_TENANT}/{space}"), runtime=runtime)
    load = os.getloadavg()[0]
    python_times = walk_python(mem, args.limit)
    mcp_times = asyncio.run(walk_mcp({**env_for(settings), "GRAPHMEM_API_KEY": token},
                                     space, args.limit))
    runtime.close()
    rows = []
    for name, times in (("Python API (`records.page`)", python_times),
                        ("MCP `list_facts` over stdio", mcp_times)):
        first, last = tenths(times)
        rows.append(f"| {name} | {len(times)} | {first * 1000:.1f} ms | {last * 1000:.1f} ms"
                    f" | {last / first:.2f} | {sum(times):.1f} s |")
    body = f"""Command: `python -m bench.listing --size {args.size} --limit {args.limit}`; load
average {load:.1f} at the start, {os.cpu_count()} cores.

Every page of a space of {args.size:,} facts, each read from the previous page's cursor.

| path | pages | first tenth, median | last tenth, median | last ÷ first | whole walk |
| --- | ---: | ---: | ---: | ---: | ---: |
{chr(10).join(rows)}
"""
    print(body)
    write_section("listing", body)


if __name__ == "__main__":
    main()
