"""Neo4j's transaction logs after an erasure: rotated, so that erased values leave the disk.

A transaction log keeps every change in clear, property values included (a deletion logs
what it deleted). Neo4j deletes a log file only when a checkpoint finds it complete and
older than what its retention policy keeps; it always keeps the latest file, and starts a
new one only when the current one passes `db.tx_log.rotation.size`. So after an erasure the
values can sit in the current file for as long as the database is quiet. `rotate` fills
the current file past that size with a pad (written, then removed: both logged) and commits
one more transaction in the new file. With the retention the managed server uses
(`keep_none`, graphmem/neo4j_local/neo4j.conf) the next checkpoint, at most
GRAPHMEM_NEO4J_CHECKPOINT_SECONDS later, deletes the file that held the erased values.

Against a server whose rotation size is large (Neo4j's default is 256 MiB) the pad would
cost too much: `rotate` then logs once that the logs keep erased values until the server
rotates and prunes them by itself, and does nothing.
"""

from __future__ import annotations

import logging
import re
import threading

from neo4j.exceptions import Neo4jError

from graphmem.graph.driver import GraphDriver

log = logging.getLogger(__name__)

MAX_PAD = 8 * 1024 * 1024
_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1024**2, "mb": 1024**2,
          "mib": 1024**2, "g": 1024**3, "gb": 1024**3, "gib": 1024**3}
_SIZE = re.compile(r"^\s*([\d.]+)\s*([a-zA-Z]*)\s*$")
_warned = threading.Event()


def parse_size(text: str) -> int | None:
    """A byte size as Neo4j prints it (`128.00KiB`, `1M`, `262144`); None when it is not."""
    match = _SIZE.match(text)
    if match is None or match.group(2).lower() not in _UNITS:
        return None
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def rotation_size(graph: GraphDriver) -> int | None:
    """The server's rotation size; None when it cannot be read (no privilege, say)."""
    try:
        rows = graph.read("txlog/rotation_size")
    except Neo4jError as e:
        log.info("cannot read db.tx_log.rotation.size (%s): transaction logs are not rotated"
                 " after erasures", e.message or e)
        return None
    return parse_size(str(rows[0]["value"])) if rows else None


def rotate(graph: GraphDriver) -> bool:
    """Start a new transaction log file, in three transactions; False when the server's
    rotation size makes that too costly (or unknown)."""
    size = rotation_size(graph)
    if size is None or size > MAX_PAD:
        if size is not None and not _warned.is_set():
            _warned.set()
            log.warning("Neo4j rotates transaction logs every %d bytes: erased values stay in"
                        " them until it rotates and a checkpoint prunes them (set"
                        " db.tx_log.rotation.size to 8M or less and retention to keep_none to"
                        " have erasures rotate them)", size)
        return False
    graph.write("txlog/pad", pad="." * (size + 1024))
    graph.write("txlog/unpad")
    graph.write("txlog/finish")
    return True
