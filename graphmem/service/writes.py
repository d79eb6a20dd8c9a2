"""Writes: remember → extract → reconcile → graph write, and what follows a commit.

Each write is one Neo4j transaction under the space's lock (`remember.pipeline`); after the
commit the new facts are handed to the embedding worker and the full-text index is awaited
before this process's next lexical ranking.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from graphmem import consistency
from graphmem.errors import AccessDenied, InvalidInput, LLMUnavailable
from graphmem.graph import remember
from graphmem.model import Action, Proposal, Result, Status, claimed
from graphmem.model.audit import AuditCall
from graphmem.model.requests import Write
from graphmem.recall.vectors import written_ids
from graphmem.remember.extract import extract, usable
from graphmem.remember.extract_context import extraction_input
from graphmem.remember.new_fact import WriteInfo
from graphmem.remember.pipeline import WriteRequest, message_key, write_proposals
from graphmem.remember.proposals import TIME_FIELDS, check_text, parse_proposals
from graphmem.remember.results import NO_FACTS, NOTHING_TO_RETRACT
from graphmem.remember.write import new_id
from graphmem.service.context import SpaceContext, now
from graphmem.service.redaction import redactor_for

NO_MESSAGE = Write()  # facts written without a message, source or metadata (imports)


def prefilter(ctx: SpaceContext, text: str) -> list[Result] | None:
    """The dedup prefilter: the exact message already produced facts, all still ACTIVE."""
    key = message_key(text)
    if key is None or not ctx.settings.dedup_prefilter:
        return None
    rows = remember.message_facts(ctx.graph, ctx.key, key)
    if not rows or any(r["status"] != Status.ACTIVE.value for r in rows):
        return None
    return [Result(Action.DEDUP, r["subject"], r["value"], r["id"],
                   f"Stored: [DEDUP] {r['subject']} = {r['value']}") for r in rows]


@dataclass(frozen=True)
class Speaker:
    """Who a write speaks as; `review`: the tenant's curated sources could not be read, so
    every cross-source change is flagged."""

    source: str
    trusted: bool
    curated: frozenset[str]
    review: bool = False


# A forget is the caller's own instruction: a fact it names without a confidence counts as
# certain, so the confidence floor does not hold it for review. A fact given to remember
# without one keeps the missing-confidence default (a change is flagged).
CERTAIN = 1.0


class Writes:
    def __init__(self, ctx: SpaceContext) -> None:
        self.ctx = ctx

    def submit(self, call: AuditCall, write: Write) -> list[Result]:
        """The write a caller asked for, redacted before anything reads it: extraction first
        when it holds no facts. A write over the size caps is refused before the redaction
        scans its text."""
        if write.facts is not None:
            self._check_size(len(write.facts), write.text,
                             (_raw(f) for f in write.facts))
        write = self._redacted(write)
        if write.facts is None:
            results = (self._forget(call, write) if write.retract
                       else self._remember(call, write))
        else:
            results = self._facts(call, write)
        if not write.redacted:
            return results
        return [replace(r, redacted=write.redacted) for r in results]

    def _redacted(self, write: Write) -> Write:
        """The write without the secrets (and, where the space asks, the personal data) its
        space's redaction finds (graphmem.remember.redact)."""
        clean, found = redactor_for(self.ctx.settings, self.ctx.key).write(write)
        kinds = tuple(sorted({*write.redacted, *found}))
        return replace(clean, redacted=kinds) if kinds != write.redacted else clean

    # ---- structured facts -------------------------------------------------------------
    def _facts(self, call: AuditCall, write: Write) -> list[Result]:
        facts = list(write.facts) if write.facts is not None else None
        if write.retract and facts is not None:  # a removal may name its fact by id alone
            facts = [{**f, "action": "RETRACT"} if isinstance(f, Mapping) else f
                     for f in facts]
        proposals = parse_proposals(facts, self.ctx.schema)
        self._check_size(len(proposals), write.text, (p.raw for p in proposals))
        if not write.retract:
            return self._write(call, tuple(proposals), write)
        removals = tuple(p.with_changes(confidence=CERTAIN) if p.confidence is None else p
                         for p in proposals)
        results = self._write(call, removals, replace(write, source_ref=""))
        return [Result(r.action, r.subject, r.value, r.fact_id, NOTHING_TO_RETRACT)
                if r.action == Action.SKIP else r for r in results]

    def _check_size(self, facts: int, text: str, raws: Iterable[str]) -> None:
        """A write stores the message once (the facts without a raw text of their own name
        it) and each fact's own raw text: bounded, so a request never costs many times its
        size."""
        settings = self.ctx.settings
        if facts > settings.write_max_facts:
            raise InvalidInput(f"{facts} facts in one write: at most"
                               f" {settings.write_max_facts} (GRAPHMEM_WRITE_MAX_FACTS);"
                               " split them over several calls")
        stored = len(text) + sum(len(raw) for raw in raws)
        if stored > settings.write_max_stored_text:
            raise InvalidInput(
                f"this write would store {stored:,} characters of text (the message, and"
                f" the raw text of each fact that brings its own): at most"
                f" {settings.write_max_stored_text:,} (GRAPHMEM_WRITE_MAX_STORED_TEXT); give"
                " the facts shorter `raw` excerpts (a fact without one names the message),"
                " or send them in smaller parts")

    def _write(self, call: AuditCall, proposals: tuple[Proposal, ...],
               write: Write) -> list[Result]:
        ctx = self.ctx
        ctx.require("write")
        if not proposals:
            check_text(write.text)
            check_text(write.source, "source")
            return []
        req = self.checked(proposals, write)
        with consistency.tracking() as tracker:
            results = ctx.write(call, write_proposals, req)
        self.index(written_ids(results))
        token = tracker.token()
        return [replace(r, consistency_token=token) for r in results] if token else results

    def checked(self, proposals: tuple[Proposal, ...], write: Write = NO_MESSAGE,
                at: datetime | None = None) -> WriteRequest:
        """A checked write of `proposals` (the caller holds write): backfilled times need the
        backfill capability and may not lie ahead of the write, and every source a fact
        names must be the caller's to use."""
        ctx = self.ctx
        text = check_text(write.text)
        source = check_text(write.source, "source")[:200] or ctx.caller.source
        speaker = self._speaker(source)
        info = WriteInfo(source=speaker.source, source_ref=write.source_ref,
                         text=text, metadata=dict(write.metadata or {}),
                         redacted=write.redacted,
                         message_key=message_key(text), now=at or now(),
                         message_id=new_id("m") if text else None)
        self._check_times(proposals, info.now)
        proposals, trusted_own = self._own_sources(proposals)
        settings = ctx.settings
        return WriteRequest(proposals, info, ctx.schema, ctx.policy, speaker.trusted,
                            settings.confidence_floor,
                            frozenset(settings.curated_sources) | speaker.curated,
                            settings.cluster_jaccard, trusted_own, speaker.review)

    def _own_sources(self, proposals: tuple[Proposal, ...]
                     ) -> tuple[tuple[Proposal, ...], frozenset[str]]:
        """Facts that name their own source speak as it only where the caller is bound to it
        (else they record it as claimed), and the own sources that are trusted."""
        speakers = {s: self._speaker(s) for s in {p.source for p in proposals} if s}
        recorded = tuple(p if not p.source or speakers[p.source].source == p.source
                         else p.with_changes(source=speakers[p.source].source)
                         for p in proposals)
        return recorded, frozenset(s for s, sp in speakers.items()
                                   if sp.trusted and sp.source == s)

    def _check_times(self, proposals: tuple[Proposal, ...], at: datetime) -> None:
        timed = [i for i, p in enumerate(proposals, 1) if p.backdated]
        if not timed:
            return
        if not self.ctx.caller.can("backfill"):
            raise AccessDenied(f"{self.ctx.caller.name!r} lacks the backfill capability that"
                               f" facts with their own {' or '.join(TIME_FIELDS)} need"
                               f" (fact #{timed[0]})")
        for index, p in enumerate(proposals, 1):
            if p.recorded_at is not None and p.recorded_at > at:
                raise InvalidInput(f"fact #{index}: recorded_at {p.recorded_at.isoformat()} is"
                                   " later than now: memory cannot have learnt it yet")

    def recorded_source(self, source: str) -> str:
        """The source a fact that names `source` is recorded under for this caller: as named
        when the caller is bound to it, else as claimed."""
        return self._speaker(source).source

    def _speaker(self, source: str) -> Speaker:
        """The source a write is recorded under: as named when the caller is bound to it (or
        names none), else as claimed (graphmem.auth.sources); whether it is trusted; and
        the tenant's curated sources."""
        ctx = self.ctx
        book = ctx.runtime.sources.of(ctx.space.tenant)
        caller = ctx.caller
        bound = (not source or caller.sources is None or source in caller.sources
                 or book.speaks_as(caller.name, source))
        if not bound:
            return Speaker(claimed(source), False, book.curated, book.unknown)
        return Speaker(source, source in ctx.trusted | book.trusted, book.curated,
                       book.unknown)

    def index(self, fact_ids: list[str]) -> None:
        """Vectors for what a write created: in the background unless configured inline."""
        runtime = self.ctx.runtime
        if fact_ids:
            runtime.ranker.written(self.ctx.key)  # full-text catches up before the next ranking
        if self.ctx.settings.embed_background:
            runtime.embed_worker.submit(self.ctx.key, fact_ids)
        else:
            runtime.ranker.vectors.store(self.ctx.key, fact_ids)

    # ---- messages (one model call) ----------------------------------------------------
    def _remember(self, call: AuditCall, write: Write) -> list[Result]:
        self.ctx.require("write")
        text = check_text(write.text)
        hit = prefilter(self.ctx, text)
        if hit is not None:
            return hit
        facts = self._extract(text, forget=False)
        if not facts:
            return [Result(Action.SKIP, "", "", None, NO_FACTS)]
        return self._facts(call, self._redacted(replace(write, facts=tuple(facts), text=text)))

    def _forget(self, call: AuditCall, write: Write) -> list[Result]:
        self.ctx.require("write")
        text = check_text(write.text)
        facts = self._extract(text, forget=True)
        if not facts:
            return [Result(Action.SKIP, "", "", None, NOTHING_TO_RETRACT)]
        return self._facts(call, self._redacted(replace(write, facts=tuple(facts), text=text)))

    def _extract(self, text: str, forget: bool) -> list[dict[str, Any]]:
        if not text.strip():
            raise InvalidInput("the message is empty: nothing to extract")
        ctx = self.ctx
        llm = ctx.runtime.llm
        if llm is None:
            raise LLMUnavailable("remember(text) and forget(text) need an LLM: set"
                                 " GRAPHMEM_LLM_BASE_URL and GRAPHMEM_LLM_MODEL, or pass"
                                 " extracted facts to remember_facts")
        inp = extraction_input(ctx.ranked(), ctx.key, ctx.schema, text,
                               ctx.settings.reconcile_context, forget)
        return usable(extract(llm, inp, ctx.settings.extract_retries), ctx.schema)

def _raw(fact: object) -> str:
    """A fact's own raw text as given (a mapping's `raw`, or the attribute)."""
    raw = fact.get("raw") if isinstance(fact, Mapping) else getattr(fact, "raw", None)
    return raw if isinstance(raw, str) else ""
