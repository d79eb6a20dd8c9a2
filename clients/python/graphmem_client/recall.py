from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Recall(BaseModel):
    recall: "RecallRecall"


class RecallRecall(BaseModel):
    answer: Optional[str]
    model_answered: bool = Field(alias="modelAnswered")
    method: str
    text: str


Recall.model_rebuild()
