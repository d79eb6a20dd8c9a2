"""The web UI's build stays honest: operation types are what GraphQL Code Generator makes
from schema/schema.graphql, dependencies come from the npm registry through the lockfile,
no built bundle is committed, and every document it sends fits the server's limits."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from graphql import parse

from graphmem.schema import build_schema, paged_fields
from graphmem.schema.limits import Limits, assess, cost_rules
from graphmem.settings import Settings

from support.ui_support import ROOT, UI


def npm() -> str:
    found = shutil.which("npm")
    if found is None or not (UI / "node_modules").is_dir():
        pytest.fail("the UI's dependencies are not installed: run `make ui` (needs Node.js 20.19+"
                    " and npm)", pytrace=False)
    return found


def test_operation_types_are_generated_from_the_schema() -> None:
    run = subprocess.run([npm(), "run", "--silent", "codegen:check"], cwd=UI,
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, (
        "ui/src/gql/ differs from what schema/schema.graphql and the operations generate;"
        f" run `cd ui && npm run codegen`:\n{run.stdout}\n{run.stderr}")


def test_dependencies_are_locked_to_the_npm_registry() -> None:
    lock = json.loads((UI / "package-lock.json").read_text())
    assert lock["lockfileVersion"] >= 3
    packages = lock["packages"]
    assert packages[""]["dependencies"] and packages[""]["devDependencies"]
    for name, entry in packages.items():
        if not name:
            continue
        resolved = entry.get("resolved", "")
        assert not resolved or resolved.startswith("https://registry.npmjs.org/"), name
        assert entry.get("integrity", "").startswith("sha512-") or entry.get("link"), name
    manifest = json.loads((UI / "package.json").read_text())
    for spec in {**manifest["dependencies"], **manifest["devDependencies"]}.values():
        assert spec[0] in "^~0123456789", f"only registry versions, not {spec}"


def test_no_built_bundle_is_committed() -> None:
    listed = subprocess.run(["git", "ls-files", "ui/dist", "ui/node_modules"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    assert listed == ""


def test_every_document_the_explorer_sends_fits_the_server_s_default_limits() -> None:
    """A document over the cost budget is refused whole: the explorer's own must fit it
    with the default settings (its list fields times its `limit` count)."""
    schema = build_schema(Settings())
    limits = Limits(10, 30, Settings().api_max_complexity, paged_fields(schema), 100, 500)
    rules = cost_rules(schema._schema)
    sources = [p for p in (UI / "src").rglob("*.ts*") if "gql" not in p.parts]
    documents = [d for p in sources
                 for d in re.findall(r"graphql\(`(.*?)`\)", p.read_text(), re.S)]
    assert len(documents) > 10
    for document in documents:
        found = assess(parse(document), {}, limits, rules)
        assert not found.problems, (document[:80], found.problems)
