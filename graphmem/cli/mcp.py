"""`graphmem mcp`: the MCP server over stdio, started by an agent host (Claude Desktop,
Claude Code, Cursor, …) as a subprocess."""

from __future__ import annotations

from typing import Annotated

import typer

from graphmem.cli.common import clean_errors
from graphmem.settings import load_settings


@clean_errors
def mcp_command(
    key: Annotated[str | None, typer.Option(
        "--key", help="Act with this API key (default: GRAPHMEM_API_KEY; without one, the"
                      " trusted local admin of the default tenant).")] = None,
) -> None:
    """Serve MCP over stdio for the one local client that started this process."""
    from graphmem.mcp.stdio import serve_stdio

    settings = load_settings()
    token = key or (settings.api_key.get_secret_value() if settings.api_key else None)
    serve_stdio(settings, token)
