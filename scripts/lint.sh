#!/usr/bin/env bash
# `make lint`: ruff over the sources and tests, then mypy --strict and import-linter over the
# package laid out as it installs. schema/, resolvers/ and cypher/ install inside graphmem/
# (pyproject's package-dir), a mapping the editable install hides from both tools, so they
# read a copy in .lint/site with that layout; their messages name the repository's files.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
site=.lint/site
pkg=$site/graphmem

sync() {  # sync SRC DST: DST becomes a copy of SRC (times kept, so mypy's cache holds)
  mkdir -p "$2"
  cp -a "$1/." "$2/"
  (cd "$1" && find . -name '*.py' -o -name '*.cypher' | sort) > .lint/src.list
  (cd "$2" && find . -name '*.py' -o -name '*.cypher' | sort) > .lint/dst.list
  comm -13 .lint/src.list .lint/dst.list | (cd "$2" && xargs -r rm -f)
}

mkdir -p .lint
sync graphmem "$pkg"
sync schema "$pkg/schema"
sync resolvers "$pkg/resolvers"
sync cypher "$pkg/cypher"
find "$site" -name __pycache__ -prune -exec rm -rf {} +

back() {
  sed -e "s|$pkg/schema/|schema/|g" -e "s|$pkg/resolvers/|resolvers/|g" \
      -e "s|$pkg/cypher/|cypher/|g" -e "s|$pkg/|graphmem/|g" \
      -e "s|^graphmem/schema/|schema/|" -e "s|^graphmem/resolvers/|resolvers/|"
}

status=0
echo "==> ruff"
"$BIN/ruff" check graphmem schema resolvers tests bench || status=1
echo "==> mypy --strict (graphmem, schema, resolvers)"
(cd "$site" && MYPYPATH=. "$OLDPWD/$BIN/mypy" --config-file "$OLDPWD/pyproject.toml" \
   --cache-dir "$OLDPWD/.lint/mypy_cache" -p graphmem) 2>&1 | back || status=1
echo "==> import-linter"
cp .importlinter "$site/"
(cd "$site" && PYTHONPATH=. "$OLDPWD/$BIN/lint-imports" --no-cache) 2>&1 \
  | sed -n '/^Contracts/,$p' | back || status=1
exit $status
