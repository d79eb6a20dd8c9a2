"""The benchmark's domains. `HELD_OUT` is the domain nothing was tuned on: its relation
labels and the words of its questions appear nowhere in graphmem's code or data, and a test
keeps it so (tests/recall/test_related_held_out.py)."""

from __future__ import annotations

from bench.multihop.domains import academia, company, films, music, supply
from bench.multihop.world import Domain

DOMAINS: dict[str, Domain] = {d.name: d for d in (company.DOMAIN, films.DOMAIN,
                                                  academia.DOMAIN, supply.DOMAIN,
                                                  music.DOMAIN)}
HELD_OUT = music.DOMAIN.name
