#!/usr/bin/env bash
# The test suite through Neo4j's routing scheme: the suite's own managed server (under
# .graphmem-test/) started, then pytest with GRAPHMEM_NEO4J_URI=neo4j://… and that server's
# credentials, so every statement goes through the routing driver a cluster needs (routing
# table, read and write transactions routed by access mode). Extra arguments go to pytest.
set -euo pipefail

BIN=${BIN:-.venv/bin}
export GRAPHMEM_HOME=.graphmem-test
"$BIN/graphmem" neo4j start >/dev/null
eval "$("$BIN/python" - <<'PY'
import shlex
from graphmem.settings import Settings
settings = Settings()
user, password = settings.neo4j_auth()
print(f"export GRAPHMEM_NEO4J_URI=neo4j://127.0.0.1:{settings.neo4j_bolt_port}")
print(f"export GRAPHMEM_NEO4J_USER={shlex.quote(user)}")
print(f"export GRAPHMEM_NEO4J_PASSWORD={shlex.quote(password)}")
print(f"export GRAPHMEM_NEO4J_DATABASE={shlex.quote(settings.neo4j_database)}")
PY
)"
unset GRAPHMEM_HOME
exec "$BIN/pytest" "$@"
