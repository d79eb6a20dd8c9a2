from pydantic import Field

from .base_model import BaseModel


class ChangeCursor(BaseModel):
    change_cursor: str = Field(alias="changeCursor")
