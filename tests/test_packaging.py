"""The wheel carries what graphmem reads at run time (cypher/, presets, the Neo4j pom).

Builds the wheel from a copy of the sources, installs it with `--no-deps` into a fresh venv,
and from there loads a Cypher statement through `graphmem.graph.statements`. The venv sees this
interpreter's site-packages for the dependencies (after its own, so the installed graphmem
wins over an editable one).
"""

from __future__ import annotations

import json
import shutil
import site
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "graphmem",
           "cypher", "schema", "resolvers")
# A built manual in the copy's site/: the wheel must carry it as graphmem/manual/
MANUAL_MARK = "graphmem manual, packaged"
PRESETS = {"assistant", "clinical", "coding", "finance", "sales", "support"}

pytestmark = pytest.mark.slow

PROBE = textwrap.dedent(
    """
    import json, sys
    from importlib import resources
    import graphmem
    from graphmem.graph.statements import query
    from graphmem.graph.migrations import migrations
    cypher = resources.files("graphmem.cypher")
    presets = resources.files("graphmem.slots.presets")
    local = resources.files("graphmem.neo4j_local")
    json.dump({
        "graphmem": graphmem.__file__,
        "cypher": str(cypher),
        "statement": query("migrations/version_get"),
        "spliced": query("facts/hot"),
        "migrations": [m.query_name for m in migrations()],
        "presets": sorted(p.name for p in presets.iterdir() if p.name.endswith(".json")),
        "preset_json": [json.loads(presets.joinpath(f"{n}.json").read_text())
                        for n in ("assistant", "clinical")],
        "neo4j_local": sorted(p.name for p in local.iterdir()),
    }, sys.stdout)
    """
)


def run(cmd: list[str], cwd: Path) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        elif path.exists():
            shutil.copy2(path, src / name)
    (src / "site" / "search").mkdir(parents=True)
    (src / "site" / "index.html").write_text(f"<!doctype html><title>{MANUAL_MARK}</title>")
    (src / "site" / "search" / "search_index.json").write_text("{}")
    dist = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(src)], src)
    (built,) = dist.glob("graphmem-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", "--system-site-packages", str(env)], env)
    python = env / "bin" / "python"
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                  env).strip()
    # Our dependencies, after the venv's own site-packages (no .pth of ours is processed there).
    (Path(purelib) / "graphmem-test-deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], env)
    return env


def test_wheel_installs_our_folders_inside_the_graphmem_namespace(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "graphmem/cypher/migrations/001_initial.cypher" in names
    assert "graphmem/cypher/fragments/fact_columns.cypher" in names
    assert "graphmem/neo4j_local/pom.xml" in names
    assert "graphmem/cypher/browser/style.grass" in names  # served to Neo4j Browser
    assert {f"graphmem/slots/presets/{p}.json" for p in PRESETS} <= set(names)
    top_level = {n.split("/")[0] for n in names if not n.startswith("graphmem-")}
    assert top_level == {"graphmem"}, "cypher/, schema/, resolvers/ must not install top-level"
    assert not [n for n in names if n.startswith(("graphmem/tests", "tests/"))]


def test_wheel_holds_every_package_of_the_source_tree(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {str(init.relative_to(ROOT)) for init in (ROOT / "graphmem").rglob("__init__.py")
                if "__pycache__" not in init.parts}
    assert packages, "no package found under graphmem/"
    assert not packages - names, "packages missing from pyproject's list"


def test_wheel_carries_the_built_manual(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"graphmem/manual/index.html", "graphmem/manual/search/search_index.json"} <= names


def test_installed_copy_serves_the_manual_at_docs(venv: Path) -> None:
    probe = textwrap.dedent(
        """
        import json, sys
        from starlette.applications import Starlette
        from starlette.testclient import TestClient
        from graphmem.http import docs
        reply = TestClient(Starlette(routes=docs.routes())).get("/docs/")
        json.dump({"status": reply.status_code, "text": reply.text,
                   "site": str(docs.built_site())}, sys.stdout)
        """
    )
    out = json.loads(run([str(venv / "bin" / "python"), "-c", probe], venv))
    assert out["status"] == 200, out["text"]
    assert MANUAL_MARK in out["text"]
    assert Path(out["site"]).is_relative_to(venv), out["site"]


def test_installed_copy_serves_cypher_and_presets(venv: Path) -> None:
    python = venv / "bin" / "python"
    out = json.loads(run([str(python), "-c", PROBE], venv))
    assert Path(out["graphmem"]).is_relative_to(venv), out["graphmem"]
    assert Path(out["cypher"]).is_relative_to(venv), out["cypher"]
    assert out["statement"] == (ROOT / "cypher/migrations/version_get.cypher").read_text()
    assert "@include" not in out["spliced"] and ".source_ref" in out["spliced"]
    assert "migrations/001_initial" in out["migrations"]
    assert {name.removesuffix(".json") for name in out["presets"]} == PRESETS
    assert all(isinstance(doc, dict) for doc in out["preset_json"])
    assert {"pom.xml", "neo4j.conf"} <= set(out["neo4j_local"])


def test_console_script_runs_from_the_installed_copy(venv: Path) -> None:
    out = run([str(venv / "bin" / "graphmem"), "--help"], venv)
    for command in ("serve", "neo4j", "migrate", "doctor"):
        assert command in out
