"""The reference pages are generated from the code: running the generator changes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_reference_pages_are_what_the_generator_writes_from_the_code() -> None:
    done = subprocess.run([sys.executable, "scripts/gen_docs.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
