"""bench/redaction: how well redaction finds secrets, and what it costs a write.

    python -m bench.redaction                 # the corpus, then 300 single-fact writes a mode
    python -m bench.redaction --writes 500

The corpus is the redaction test's (tests/support/redaction_corpus.py): secrets in the
formats their vendors document, generated card numbers and IBANs, connection strings, e-mail
addresses and phone numbers, and 1,000 negatives from the project's own fixtures. Reported:
recall per kind and false positives, for each mode; the detectors' time per text; and the
p50 of a single-fact write through `remember_facts` (the real model embedding in the
background) with redaction off, `secrets` and `personal`, the modes interleaved write by
write over three spaces of one runtime, so noise falls on all three alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from types import ModuleType

from bench.api.__main__ import open_scratch
from bench.results import median, percentile, write_section
from graphmem import GraphMem
from graphmem.remember.redact import Redactor

MODES = ("off", "secrets", "personal")


def corpus() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tests" / "support" / "redaction_corpus.py"
    spec = importlib.util.spec_from_file_location("redaction_corpus", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def survives(redactor: Redactor, value: str, text: str) -> bool:
    out = redactor.text(text)[0]
    return value in out or any(value[i:i + 8] in out for i in range(max(1, len(value) - 7)))


def quality(c: ModuleType) -> tuple[str, dict[str, float]]:
    positives, negatives = c.positives(), c.negatives()
    rows, per_text = [], {}
    for mode in ("secrets", "personal"):
        redactor = Redactor.of(mode)
        by_kind: dict[str, list[bool]] = defaultdict(list)
        for p in positives:
            by_kind["personal" if p.kind in c.PERSONAL else "secret"].append(
                not survives(redactor, p.value, p.text))
        started = time.perf_counter()
        flagged = sum(redactor.text(t)[0] != t for t in negatives)
        for p in positives:
            redactor.text(p.text)
        per_text[mode] = (time.perf_counter() - started) / (len(negatives) + len(positives))
        secret = by_kind["secret"]
        personal = by_kind["personal"]
        rows.append(f"| {mode} | {sum(secret)}/{len(secret)} = **{sum(secret) / len(secret):.3f}**"
                    f" | {sum(personal)}/{len(personal)} | {flagged}/{len(negatives)} ="
                    f" **{flagged / len(negatives):.1%}** | {per_text[mode] * 1e3:.3f} ms |")
    table = ("| mode | secret kinds found (recall) | personal kinds found | negatives changed"
             " (false positives) | detectors per text |\n| --- | ---: | ---: | ---: | ---: |\n"
             + "\n".join(rows))
    return table, per_text


def writes(c: ModuleType, count: int) -> dict[str, list[float]]:
    _, runtime = open_scratch("redaction")
    positives, negatives = c.positives(), c.negatives()
    rng = random.Random(5)
    values = [rng.choice(positives).shown if rng.random() < 0.1 else rng.choice(negatives)
              for _ in range(count)]
    stamp = time.time_ns()
    keys = {mode: f"bench-redaction/r{stamp}{mode}/a/r" for mode in MODES}
    settings = runtime.settings.model_copy(
        update={"redaction_overrides": {key: mode for mode, key in keys.items()}})
    mems = {mode: GraphMem(space=key, runtime=runtime, settings=settings)
            for mode, key in keys.items()}
    for mem in mems.values():  # the first write of a space builds its state
        mem.remember_facts([{"subject": "warm", "value": "up", "confidence": 0.9}])
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    for i, value in enumerate(values):
        for mode in (MODES if i % 2 else MODES[::-1]):
            started = time.perf_counter()
            mems[mode].remember_facts([{"subject": f"note_{i}", "value": value,
                                        "confidence": 0.9}])
            times[mode].append(time.perf_counter() - started)
    for mem in mems.values():
        mem.records.wait_for_embeddings(600)
        mem.close()
    runtime.close()
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.redaction")
    parser.add_argument("--writes", type=int, default=300, help="single-fact writes a mode")
    args = parser.parse_args(argv)
    c = corpus()
    load = os.getloadavg()[0]
    table, per_text = quality(c)
    times = writes(c, args.writes)
    load_end = os.getloadavg()[0]
    off = median(times["off"])
    rows = "\n".join(
        f"| {mode} | {median(times[mode]) * 1e3:.2f} ms | {percentile(times[mode], 99) * 1e3:.2f}"
        f" ms | **{median(times[mode]) / off:.2f}×** |" for mode in MODES)
    body = f"""Command: `python -m bench.redaction --writes {args.writes}`; load average {load:.1f}
at the start and {load_end:.1f} at the end, {os.cpu_count()} cores.

The corpus (tests/support/redaction_corpus.py): {len(c.positives())} positives, of which
{sum(p.kind not in c.PERSONAL for p in c.positives())} of the secret kinds, and
{len(c.negatives()):,} negatives from the project's own fixtures. Targets: recall on the secret
kinds at least 0.99, false positives at most 1%.

{table}

A single-fact write through `remember_facts` (one in ten carries a secret), the three modes
interleaved write by write, {args.writes} writes each, the real model embedding in the
background:

| mode | p50 | p99 | p50 ÷ off |
| --- | ---: | ---: | ---: |
{rows}

The detectors alone cost {per_text['secrets'] * 1e3:.3f} ms (`secrets`) and
{per_text['personal'] * 1e3:.3f} ms (`personal`) per text.
"""
    print(body)
    write_section("redaction", body)


if __name__ == "__main__":
    main()
