"""The secret mixed into every API key digest, so a copied key table alone verifies nothing.

GRAPHMEM_API_KEY_PEPPER wins; otherwise a random pepper is generated once under the data
directory (every worker and host sharing the relational store must share it).
"""

from __future__ import annotations

import secrets

from graphmem.errors import ConfigError
from graphmem.secret_files import write_secret
from graphmem.settings import Settings

PEPPER_FILE = "api_key.pepper"


def load_pepper(settings: Settings) -> bytes:
    if settings.api_key_pepper is not None:
        return settings.api_key_pepper.get_secret_value().encode()
    path = settings.home / PEPPER_FILE
    if not path.exists():
        write_secret(path, secrets.token_hex(32))
    try:
        text = path.read_text().strip()
    except OSError as e:
        raise ConfigError(f"cannot read the API key pepper {path}: {e}") from e
    if len(text) < 32:
        raise ConfigError(f"the API key pepper {path} is too short: restore it, or set"
                          " GRAPHMEM_API_KEY_PEPPER (existing keys stop working if it changes)")
    return text.encode()
