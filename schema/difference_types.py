"""What `changes` answers: the slots whose current facts differ between two instants, each
with the facts on either side and the events that did it."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graphmem.model import differences
from graphmem.model.differences import Clock, SlotChangeKind, Step
from graphmem.schema.types import Fact

strawberry.enum(Clock, description="RECORDED: what memory held as current. VALID: what was"
                                   " true in the world, as memory knows it now.")
strawberry.enum(SlotChangeKind, description="ADDED: nothing current at the start; REMOVED:"
                                            " nothing at the end; CHANGED: different facts"
                                            " or values.")
strawberry.enum(Step, description="What an event did to one fact of a slot.")


@strawberry.type(description="One event's part in a slot's change.")
class ChangeCause:
    step: Step
    fact_id: strawberry.ID
    at: datetime | None = strawberry.field(description="When it happened on the clock asked"
                                                       " for.")
    event: strawberry.ID | None = strawberry.field(description="The event (the write, the"
                                                               " settlement) that did it.")

    @classmethod
    def from_model(cls, cause: differences.Cause) -> ChangeCause:
        return cls(step=cause.step, fact_id=strawberry.ID(cause.fact_id), at=cause.at,
                   event=None if cause.event is None else strawberry.ID(cause.event))


@strawberry.type(description="A slot whose current facts differ between two instants.")
class SlotChange:
    subject: str
    scope: str
    kind: SlotChangeKind
    before: list[Fact] = strawberry.field(description="Facts current at `from` and not at"
                                                      " `to`, with the values they had then.")
    after: list[Fact] = strawberry.field(description="Facts current at `to` and not at"
                                                     " `from`.")
    causes: list[ChangeCause]

    @classmethod
    def from_model(cls, change: differences.SlotChange) -> SlotChange:
        return cls(subject=change.subject, scope=change.scope, kind=change.kind,
                   before=[Fact.from_model(f, None) for f in change.before],
                   after=[Fact.from_model(f, None) for f in change.after],
                   causes=[ChangeCause.from_model(c) for c in change.causes])
