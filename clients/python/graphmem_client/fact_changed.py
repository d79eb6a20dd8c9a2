from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Action


class FactChanged(BaseModel):
    fact_changed: "FactChangedFactChanged" = Field(alias="factChanged")


class FactChangedFactChanged(BaseModel):
    cursor: str
    change: str
    fact_id: Optional[str] = Field(alias="factId")
    subject: Optional[str]
    value: Optional[str]
    action: Optional[Action]
    at: datetime


FactChanged.model_rebuild()
