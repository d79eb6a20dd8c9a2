"""The MCP server: graphmem as the memory of any agent host (Model Context Protocol).

Built on the official `mcp` SDK's `MCPServer`: every tool is a typed function (its input
schema is generated from the signature) that makes one call of `GraphMem` after the service
layer's guard has admitted the caller (`graphmem.service.guard`, the same checks GraphQL
uses). Two transports: `graphmem mcp` runs it over stdio for one local client
(`graphmem.mcp.stdio`), and `graphmem serve` mounts it at `/mcp` as streamable HTTP behind the
API's middlewares (`graphmem.http.mcp`).
"""

from graphmem.mcp.host import Host, Who
from graphmem.mcp.server import build_server

__all__ = ["Host", "Who", "build_server"]
