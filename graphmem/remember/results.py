"""The result strings of remember/forget (docs/concepts/actions.md).

Callers parse these lines, so they are fixed text built in one place.
"""

from __future__ import annotations

from graphmem.model import Action, Decision

__all__ = [
    "NOTHING_TO_RETRACT",
    "NO_FACTS",
    "SKIP_PREFIX",
    "rejected_message",
    "result_message",
    "retracted_value",
    "stored_message",
    "tombstone",
]

NOTHING_TO_RETRACT = "Nothing matching to retract (that fact isn't currently stored)."
NO_FACTS = "No durable fact found (looked like chatter or a question)."
SKIP_PREFIX = "Not stored (hypothetical, sarcasm, or nothing to change)"

_TOMBSTONE_OPEN = "(retracted: "
_TOMBSTONE_CLOSE = ")"


def tombstone(value: str) -> str:
    """The value a retraction tombstone holds: `(retracted: X)`."""
    return f"{_TOMBSTONE_OPEN}{value}{_TOMBSTONE_CLOSE}"


def retracted_value(value: str) -> str:
    """The retracted value inside a tombstone; any other value is returned unchanged."""
    if value.startswith(_TOMBSTONE_OPEN) and value.endswith(_TOMBSTONE_CLOSE):
        return value[len(_TOMBSTONE_OPEN) : -len(_TOMBSTONE_CLOSE)]
    return value


def stored_message(action: Action, subject: str, value: str) -> str:
    """`Stored: [ACTION] subject = value`; a RETRACT shows what it retired."""
    shown = retracted_value(value) if action == Action.RETRACT else value
    return f"Stored: [{action.value}] {subject} = {shown}"


def rejected_message(action: Action, subject: str, value: str) -> str:
    """A rejected proposal: what it would have done, now kept as history."""
    return f"Rejected: [{action.value}] {subject} = {value}"


def result_message(d: Decision) -> str:
    """`Stored: [ACTION] subject = value`, or the SKIP line; a RETRACT shows what it retired."""
    if d.action == Action.SKIP:
        return f"{SKIP_PREFIX}: {d.subject} = {d.value}"
    return stored_message(d.action, d.subject, d.value)
