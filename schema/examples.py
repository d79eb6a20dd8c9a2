"""Example documents, one per feature (schema/documents/*.graphql): GraphiQL opens on them,
and a test validates each against the schema so they cannot drift from it."""

from __future__ import annotations

from importlib import resources

_WELCOME = "const EXAMPLE_QUERY = `"


def documents() -> dict[str, str]:
    """Each example by file name, in order."""
    folder = resources.files("graphmem.schema").joinpath("documents")
    return {f.name: f.read_text(encoding="utf-8")
            for f in sorted(folder.iterdir(), key=lambda f: f.name)
            if f.name.endswith(".graphql")}


def document() -> str:
    """Every example as one document (its operations have distinct names)."""
    return "\n".join(documents().values())


def with_examples(html: str) -> str:
    """Strawberry's GraphiQL page, opening on the examples instead of its welcome text."""
    start = html.find(_WELCOME)
    end = html.find("`;", start)
    if start < 0 or end < 0:
        return html
    text = document().replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${")
    return html[:start + len(_WELCOME)] + text + html[end:]
