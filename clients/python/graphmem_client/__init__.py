from .async_base_client import AsyncBaseClient
from .base_model import BaseModel, Upload
from .change_cursor import ChangeCursor
from .client import GraphMemClient
from .enums import (
    Action,
    Cardinality,
    Clock,
    ConflictKind,
    ConflictStatus,
    Kind,
    PathDirection,
    PolicyMode,
    ReadingKind,
    ReadingSource,
    SlotChangeKind,
    Status,
    Step,
    TimeRef,
)
from .exceptions import (
    GraphQLClientError,
    GraphQLClientGraphQLError,
    GraphQLClientGraphQLMultiError,
    GraphQLClientHttpError,
    GraphQLClientInvalidResponseError,
)
from .fact import Fact, FactFact
from .fact_changed import FactChanged, FactChangedFactChanged
from .facts import Facts, FactsFacts, FactsFactsNodes, FactsFactsPageInfo
from .forget_facts import ForgetFacts, ForgetFactsForgetFacts
from .fragments import FactFields
from .input_types import (
    EntityRefInput,
    FactInput,
    PathStepInput,
    RelationInput,
    SourceRankInput,
    ValidDuringInput,
)
from .recall import Recall, RecallRecall
from .remember_facts import RememberFacts, RememberFactsRememberFacts

__all__ = [
    "Action",
    "AsyncBaseClient",
    "BaseModel",
    "Cardinality",
    "ChangeCursor",
    "Clock",
    "ConflictKind",
    "ConflictStatus",
    "EntityRefInput",
    "Fact",
    "FactChanged",
    "FactChangedFactChanged",
    "FactFact",
    "FactFields",
    "FactInput",
    "Facts",
    "FactsFacts",
    "FactsFactsNodes",
    "FactsFactsPageInfo",
    "ForgetFacts",
    "ForgetFactsForgetFacts",
    "GraphMemClient",
    "GraphQLClientError",
    "GraphQLClientGraphQLError",
    "GraphQLClientGraphQLMultiError",
    "GraphQLClientHttpError",
    "GraphQLClientInvalidResponseError",
    "Kind",
    "PathDirection",
    "PathStepInput",
    "PolicyMode",
    "ReadingKind",
    "ReadingSource",
    "Recall",
    "RecallRecall",
    "RelationInput",
    "RememberFacts",
    "RememberFactsRememberFacts",
    "SlotChangeKind",
    "SourceRankInput",
    "Status",
    "Step",
    "TimeRef",
    "Upload",
    "ValidDuringInput",
]
