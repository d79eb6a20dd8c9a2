"""What a client may learn about the server it talks to: its version, whether a model is
configured (so `remember(text)` can work), and where the managed Neo4j's Browser is."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem import __version__
from graphmem.settings import Settings


@dataclass(frozen=True)
class ServerInfo:
    version: str
    llm_configured: bool
    neo4j_browser_url: str


def neo4j_browser_url(settings: Settings) -> str:
    """The managed Neo4j's Browser, for "open in Neo4j Browser" links; empty with an external
    Neo4j (graphmem does not know where its Browser is)."""
    if not settings.managed_neo4j:
        return ""
    return f"http://127.0.0.1:{settings.neo4j_http_port}/browser/"


def server_info(settings: Settings) -> ServerInfo:
    return ServerInfo(__version__, settings.llm_configured, neo4j_browser_url(settings))
