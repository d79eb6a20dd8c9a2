"""Execution that reads plain fields without graphql-core's per-field machinery.

A page of a frontend is mostly plain data: a timeline of 100 entries selects about 800 scalar
fields on 200 objects, and graphql-core spends several microseconds on each (resolve info, an
awaitable check, nested completion) to do what `getattr` and the type's own serializer do.

A *plain* field is one Strawberry resolves by attribute access (no resolver, no permission,
no field extension; no schema extension that wraps resolvers). Two shortcuts use them:

- a plain field of scalar or enum type is read and serialized directly;
- a list whose items' selection holds only plain fields (scalars, enums, lists of them,
  `__typename` and plain objects selecting the same, to any depth) is built item by item
  from one plan made for the selection.

Anything else, and any value that would need an error (a null in a non-null field, a value
the scalar refuses, an object of the wrong type), takes graphql-core's own path for that field
or that whole list (a plain read has no side effect, so reading again is safe); results and
errors stay exactly what the spec says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graphql import (
    GraphQLEnumType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    GraphQLScalarType,
    GraphQLSchema,
    Undefined,
)
from graphql.pyutils import Path
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema_converter import GraphQLCoreConverter

LEAF = "graphmem-leaf"  # field extension: (python attribute, leaf type, non-null)
PLAIN = "graphmem-plain"  # field extension: (python attribute, object type, non-null)
LEAVES = "graphmem-leaves"  # field extension: (attribute, leaf type, non-null, items non-null)

Leaf = tuple[str, GraphQLScalarType | GraphQLEnumType, bool]
Plain = tuple[str, GraphQLObjectType, bool]
Leaves = tuple[str, GraphQLScalarType | GraphQLEnumType, bool, bool]


def _unwrap(kind: Any) -> tuple[Any, bool]:
    """A type without its NonNull, and whether it had one."""
    return (kind.of_type, True) if isinstance(kind, GraphQLNonNull) else (kind, False)


def mark_leaves(schema: GraphQLSchema) -> int:
    """Mark every plain field of an object type with how to read it (LEAF for scalars and
    enums, LEAVES for lists of them, PLAIN for objects); returns how many leaves were marked."""
    marked = 0
    for named in schema.type_map.values():
        if not isinstance(named, GraphQLObjectType) or named.name.startswith("__"):
            continue
        for field in named.fields.values():
            definition = field.extensions.get(GraphQLCoreConverter.DEFINITION_BACKREF)
            if definition is None or not getattr(field.resolve, "_is_default", False):
                continue
            name = definition.python_name
            inner, non_null = _unwrap(field.type)
            if isinstance(inner, GraphQLScalarType | GraphQLEnumType):
                field.extensions[LEAF] = (name, inner, non_null)
                marked += 1
            elif isinstance(inner, GraphQLObjectType):
                field.extensions[PLAIN] = (name, inner, non_null)
            elif isinstance(inner, GraphQLList):
                item, items_non_null = _unwrap(inner.of_type)
                if isinstance(item, GraphQLScalarType | GraphQLEnumType):
                    field.extensions[LEAVES] = (name, item, non_null, items_non_null)
    return marked


class _Irregular(Exception):  # noqa: N818 - a signal, not an error a caller sees
    """A value the shortcut does not complete: graphql-core's own path takes the list."""


def _leaf(kind: GraphQLScalarType | GraphQLEnumType, non_null: bool, value: Any) -> Any:
    """A leaf's serialized value; Undefined when it needs graphql-core's path."""
    if value is None:
        return Undefined if non_null else None
    if value is Undefined or isinstance(value, Exception):
        return Undefined
    try:
        coerced = kind.coerce_output_value(value)
    except Exception:  # noqa: BLE001 - graphql-core's path reports it
        return Undefined
    return Undefined if coerced is None else coerced


@dataclass(frozen=True)
class _Plan:
    """How to build one object of a plain selection: per response key, its reader."""

    type: GraphQLObjectType
    readers: tuple[tuple[str, Callable[[Any], Any]], ...]

    def build(self, source: Any) -> dict[str, Any]:
        is_type_of = self.type.is_type_of
        # Strawberry's is_type_of reads only the object, never the resolve info
        if is_type_of is not None and is_type_of(source, None) is not True:  # type: ignore[arg-type]
            raise _Irregular
        return {key: read(source) for key, read in self.readers}


def _leaf_reader(name: str, kind: GraphQLScalarType | GraphQLEnumType,
                 non_null: bool) -> Callable[[Any], Any]:
    def read(source: Any) -> Any:
        value = _leaf(kind, non_null, getattr(source, name, Undefined))
        if value is Undefined:
            raise _Irregular
        return value

    return read


def _leaves_reader(name: str, kind: GraphQLScalarType | GraphQLEnumType, non_null: bool,
                   items_non_null: bool) -> Callable[[Any], Any]:
    def read(source: Any) -> Any:
        values = getattr(source, name, Undefined)
        if values is None and not non_null:
            return None
        if not isinstance(values, list | tuple):
            raise _Irregular
        out = [_leaf(kind, items_non_null, value) for value in values]
        if any(value is Undefined for value in out):
            raise _Irregular
        return out

    return read


def _object_reader(name: str, plan: _Plan, non_null: bool) -> Callable[[Any], Any]:
    def read(source: Any) -> Any:
        value = getattr(source, name, Undefined)
        if value is None and not non_null:
            return None
        if value is None or value is Undefined:
            raise _Irregular
        return plan.build(value)

    return read


def _constant(value: str) -> Callable[[Any], Any]:
    return lambda _source: value


class LeafExecutionContext(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's execution context, with plain leaves and plain lists built directly."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # (type, selection) → the selection (held, so its id is never reused) and its plan
        self._plans: dict[tuple[str, int], tuple[Any, _Plan | None]] = {}

    def _plain(self) -> bool:
        middleware = self.middleware_manager
        return middleware is None or not middleware.middlewares

    def execute_field(self, parent_type: GraphQLObjectType, source: Any,
                      field_details_list: Any, path: Path, position_context: Any) -> Any:
        field = parent_type.fields.get(field_details_list[0].node.name.value)
        leaf: Leaf | None = field.extensions.get(LEAF) if field is not None else None
        if leaf is not None and self._plain():
            name, kind, non_null = leaf
            value = _leaf(kind, non_null, getattr(source, name, Undefined))
            if value is not Undefined:
                return value
        return super().execute_field(parent_type, source, field_details_list, path,
                                     position_context)

    def complete_list_value(self, return_type: GraphQLList[GraphQLOutputType],
                            field_details_list: Any, info: GraphQLResolveInfo[Any], path: Path,
                            result: Any, position_context: Any) -> Any:
        if isinstance(result, list | tuple) and self._plain() and not self.get_stream_usage(
                field_details_list, path):
            inner, non_null = _unwrap(return_type.of_type)
            plan = (self._plan(inner, field_details_list)
                    if isinstance(inner, GraphQLObjectType) else None)
            if plan is not None:
                try:
                    return [plan.build(value) if value is not None or non_null else None
                            for value in result]
                except _Irregular:
                    pass
        return super().complete_list_value(return_type, field_details_list, info, path,
                                           result, position_context)

    def _plan(self, object_type: GraphQLObjectType, field_details_list: Any) -> _Plan | None:
        """The plan for this selection of `object_type`, or None when a field in it is not
        plain (made once per selection and request)."""
        key = (object_type.name, id(field_details_list))
        if key not in self._plans:
            self._plans[key] = (field_details_list,
                                self._make_plan(object_type, field_details_list))
        return self._plans[key][1]

    def _make_plan(self, object_type: GraphQLObjectType,
                   field_details_list: Any) -> _Plan | None:
        grouped, defer_usages, _ = self.collect_subfields(object_type, field_details_list)
        if defer_usages:
            return None
        readers: list[tuple[str, Callable[[Any], Any]]] = []
        for response_name, details in grouped.items():
            node = details[0].node
            if node.name.value == "__typename":
                readers.append((response_name, _constant(object_type.name)))
                continue
            field = object_type.fields.get(node.name.value)
            if field is None or node.arguments:
                return None
            leaf: Leaf | None = field.extensions.get(LEAF)
            plain: Plain | None = field.extensions.get(PLAIN)
            leaves: Leaves | None = field.extensions.get(LEAVES)
            if leaf is not None:
                readers.append((response_name, _leaf_reader(*leaf)))
            elif leaves is not None:
                readers.append((response_name, _leaves_reader(*leaves)))
            elif plain is not None:
                name, sub_type, non_null = plain
                sub = self._plan(sub_type, details)
                if sub is None:
                    return None
                readers.append((response_name, _object_reader(name, sub, non_null)))
            else:
                return None
        return _Plan(object_type, tuple(readers))
