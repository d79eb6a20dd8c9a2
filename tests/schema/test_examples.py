"""The GraphiQL example documents are valid against the schema (they cannot drift), and one
exists for each feature a frontend needs."""

from __future__ import annotations

import pytest
from graphql import OperationDefinitionNode, parse, validate

from graphmem.schema import build_schema
from graphmem.schema.examples import document, documents, with_examples

SCHEMA = build_schema()._schema


@pytest.mark.parametrize("name", sorted(documents()))
def test_each_example_is_valid_against_the_schema(name: str) -> None:
    assert validate(SCHEMA, parse(documents()[name])) == []


def test_the_examples_cover_the_features_and_name_each_operation_once() -> None:
    operations = [d.name.value for d in parse(document()).definitions
                  if isinstance(d, OperationDefinitionNode) and d.name is not None]
    assert len(operations) == len(set(operations))
    for needed in ("RememberFacts", "FactsAsOf", "Timeline", "ConflictsInbox",
                   "PendingChanges", "Entities", "RecallRelated", "Spaces", "Node",
                   "FactChanged", "Audit"):
        assert needed in operations


def test_the_ide_page_is_given_the_examples() -> None:
    page = "<script>const EXAMPLE_QUERY = `# hello`;</script>"
    changed = with_examples(page)
    assert "query ConflictsInbox" in changed and "# hello" not in changed
    assert with_examples("<html>no template</html>") == "<html>no template</html>"
