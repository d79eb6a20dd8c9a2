"""bench/stages: where the server's CPU goes under bench.load, part by part, from a sampling
profile of its worker processes (py-spy, which reads the processes from outside).

    python -m bench.stages                      # profile a bench.load run (30 s), then report
    python -m bench.stages --profile prof.txt   # report an earlier profile

py-spy samples every thread of `graphmem serve`'s workers 50 times a second; a thread that
waits (on a socket, a condition, the event loop) is left out, and what the workers do once
at start-up is a part of its own. Each sample is put in the part of the server whose
code was running, the innermost known frame deciding (the Neo4j driver's code counts as the
driver even when the mirror called it). The shares are of the workers' CPU; multiply by the
server CPU per write that bench.load prints for milliseconds per write. The profiler slows
the server: compare shares, not rates.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench.results import write_section

# (part, frame patterns), innermost match first
PARTS: list[tuple[str, tuple[str, ...]]] = [
    ("embedding model (ONNX Runtime, tokenizer)", ("onnxruntime", "graphmem/embeddings/",
                                                  "tokenizers")),
    ("Neo4j driver (Bolt, packstream, sockets)", ("neo4j/",)),
    ("relational store (SQLite, psycopg)", ("sqlite3", "psycopg", "graphmem/mirror/db.py")),
    ("signing and hashing (audit chain, receipts)", ("cryptography/", "hashlib",
                                                     "graphmem/mirror/keys.py",
                                                     "graphmem/mirror/seal.py",
                                                     "graphmem/mirror/crypto.py")),
    ("mirror (outbox apply, audit rows, marks)", ("graphmem/mirror/",)),
    ("reconcile (pure rules)", ("graphmem/remember/reconcile.py", "graphmem/remember/approve.py",
                                "graphmem/remember/language.py", "graphmem/slots/")),
    ("redaction", ("graphmem/remember/redact.py",)),
    ("write path (remember/, graph/)", ("graphmem/remember/", "graphmem/graph/")),
    ("recall and embedding worker", ("graphmem/recall/",)),
    ("authentication (key check)", ("graphmem/auth/",)),
    ("service layer and guard", ("graphmem/service/", "resolvers/", "graphmem/admission.py",
                                 "graphmem/runtime.py")),
    ("GraphQL (parse, validate, execute, limits)", ("graphql/", "strawberry/", "schema/")),
    ("HTTP (uvicorn, starlette, middlewares)", ("uvicorn/", "starlette/", "h11/",
                                               "httptools", "graphmem/http/", "anyio/")),
    ("JSON, logging", ("json/", "logging/", "orjson")),
]
# the innermost frame of a thread that waits (py-spy's idle detection misses these, which
# wait in Python: a socket poll, a condition, an idle pool worker, the event loop)
WAITING = ("_wait_for_io (", "Condition.wait (", "Event.wait (", "_worker (concurrent/",
           "Runner.run (asyncio", "SpaceLocks.held (", "Queue.get (", "select (")
STARTING = ("importlib", "_open_session (", "make_graph (", "_create_inference_session (")
START = "start-up"
WORKER = "multiprocessing-fork"
LINE = re.compile(r"^(.*) (\d+)$")


def part_of(frames: list[str]) -> str | None:
    """The part of the server a sample's stack is in; None for a waiting thread."""
    if any(w in frames[-1] for w in WAITING):
        return None
    if any(s in f for f in frames for s in STARTING):
        return START
    for frame in reversed(frames):
        for part, patterns in PARTS:
            if any(p in frame for p in patterns):
                return part
    return "other (threads, asyncio, the interpreter)"


def shares(profile: Path) -> tuple[Counter[str], int]:
    found: Counter[str] = Counter()
    total = 0
    for line in profile.read_text(encoding="utf-8", errors="replace").splitlines():
        match = LINE.match(line)
        if match is None or WORKER not in match.group(1):
            continue
        frames = [f for f in match.group(1).split(";") if not f.startswith("process ")]
        part = part_of(frames)
        if part is not None:
            found[part] += int(match.group(2))
            total += int(match.group(2))
    return found, total


def record(out: Path, seconds: int) -> str:
    """Profile a bench.load run; returns the run's own summary line."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "py-spy"), "record", "--subprocesses",
         "--nonblocking", "--rate", "50", "--format", "raw", "-o", str(out), "--",
         sys.executable, "-m", "bench.load", "--warm", "30", "--seconds", str(seconds),
         "--no-results"],
        capture_output=True, text=True, check=True)
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    return "\n".join(rows[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", type=Path, help="a py-spy raw profile to report")
    parser.add_argument("--seconds", type=int, default=30)
    args = parser.parse_args()
    load = ""
    profile = args.profile
    if profile is None:
        profile = Path(tempfile.mkdtemp(prefix="bench-stages-")) / "profile.txt"
        load = record(profile, args.seconds)
    found, total = shares(profile)
    starting = found.pop(START, 0)
    busy = total - starting
    rows = ["| part of the server | share of its CPU |", "| --- | ---: |"]
    rows += [f"| {part} | {count / busy:.1%} |" for part, count in found.most_common()]
    text = "\n".join(rows) + (f"\n\n{busy:,} samples of the server's workers at work, and"
                              f" {starting:,} more at start-up (imports, the model's"
                              " session), left out of the shares.")
    if load:
        text = ("The profiled bench.load run (slowed by the profiler):\n\n" + load
                + "\n\n" + text)
    print(text)
    if args.profile is None:
        write_section("stages", "Command: `python -m bench.stages` (py-spy, 50 samples a"
                                " second, over `python -m bench.load --warm 30 --seconds"
                                f" {args.seconds}`).\n\n" + text)


if __name__ == "__main__":
    main()
