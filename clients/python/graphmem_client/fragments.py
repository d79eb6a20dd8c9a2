from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Status


class FactFields(BaseModel):
    id: str
    fact_id: str = Field(alias="factId")
    space: str
    subject: str
    value: str
    scope: str
    status: Status
    confidence: Optional[float]
    source: str
    valid_from: Optional[datetime] = Field(alias="validFrom")
    recorded_at: Optional[datetime] = Field(alias="recordedAt")
    event_id: Optional[str] = Field(alias="eventId")


FactFields.model_rebuild()
