from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any, Optional, Union

from .async_base_client import AsyncBaseClient
from .base_model import UNSET, UnsetType
from .change_cursor import ChangeCursor
from .fact import Fact
from .fact_changed import FactChanged
from .facts import Facts
from .forget_facts import ForgetFacts
from .input_types import FactInput
from .recall import Recall
from .remember_facts import RememberFacts


def gql(q: str) -> str:
    return q


class GraphMemClient(AsyncBaseClient):
    async def remember_facts(
        self, space: str, facts: list[FactInput], **kwargs: Any
    ) -> RememberFacts:
        query = gql("""
            mutation RememberFacts($space: String!, $facts: [FactInput!]!) {
              rememberFacts(space: $space, facts: $facts) {
                action
                subject
                value
                factId
                conflictId
                eventId
                consistencyToken
                message
              }
            }
            """)
        variables: dict[str, object] = {"space": space, "facts": facts}
        response = await self.execute(
            query=query, operation_name="RememberFacts", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return RememberFacts.model_validate(data)

    async def forget_facts(
        self, space: str, facts: list[FactInput], **kwargs: Any
    ) -> ForgetFacts:
        query = gql("""
            mutation ForgetFacts($space: String!, $facts: [FactInput!]!) {
              forgetFacts(space: $space, facts: $facts) {
                action
                subject
                value
                factId
                message
              }
            }
            """)
        variables: dict[str, object] = {"space": space, "facts": facts}
        response = await self.execute(
            query=query, operation_name="ForgetFacts", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return ForgetFacts.model_validate(data)

    async def facts(
        self,
        space: str,
        subject: Union[Optional[str], UnsetType] = UNSET,
        as_of: Union[Optional[datetime], UnsetType] = UNSET,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Facts:
        query = gql("""
            query Facts($space: String!, $subject: String, $asOf: DateTime, $first: Int, $after: String) {
              facts(
                space: $space
                subject: $subject
                asOf: $asOf
                first: $first
                after: $after
              ) {
                totalCount
                pageInfo {
                  hasNextPage
                  endCursor
                }
                nodes {
                  ...FactFields
                }
              }
            }

            fragment FactFields on Fact {
              id
              factId
              space
              subject
              value
              scope
              status
              confidence
              source
              validFrom
              recordedAt
              eventId
            }
            """)
        variables: dict[str, object] = {
            "space": space,
            "subject": subject,
            "asOf": as_of,
            "first": first,
            "after": after,
        }
        response = await self.execute(
            query=query, operation_name="Facts", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Facts.model_validate(data)

    async def fact(
        self,
        space: str,
        id: str,
        as_of: Union[Optional[datetime], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Fact:
        query = gql("""
            query Fact($space: String!, $id: ID!, $asOf: DateTime) {
              fact(space: $space, id: $id, asOf: $asOf) {
                ...FactFields
              }
            }

            fragment FactFields on Fact {
              id
              factId
              space
              subject
              value
              scope
              status
              confidence
              source
              validFrom
              recordedAt
              eventId
            }
            """)
        variables: dict[str, object] = {"space": space, "id": id, "asOf": as_of}
        response = await self.execute(
            query=query, operation_name="Fact", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Fact.model_validate(data)

    async def recall(
        self,
        space: str,
        question: str,
        as_of: Union[Optional[datetime], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Recall:
        query = gql("""
            query Recall($space: String!, $question: String!, $asOf: DateTime) {
              recall(space: $space, question: $question, asOf: $asOf) {
                answer
                modelAnswered
                method
                text
              }
            }
            """)
        variables: dict[str, object] = {
            "space": space,
            "question": question,
            "asOf": as_of,
        }
        response = await self.execute(
            query=query, operation_name="Recall", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Recall.model_validate(data)

    async def change_cursor(self, space: str, **kwargs: Any) -> ChangeCursor:
        query = gql("""
            query ChangeCursor($space: String!) {
              changeCursor(space: $space)
            }
            """)
        variables: dict[str, object] = {"space": space}
        response = await self.execute(
            query=query, operation_name="ChangeCursor", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return ChangeCursor.model_validate(data)

    async def fact_changed(
        self, space: str, after: Union[Optional[str], UnsetType] = UNSET, **kwargs: Any
    ) -> AsyncIterator[FactChanged]:
        query = gql("""
            subscription FactChanged($space: String!, $after: String) {
              factChanged(space: $space, after: $after) {
                cursor
                change
                factId
                subject
                value
                action
                at
              }
            }
            """)
        variables: dict[str, object] = {"space": space, "after": after}
        async for data in self.execute_ws(
            query=query, operation_name="FactChanged", variables=variables, **kwargs
        ):
            yield FactChanged.model_validate(data)
