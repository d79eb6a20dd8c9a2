"""The managed server's jars: the files `jars.lock` names, fetched in parallel, each checked
against its SHA-256.

A jar already in the local Maven repository (`~/.m2/repository`) is copied from there;
the rest come from GRAPHMEM_MAVEN_REPOSITORY (Maven Central by default). The lock is made
from `pom.xml` by `scripts/lock_neo4j_jars.py`.
"""

from __future__ import annotations

import hashlib
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import httpx

from graphmem.errors import ManagedNeo4jError

PARALLEL = 8
LOCAL_REPOSITORY = Path.home() / ".m2" / "repository"


@dataclass(frozen=True)
class Jar:
    group: str
    artifact: str
    version: str
    classifier: str
    sha256: str

    @property
    def file_name(self) -> str:
        suffix = f"-{self.classifier}" if self.classifier else ""
        return f"{self.artifact}-{self.version}{suffix}.jar"

    @property
    def path(self) -> str:
        """Where the jar sits in a Maven repository."""
        return f"{self.group.replace('.', '/')}/{self.artifact}/{self.version}/{self.file_name}"


def parse_lock(text: str) -> list[Jar]:
    jars = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        coordinates, digest = line.split()
        group, artifact, version, *rest = coordinates.split(":")
        jars.append(Jar(group, artifact, version, rest[0] if rest else "", digest))
    return jars


def locked_jars() -> list[Jar]:
    return parse_lock(resources.files("graphmem.neo4j_local").joinpath("jars.lock").read_text())


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _local_copy(jar: Jar, target: Path) -> bool:
    cached = LOCAL_REPOSITORY / jar.path
    if not cached.is_file():
        return False
    data = cached.read_bytes()
    if _digest(data) != jar.sha256:
        return False
    target.write_bytes(data)
    return True


def _download(client: httpx.Client, repository: str, jar: Jar, target: Path) -> None:
    url = f"{repository.rstrip('/')}/{jar.path}"
    try:
        reply = client.get(url)
        reply.raise_for_status()
    except httpx.HTTPError as e:
        raise ManagedNeo4jError(f"could not fetch {url}: {e}") from e
    if _digest(reply.content) != jar.sha256:
        raise ManagedNeo4jError(f"{url} does not match the SHA-256 in jars.lock")
    target.write_bytes(reply.content)


def fetch(repository: str, lib: Path) -> int:
    """Fill `lib` with every locked jar (staged beside it, then moved into place)."""
    staging = lib.with_name(lib.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    jars = locked_jars()
    with httpx.Client(timeout=120.0, follow_redirects=True) as client:
        def one(jar: Jar) -> None:
            target = staging / jar.file_name
            if not _local_copy(jar, target):
                _download(client, repository, jar, target)

        with ThreadPoolExecutor(PARALLEL) as pool:
            list(pool.map(one, jars))
    shutil.rmtree(lib, ignore_errors=True)
    staging.rename(lib)
    return len(jars)
