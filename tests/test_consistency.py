"""A consistency token names the bookmarks of a write; anything graphmem did not issue is
refused with one clear error, before any store is asked."""

from __future__ import annotations

import base64
import json

import pytest

from graphmem import consistency
from graphmem.errors import InvalidInput


def forged(*bookmarks: str) -> str:
    raw = json.dumps(list(bookmarks)).encode()
    return consistency.PREFIX + base64.urlsafe_b64encode(raw).decode()


def test_a_token_round_trips_and_anything_else_is_refused() -> None:
    token = consistency.encode({"FB:a", "FB:b"})
    assert consistency.decode(token) == {"FB:a", "FB:b"}
    for bad in ("", "FB:a", "gm1.!!!", consistency.PREFIX + "e30", "gm1." + "A" * 9000,
                forged(*["x"] * 65), forged("")):
        with pytest.raises(InvalidInput, match="consistency token"):
            consistency.decode(bad)
