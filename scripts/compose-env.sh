#!/usr/bin/env bash
# The passwords docker-compose.yml needs, generated on first use: NEO4J_PASSWORD and
# POSTGRES_PASSWORD are appended to the .env beside docker-compose.yml (mode 0600) when it
# does not set them yet; values already there are kept, so running this again changes
# nothing. Each is 32 random hex digits (URL-safe: the Postgres one goes into a URL).
set -euo pipefail

env_file="${1:-.env}"
umask 077
touch "$env_file"
chmod 600 "$env_file"
for name in NEO4J_PASSWORD POSTGRES_PASSWORD; do
  if ! grep -q "^${name}=." "$env_file"; then
    value=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    [ -z "$(tail -c1 "$env_file")" ] || echo >> "$env_file"
    echo "${name}=${value}" >> "$env_file"
    echo "compose-env: wrote a new ${name} to ${env_file}" >&2
  fi
done
