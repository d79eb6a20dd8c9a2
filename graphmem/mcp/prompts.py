"""A prompt that tells an agent how to use the memory well."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

GUIDE = """You have a long-term memory (graphmem) that reconciles facts when they are written, \
so what it answers is what is true now. Use it like this (space: user_id={user_id!r}):

1. Before answering anything about the user, their project or past decisions, call `recall` \
with a plain question. Trust its answer over what you remember from earlier in the \
conversation; if it warns about OPEN CONFLICTS, say so rather than picking a side.
2. When the user states a durable fact or a change ("we moved from Redux to Zustand", \
"I'm allergic to penicillin", "we dropped Sentry"), call `remember` with their sentence as it \
is. Do not rephrase it or merge several messages; one call per message. If the server has no \
model configured, extract the facts yourself and call `remember_facts` (subject in \
snake_case, value, and for a change of a former value action SUPERSEDE).
3. Do not store chatter, questions, hypotheticals ("maybe we should try Jotai?") or what \
you inferred; memory should hold what the user asserted.
4. When something stops being true, call `forget` with the user's sentence.
5. Read the result lines: `Stored: [SUPERSEDE] …` replaced a value, `[FLAG]` means a \
person must review it (see `pending_changes` and `list_conflicts`); never retry a flagged \
write to force it through.
6. Before acting on a remembered value that matters (sending, paying, prescribing), call \
`check_before_act` with its subjects and follow its verdict; afterwards `record_decision` \
keeps a signed snapshot of what you relied on.
7. Use `history` for how a value changed over time, and `recall` with `as_of` for what \
memory held at a past moment."""


def register(server: MCPServer[Any]) -> None:
    @server.prompt(name="use_memory", title="Using graphmem memory well",
                   description="How an agent should recall, remember and forget with graphmem.")
    def use_memory(user_id: str = "default") -> str:
        return GUIDE.format(user_id=user_id)
