"""Regenerate graphmem/neo4j_local/jars.lock from the pom beside it, with Maven.

Maven resolves Neo4j Community, its HTTP server and Neo4j Browser from Maven Central into a
scratch local repository; every jar the server's lib/ needs is then written to the lock as
`group:artifact:version[:classifier] sha256`. `graphmem neo4j install` fetches exactly those
files in parallel and checks each digest, so an install needs neither Maven nor its minute
and a half of sequential resolution. Run it after changing a version in the pom.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "graphmem" / "neo4j_local"


def coordinates(repo: Path, jar: Path) -> str:
    """group:artifact:version[:classifier] of a jar in a Maven repository layout."""
    parts = jar.relative_to(repo).parts
    version, artifact = parts[-2], parts[-3]
    group = ".".join(parts[:-3])
    classifier = jar.name[len(f"{artifact}-{version}"):-len(".jar")].lstrip("-")
    return ":".join([group, artifact, version] + ([classifier] if classifier else []))


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        repo, out = Path(scratch) / "m2", Path(scratch) / "lib"
        subprocess.run(["mvn", "-q", "-B", f"-Dmaven.repo.local={repo}", "-f",
                        str(HERE / "pom.xml"), "dependency:copy-dependencies",
                        f"-DoutputDirectory={out}", "-DincludeScope=runtime"], check=True)
        by_name = {p.name: p for p in repo.rglob("*.jar")}
        lines = []
        for name in sorted(p.name for p in out.iterdir()):
            jar = by_name[name]
            lines.append(f"{coordinates(repo, jar)} {hashlib.sha256(jar.read_bytes()).hexdigest()}")
    header = ("# The managed Neo4j's lib/: Maven coordinates and SHA-256 of every jar, resolved"
              " from pom.xml\n# by scripts/lock_neo4j_jars.py; `graphmem neo4j install` fetches"
              " exactly these.\n")
    (HERE / "jars.lock").write_text(header + "\n".join(lines) + "\n")
    print(f"{len(lines)} jars locked in {HERE / 'jars.lock'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
