"""bench/peers: graphmem beside the seed peer Vayl (vayl-mcp 0.10.0), same workload, same run.

    python -m bench.peers                        # spaces of 1k, 5k and 20k facts
    python -m bench.peers --sizes 1000 --window 100 --lookups 50     # a quick run
    python -m bench.peers --graphmem-extra 100000                    # and graphmem at 100k
    python -m bench.peers --stream --sizes 1000,5000                 # streamed from empty

The peer is installed on first run into its own virtual environment (bench/.peers-venv, not a
project dependency) and driven there by bench/peers/vayl_driver.py. Both sides get the same
pre-extracted facts (bench/peers/workload.py), one fact per call; embeddings are stubbed on
both sides (a hash), so the engines are compared, not the model. Each space is grown in
batches to within one window of its size, then the window's facts are written one call each
and timed; then current-value lookups and history reads of the space's subjects. With
`--stream`, every fact is written one call each from an empty space, the way an agent writes,
with nothing drained in between (graphmem's embedding and mirror threads run beside the
writes), and a size's figures are those of the writes since the previous size. The raw
Neo4j floor (one- and two-statement `execute_write`, and an indexed read of a subject's
active facts) is timed interleaved with graphmem's writes and lookups.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench.floor import Floor
from bench.peers import workload
from bench.results import percentile, write_section
from bench.stub_embed import open_runtime
from graphmem import GraphMem

HERE = Path(__file__).parent
VENV = HERE.parent / ".peers-venv"
PEER = "vayl-mcp==0.10.0"
PLOT = HERE.parent / "peers.png"
ACTIVE_READ = ("MATCH (f:Fact {space: $space, subject: $subject}) WHERE f.status = 'ACTIVE'"
               " RETURN f.id AS id, f.value AS value")


def peer_python() -> Path:
    """The peer venv's interpreter, the venv created and the peer installed on first use."""
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {VENV} and installing {PEER} (first run only)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    probe = subprocess.run([str(python), "-c", "import vayl"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", PEER], check=True)
    return python


def run_vayl(sizes: list[int], window: int, lookups: int, streamed: bool
             ) -> list[dict[str, Any]]:
    python = peer_python()
    with tempfile.TemporaryDirectory(prefix="bench-peers-vayl-") as folder:
        args = json.dumps({"sizes": sizes, "window": window, "lookups": lookups,
                           "dir": folder, "seed": 1, "stream": streamed})
        env = {**os.environ, "VAYL_TELEMETRY": "0"}
        out = subprocess.run([str(python), str(HERE / "vayl_driver.py"), args], check=True,
                             capture_output=True, text=True, env=env, cwd=folder)
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    for r in rows:
        print(f"vayl     {r['size']:>7}: {r['writes_per_s']:7.0f} writes/s  p50"
              f" {r['p50']:.2f} ms  lookup {r['lookup_p50']:.2f} ms", flush=True)
    return rows


def run_graphmem(sizes: list[int], window: int, lookups: int, streamed: bool
                 ) -> list[dict[str, Any]]:
    runtime = open_runtime()
    tag = uuid.uuid4().hex[:8]
    rows: list[dict[str, Any]] = []
    try:
        with Floor(runtime.settings, f"bench-peers-floor-{tag}") as floor, \
                GraphMem(space=f"bench-peers-{tag}", runtime=runtime) as mem:
            stream, written = workload.facts(1), 0
            for size in sizes:
                if not streamed:
                    w = min(window, size)
                    while written < size - w:
                        n = min(500, size - w - written)
                        mem.remember_facts([next(stream) for _ in range(n)])
                        written += n
                    mem.records.wait_for_embeddings(300)
                times, two, one = [], [], []
                spent = 0.0
                t0 = time.perf_counter()
                while written < size:
                    fact = next(stream)
                    t = time.perf_counter()
                    mem.remember_facts([fact])
                    times.append(time.perf_counter() - t)
                    written += 1
                    t = time.perf_counter()
                    floor.two()
                    two.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    floor.one()
                    one.append(time.perf_counter() - t)
                    spent += two[-1] + one[-1]
                total = time.perf_counter() - t0 - spent
                found, history, raw = [], [], []
                for subject in workload.subjects(size, size)[:lookups]:
                    t = time.perf_counter()
                    mem.active(subject)
                    found.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    mem.history(subject)
                    history.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    floor.read(ACTIVE_READ, space=mem.space.key, subject=subject)
                    raw.append(time.perf_counter() - t)
                rows.append({"size": size, "writes_per_s": len(times) / total,
                             "p50": percentile(times, 50) * 1e3,
                             "p99": percentile(times, 99) * 1e3,
                             "lookup_p50": percentile(found, 50) * 1e3,
                             "history_p50": percentile(history, 50) * 1e3,
                             "floor_one": percentile(one, 50) * 1e3,
                             "floor_two": percentile(two, 50) * 1e3,
                             "raw_read": percentile(raw, 50) * 1e3})
                r = rows[-1]
                print(f"graphmem {size:>7}: {r['writes_per_s']:7.0f} writes/s  p50"
                      f" {r['p50']:.2f} ms (floor {r['floor_two']:.2f})  lookup"
                      f" {r['lookup_p50']:.2f} ms (raw {r['raw_read']:.2f})", flush=True)
    finally:
        runtime.close()
    return rows


def plot(graphmem: list[dict[str, Any]], vayl: list[dict[str, Any]], load: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot([r["size"] for r in graphmem], [r["p50"] for r in graphmem], "o-",
            label="graphmem remember_facts (1 fact)")
    ax.plot([r["size"] for r in vayl], [r["p50"] for r in vayl], "s-",
            label="Vayl 0.10.0 (1 fact, extraction skipped)")
    ax.plot([r["size"] for r in graphmem], [r["floor_two"] for r in graphmem], "--",
            color="grey", label="raw Neo4j, 2-statement write transaction")
    ax.set_xscale("log")
    ax.set_yscale("log")  # Vayl's cost grows by orders of magnitude
    ax.set_xlabel("facts in the space")
    ax.set_ylabel("per-write p50 (ms, log scale)")
    ax.set_title(f"Per-write cost against space size ({load})", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(PLOT, dpi=110)
    plt.close(fig)


def report(graphmem: list[dict[str, Any]], vayl: list[dict[str, Any]], load: str,
           streamed: bool = False) -> str:
    peer = {r["size"]: r for r in vayl}
    mode = ("Streamed: every fact one call each from an empty space, nothing drained between"
            " writes; a size's figures are those of the writes since the previous size."
            if streamed else "Window: each space grown in batches to within one window, the"
            " embedding queue drained, then the window's single writes timed.")
    lines = [f"{load}: figures are not final; each ratio is of one run.", "", mode, "",
             "| space | system | writes/s | write p50 (ms) | write p99 (ms) |"
             " current-value lookup p50 (ms) | history p50 (ms) |",
             "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    for g in graphmem:
        for name, r in (("graphmem", g), ("Vayl", peer.get(g["size"]))):
            if r is None:
                continue
            lines.append(f"| {g['size']:,} | {name} | {r['writes_per_s']:,.0f} | {r['p50']:.2f}"
                         f" | {r['p99']:.2f} | {r['lookup_p50']:.2f} | {r['history_p50']:.2f} |")
        lines.append(f"| {g['size']:,} | raw Neo4j floor | | 1 stmt {g['floor_one']:.2f},"
                     f" 2 stmts {g['floor_two']:.2f} | | indexed read {g['raw_read']:.2f} | |")
    lines += ["", "Ratios (graphmem ÷ floor, graphmem ÷ Vayl; < 1 means graphmem is ahead):", ""]
    for g in graphmem:
        v = peer.get(g["size"])
        parts = [f"write p50 ÷ 2-statement floor **{g['p50'] / g['floor_two']:.2f}×**",
                 f"write p50 ÷ 1-statement floor **{g['p50'] / g['floor_one']:.2f}×**",
                 f"lookup ÷ raw indexed read **{g['lookup_p50'] / g['raw_read']:.2f}×**"]
        if v is not None:
            parts += [f"writes/s graphmem ÷ Vayl **{g['writes_per_s'] / v['writes_per_s']:.2f}×**",
                      f"lookup p50 graphmem ÷ Vayl **{g['lookup_p50'] / v['lookup_p50']:.2f}×**",
                      f"history p50 graphmem ÷ Vayl"
                      f" **{g['history_p50'] / v['history_p50']:.2f}×**"]
        lines.append(f"- {g['size']:,} facts: " + "; ".join(parts) + ".")
    lines += ["", "Vayl's write is its `remember` tool after extraction: under the space lock,"
              " load the space's hot set, reconcile the fact (`_apply`), save (embedding the new"
              " rows). Its lookup loads the hot set and picks the subject's active facts; its"
              " history reads the subject's rows. graphmem's are `remember_facts`, `active("
              "subject)` and `history(subject)` of the Python API."]
    if not streamed:
        lines += ["", f"![per-write cost against space size]({PLOT.name})"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--graphmem-extra", default="",
                        help="further sizes for graphmem only, e.g. 100000")
    parser.add_argument("--window", type=int, default=200, help="single writes timed per size")
    parser.add_argument("--lookups", type=int, default=100)
    parser.add_argument("--stream", action="store_true",
                        help="every fact one call each from an empty space, nothing drained")
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    extra = sorted(int(s) for s in args.graphmem_extra.split(",") if s)
    load0 = os.getloadavg()[0]
    vayl = run_vayl(sizes, args.window, args.lookups, args.stream)
    graphmem = run_graphmem(sorted(set(sizes + extra)), args.window, args.lookups, args.stream)
    load = (f"shared machine, load average {load0:.1f} at start, {os.getloadavg()[0]:.1f} at"
            f" end, {os.cpu_count()} cores")
    body = report(graphmem, vayl, load, args.stream)
    print(body)
    if not args.no_save:
        if not args.stream:
            plot(graphmem, vayl, load)
        flags = f" --graphmem-extra {args.graphmem_extra}" if extra else ""
        flags += " --stream" if args.stream else f" --window {args.window}"
        write_section("peers: streamed" if args.stream else "peers",
                      f"Command: `python -m bench.peers --sizes {args.sizes}"
                      f" --lookups {args.lookups}{flags}`\n\n{body}")


if __name__ == "__main__":
    main()
