#!/usr/bin/env bash
# The Postgres the test suite uses when GRAPHMEM_TEST_POSTGRES_URL is unset:
# postgresql://graphmem:graphmem@127.0.0.1:5432/graphmem_test. Already reachable: nothing to
# do. Otherwise, on Debian as root, install it from Debian packages, start the cluster and
# create the role and databases; anywhere else, say what to do.
set -euo pipefail

if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432 \
   && PGPASSWORD=graphmem psql -h 127.0.0.1 -U graphmem -d graphmem_test -qAtc 'SELECT 1' \
      >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  cat >&2 <<'MSG'
The Postgres tests need a server. Either set GRAPHMEM_TEST_POSTGRES_URL to a database the
tests may create schemas in, or run a local Postgres with role graphmem (password graphmem)
owning a database graphmem_test on 127.0.0.1:5432, or deselect them:
  make test PYTEST_ARGS='-m "not postgres"'
MSG
  exit 1
fi
if ! command -v pg_createcluster >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {f=1} END {exit !f}'; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main status >/dev/null 2>&1 || pg_ctlcluster "$version" main start
pg_isready -q -h 127.0.0.1 -p 5432 -t 60
(cd / && runuser -u postgres -- psql -p 5432 -v ON_ERROR_STOP=1 -q) <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'graphmem') THEN
    CREATE ROLE graphmem LOGIN PASSWORD 'graphmem';
  END IF;
END $$;
SELECT 'CREATE DATABASE graphmem OWNER graphmem'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'graphmem')\gexec
SELECT 'CREATE DATABASE graphmem_test OWNER graphmem'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'graphmem_test')\gexec
SQL
echo "postgres $version ready on 127.0.0.1:5432 for the tests"
