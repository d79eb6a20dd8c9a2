#!/usr/bin/env bash
# The test suite through Neo4j's routing scheme: the suite's own managed server (under
# .graphmem-test/, on the ports the suite keeps for it) installed and started as the suite
# starts it, then pytest with GRAPHMEM_NEO4J_URI=neo4j://… and that server's credentials, so
# every statement goes through the routing driver a cluster needs (routing table, read and
# write transactions routed by access mode). Extra arguments go to pytest.
set -euo pipefail

BIN=${BIN:-.venv/bin}
exports=$("$BIN/python" - <<'PY'
import shlex
import sys

sys.path.insert(0, "tests")
from support import isolation  # noqa: E402

from graphmem.neo4j_local.manager import LocalNeo4j  # noqa: E402
from graphmem.settings import load_settings  # noqa: E402

developer = isolation.enter()
settings = load_settings()
with isolation.exclusive("neo4j"):
    isolation.share_jars(settings, developer)
    local = LocalNeo4j(settings)
    if not local.status().installed or not settings.password_file.exists():
        local.install()
    local.start()
user, password = settings.neo4j_auth()
for name, value in (("GRAPHMEM_NEO4J_URI", f"neo4j://127.0.0.1:{settings.neo4j_bolt_port}"),
                    ("GRAPHMEM_NEO4J_USER", user), ("GRAPHMEM_NEO4J_PASSWORD", password),
                    ("GRAPHMEM_NEO4J_DATABASE", settings.neo4j_database)):
    print(f"export {name}={shlex.quote(value)}")
PY
)
eval "$exports"
exec "$BIN/pytest" "$@"
