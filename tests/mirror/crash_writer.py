"""The writer the crash test kills: a zygote that imports graphmem once, then forks one child
per trial on request; the child writes in a loop and prints `ack <fact id>` for every fact
remember_facts returned, until SIGKILL. Settings come from the environment.

The lines of one trial come in one order: `pid N` (the zygote prints it before the child may
print anything), `ready`, `ack …` lines, then `reaped N signal 9` (or `exit 0` after an
`error …` line) once the zygote has waited for the child.

The child widens the two windows that matter: between the Neo4j commit and the mirror
apply (a write notifies the drainer a little late), and between the relational commit and
marking the entry done in the graph.

    python crash_writer.py SPACE      (stdin: one trial number per line)
"""

from __future__ import annotations

import logging
import os
import random
import sys
import time
from collections.abc import Sequence

import openai  # noqa: F401 - imported before forking, like everything else

from graphmem import GraphMem
from graphmem.embeddings import Embeddings, build_embeddings
from graphmem.graph import outbox
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import mirror as mirror_module
from graphmem.mirror.db import RelationalStore
from graphmem.runtime import Runtime
from graphmem.settings import load_settings


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())  # one write per line: lines never interleave


def widen_windows(rng: random.Random) -> None:
    mark_done, notify = outbox.mark_done, mirror_module.Mirror.notify

    def late_mark(graph: object, ids: object) -> None:
        time.sleep(rng.uniform(0, 0.02))
        mark_done(graph, ids)  # type: ignore[arg-type]

    def late_notify(self: mirror_module.Mirror, space: str,
                    entries: Sequence[outbox.OutboxEntry] = ()) -> None:
        time.sleep(rng.uniform(0, 0.02))
        notify(self, space, entries)

    outbox.mark_done = late_mark  # type: ignore[assignment]
    mirror_module.Mirror.notify = late_notify  # type: ignore[method-assign]


def child(space: str, trial: int, embedder: Embeddings) -> None:
    logging.disable(logging.WARNING)  # the embedder is off on purpose; stay quiet about it
    rng = random.Random(trial)
    widen_windows(rng)
    settings = load_settings()
    runtime = Runtime(settings, GraphDriver(settings), RelationalStore(settings.relational_url),
                      embedder=embedder)  # built before forking (its TLS setup is slow)
    mem = GraphMem(space, runtime=runtime)
    say("ready")
    for i in range(1_000_000):
        facts = [{"subject": f"s{(i + k) % 5}", "value": f"v{trial}-{i}-{k}",
                  "confidence": 0.9} for k in range(rng.choice((1, 1, 3)))]
        for result in mem.remember_facts(facts, source="crash"):
            say(f"ack {result.fact_id}")


def describe(status: int) -> str:
    """How a child ended, as waitpid reported it."""
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit {os.WEXITSTATUS(status)}"


def main() -> None:
    space = sys.argv[1]
    embedder = build_embeddings(load_settings())
    for line in sys.stdin:
        said, go = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(go)
            os.read(said, 1)  # the parent has printed `pid`: the child's lines come after it
            os.close(said)
            try:
                child(space, int(line), embedder)
            except BaseException as e:  # noqa: BLE001 - reported to the test, which fails
                say(f"error {e!r}")
            finally:
                os._exit(0)
        os.close(said)
        say(f"pid {pid}")
        os.write(go, b"!")
        os.close(go)
        _, status = os.waitpid(pid, 0)
        say(f"reaped {pid} {describe(status)}")


if __name__ == "__main__":
    main()
