"""A space's retention period, as the relational store holds it (seconds)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.mirror.db import RelationalStore


def store_period(store: RelationalStore, space: str, seconds: float | None) -> None:
    """Set the space's period (None removes it, so the deployment's default applies)."""
    with store.transaction() as cur:
        cur.execute("DELETE FROM retention WHERE space = ?", (space,))
        if seconds is not None:
            cur.execute("INSERT INTO retention (space, seconds, set_at) VALUES (?, ?, ?)",
                        (space, seconds, datetime.now(UTC).isoformat()))


def period(store: RelationalStore, space: str) -> float | None:
    """The space's own period in seconds, None when it has none."""
    rows = store.query("SELECT seconds FROM retention WHERE space = ?", (space,))
    return float(rows[0][0]) if rows else None
