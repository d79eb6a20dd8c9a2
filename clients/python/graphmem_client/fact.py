from .base_model import BaseModel
from .fragments import FactFields


class Fact(BaseModel):
    fact: "FactFact"


FactFact = FactFields
Fact.model_rebuild()
