from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Action


class ForgetFacts(BaseModel):
    forget_facts: list["ForgetFactsForgetFacts"] = Field(alias="forgetFacts")


class ForgetFactsForgetFacts(BaseModel):
    action: Action
    subject: str
    value: str
    fact_id: Optional[str] = Field(alias="factId")
    message: str


ForgetFacts.model_rebuild()
