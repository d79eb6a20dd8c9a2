"""Does a GraphQL response's `data` have the shape its selection asks for?

For every field (or alias) the operation selects, the response object has that key and no
other; a non-null field is not null; lists and objects are checked item by item, down to the
leaves. Fields under an inline fragment on another type are required only when the object's
`__typename` (when selected) says the fragment applies, and allowed otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import graphql
from graphql import (
    FieldNode,
    GraphQLCompositeType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    InlineFragmentNode,
    OperationType,
    SelectionSetNode,
)

ROOTS = {OperationType.QUERY: "query_type", OperationType.MUTATION: "mutation_type",
         OperationType.SUBSCRIPTION: "subscription_type"}


@dataclass
class _Key:
    """One response key: the field it reads and every selection set asked of it."""

    type: GraphQLOutputType
    required: bool
    subsets: list[SelectionSetNode] = field(default_factory=list)


def shape_problems(schema: GraphQLSchema, document: str, data: Any,
                   operation_name: str | None = None) -> list[str]:
    """What is wrong with `data` as the answer to `document` (empty: the shape matches)."""
    parsed = graphql.parse(document)
    operations = [d for d in parsed.definitions if isinstance(d, graphql.OperationDefinitionNode)
                  and (operation_name is None or (d.name and d.name.value == operation_name))]
    if len(operations) != 1:
        return [f"expected one operation, found {len(operations)}"]
    operation = operations[0]
    root = getattr(schema, ROOTS[operation.operation])
    if root is None:
        return [f"the schema has no {operation.operation.value} type"]
    if not isinstance(data, dict):
        return [f"data is {type(data).__name__}, not an object"]
    return _object(schema, root, [operation.selection_set], data, "data")


def _applies(schema: GraphQLSchema, condition: str, concrete: str | None) -> bool | None:
    """Whether a fragment on `condition` applies to an object of type `concrete` (None:
    unknown)."""
    if concrete is None:
        return None
    if condition == concrete:
        return True
    ctype = schema.get_type(concrete)
    ftype = schema.get_type(condition)
    if not isinstance(ctype, GraphQLObjectType) or not isinstance(
            ftype, graphql.GraphQLInterfaceType | graphql.GraphQLUnionType):
        return False
    return schema.is_sub_type(ftype, ctype)


def _collect(schema: GraphQLSchema, parent: GraphQLCompositeType, subset: SelectionSetNode,
             concrete: str | None, required: bool, keys: dict[str, _Key]) -> None:
    for selection in subset.selections:
        if isinstance(selection, FieldNode):
            name = selection.name.value
            key = selection.alias.value if selection.alias else name
            if name == "__typename":
                ftype: GraphQLOutputType = GraphQLNonNull(graphql.GraphQLString)
            else:
                fields = getattr(parent, "fields", {})
                if name not in fields:
                    raise AssertionError(f"{parent} has no field {name}")
                ftype = fields[name].type
            entry = keys.setdefault(key, _Key(ftype, required))
            entry.required = entry.required or required
            if selection.selection_set is not None:
                entry.subsets.append(selection.selection_set)
        elif isinstance(selection, InlineFragmentNode):
            if selection.type_condition is None:
                _collect(schema, parent, selection.selection_set, concrete, required, keys)
                continue
            condition = selection.type_condition.name.value
            target = schema.get_type(condition)
            assert isinstance(target, GraphQLCompositeType), condition
            same = condition == parent.name
            applies = True if same else _applies(schema, condition, concrete)
            if applies is False:
                continue
            _collect(schema, target, selection.selection_set, concrete,
                     required and bool(applies), keys)
        else:
            raise AssertionError(f"unsupported selection {selection.kind}")


def _object(schema: GraphQLSchema, parent: GraphQLCompositeType,
            subsets: list[SelectionSetNode], value: dict[str, Any], path: str) -> list[str]:
    concrete = value.get("__typename") if isinstance(value.get("__typename"), str) else None
    if isinstance(parent, GraphQLObjectType):
        concrete = parent.name
    keys: dict[str, _Key] = {}
    for subset in subsets:
        _collect(schema, parent, subset, concrete, True, keys)
    problems = [f"{path}: unexpected key {k!r}" for k in value if k not in keys]
    for key, entry in keys.items():
        if key not in value:
            if entry.required:
                problems.append(f"{path}: missing {key!r}")
            continue
        problems += _value(schema, entry.type, entry.subsets, value[key], f"{path}.{key}")
    return problems


def _value(schema: GraphQLSchema, type_: GraphQLOutputType, subsets: list[SelectionSetNode],
           value: Any, path: str) -> list[str]:
    if isinstance(type_, GraphQLNonNull):
        if value is None:
            return [f"{path}: null for non-null {type_}"]
        return _value(schema, type_.of_type, subsets, value, path)
    if value is None:
        return []
    if isinstance(type_, GraphQLList):
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__} for a list"]
        problems: list[str] = []
        for i, item in enumerate(value):
            problems += _value(schema, type_.of_type, subsets, item, f"{path}[{i}]")
        return problems
    if isinstance(type_, GraphQLCompositeType):
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} for {type_.name}"]
        if not subsets:
            return [f"{path}: an object without a selection"]
        return _object(schema, type_, subsets, value, path)
    if isinstance(value, dict | list) and type_.name != "JSON":
        return [f"{path}: {type(value).__name__} for scalar {type_.name}"]
    return []
