from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .fragments import FactFields


class Facts(BaseModel):
    facts: "FactsFacts"


class FactsFacts(BaseModel):
    total_count: int = Field(alias="totalCount")
    page_info: "FactsFactsPageInfo" = Field(alias="pageInfo")
    nodes: list["FactsFactsNodes"]


class FactsFactsPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


FactsFactsNodes = FactFields
Facts.model_rebuild()
FactsFacts.model_rebuild()
