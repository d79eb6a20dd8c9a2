"""The `graphmem` command line: every command, with one error-handling wrapper."""

from graphmem.cli.main import app, main

__all__ = ["app", "main"]
