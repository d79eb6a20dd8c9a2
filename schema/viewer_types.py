"""The caller as its key describes it, and the server it talks to: what a frontend reads at
sign-in to show only the controls the key may use and the features the server offers."""

from __future__ import annotations

import strawberry

from graphmem.model.principals import Principal
from graphmem.service.server_info import ServerInfo as ModelServerInfo


@strawberry.type(description="Who is calling: the key's principal, its tenant, role,"
                             " capabilities and the spaces it may reach.")
class Viewer:
    name: str
    tenant: str
    role: str
    capabilities: list[str] = strawberry.field(description="read, write, delete, verify,"
                                                           " approve, admin: what the role"
                                                           " allows.")
    allowed_spaces: list[str] | None = strawberry.field(
        description="The prefixes of `user/agent/run` the key is limited to (`alice`,"
                    " `alice/bot`); null: every space of the tenant.")
    tenant_wide: bool = strawberry.field(description="No space limit: tenant-wide fields"
                                                     " (spaces, the audit log) are open to"
                                                     " it.")
    key_id: strawberry.ID | None = strawberry.field(description="The key's id as `graphmem"
                                                                " keys list` shows it (null"
                                                                " in keyless local mode).")
    local: bool = strawberry.field(description="The keyless caller of local mode.")

    @classmethod
    def from_model(cls, p: Principal) -> Viewer:
        return cls(name=p.name, tenant=p.tenant, role=p.role,
                   capabilities=sorted(p.capabilities),
                   allowed_spaces=None if p.spaces is None else list(p.spaces),
                   tenant_wide=p.tenant_wide,
                   key_id=None if p.key_id is None else strawberry.ID(p.key_id), local=p.local)


@strawberry.type(description="The server: its version and what it offers.")
class ServerInfo:
    version: str
    llm_configured: bool = strawberry.field(description="A model is configured: `remember`"
                                                        " and `forget` extract from text.")
    neo4j_browser_url: str = strawberry.field(description="The managed Neo4j's Browser;"
                                                          " empty when graphmem uses a Neo4j"
                                                          " it does not manage.")

    @classmethod
    def from_model(cls, s: ModelServerInfo) -> ServerInfo:
        return cls(version=s.version, llm_configured=s.llm_configured,
                   neo4j_browser_url=s.neo4j_browser_url)
