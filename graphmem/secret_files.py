"""Secret files under the home (the API key pepper, the generated signing and data keys):
written whole or not at all, readable by the owner only."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_secret(path: Path, text: str, *, replace: bool = False) -> None:
    """Write `text` to `path` (mode 0600) through a private temporary file. Without `replace`
    the first writer wins: a racing process either links its file first or keeps the file it
    finds; with `replace` the new file takes the old one's place atomically."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text + "\n")
    if replace:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        tmp.unlink()
