#!/usr/bin/env bash
# The secrets a Compose file needs, generated on first use: NEO4J_PASSWORD and
# POSTGRES_PASSWORD (docker-compose.yml), and with --cluster also what the hosts of
# deploy/cluster/docker-compose.yml share (GRAPHMEM_API_KEY_PEPPER, GRAPHMEM_KEY,
# GRAPHMEM_KEY_SALT, GRAPHMEM_ENCRYPTION_KEY), appended to the .env beside the Compose file
# (mode 0600) when it does not set them yet; values already there are kept, so running this
# again changes nothing. Passwords are 32 random hex digits (URL-safe: the Postgres one goes
# into a URL); the encryption key is a Fernet key.
#   scripts/compose-env.sh [ENV_FILE] [--cluster]
set -euo pipefail

env_file=.env
names=(NEO4J_PASSWORD POSTGRES_PASSWORD)
for arg in "$@"; do
  case "$arg" in
    --cluster) names+=(GRAPHMEM_API_KEY_PEPPER GRAPHMEM_KEY GRAPHMEM_KEY_SALT GRAPHMEM_ENCRYPTION_KEY) ;;
    *) env_file=$arg ;;
  esac
done

secret() {  # secret NAME: a fresh value of the kind NAME needs
  case "$1" in
    GRAPHMEM_ENCRYPTION_KEY) head -c 32 /dev/urandom | base64 | tr '+/' '-_' ;;
    GRAPHMEM_API_KEY_PEPPER|GRAPHMEM_KEY) od -An -N32 -tx1 /dev/urandom | tr -d ' \n' ;;
    *) od -An -N16 -tx1 /dev/urandom | tr -d ' \n' ;;
  esac
}

umask 077
touch "$env_file"
chmod 600 "$env_file"
for name in "${names[@]}"; do
  if ! grep -q "^${name}=." "$env_file"; then
    value=$(secret "$name")
    [ -z "$(tail -c1 "$env_file")" ] || echo >> "$env_file"
    echo "${name}=${value}" >> "$env_file"
    echo "compose-env: wrote a new ${name} to ${env_file}" >&2
  fi
done
