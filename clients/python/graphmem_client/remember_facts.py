from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Action


class RememberFacts(BaseModel):
    remember_facts: list["RememberFactsRememberFacts"] = Field(alias="rememberFacts")


class RememberFactsRememberFacts(BaseModel):
    action: Action
    subject: str
    value: str
    fact_id: Optional[str] = Field(alias="factId")
    conflict_id: Optional[str] = Field(alias="conflictId")
    event_id: Optional[str] = Field(alias="eventId")
    consistency_token: Optional[str] = Field(alias="consistencyToken")
    message: str


RememberFacts.model_rebuild()
