"""Neo4j Browser set up for graphmem: after login it applies the graphmem style and opens a
guide whose slides are the saved queries of `cypher/browser/`, each a runnable block.

The managed server's configuration points Browser at graphmem (`browser.post_connect_cmd`)
and allows graphmem's host for remote content (`browser.remote_content_hostname_whitelist`);
graphmem serves the guide and the style (`graphmem.http.browser_guide`). The guide is HTML
in Browser's guide format: `<slide>` elements, `<pre class="code runnable">` blocks that a
click copies into the editor.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from importlib import resources
from urllib.parse import urlsplit

from graphmem.graph.statements import registry
from graphmem.settings import Settings

GUIDE_PATH = "/ui/neo4j/guide.html"
STYLE_PATH = "/ui/neo4j/style.grass"
DEFAULT_SPACE = "default/default/default/default"
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "[::]"})


@dataclass(frozen=True)
class SavedQuery:
    """One `cypher/browser/` file: what it shows, the `:param` lines, the statement."""

    name: str
    title: str
    params: tuple[str, ...]
    statement: str


def public_url(settings: Settings) -> str:
    """The address a web browser on this machine uses to reach graphmem."""
    if settings.public_url:
        return settings.public_url.rstrip("/")
    host = "127.0.0.1" if settings.host in WILDCARD_HOSTS else settings.host
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{settings.port}"


def conf_values(settings: Settings) -> dict[str, str]:
    """The `browser.*` lines of the managed server's neo4j.conf."""
    base = public_url(settings)
    hostname = urlsplit(base).hostname or "127.0.0.1"
    allowed = dict.fromkeys([hostname, "127.0.0.1", "localhost"])
    return {
        "browser_post_connect_cmd": f"style {base}{STYLE_PATH}; guide {base}{GUIDE_PATH}",
        "browser_allowlist": ",".join(allowed),
    }


def saved_queries() -> list[SavedQuery]:
    found = []
    for name, text in sorted(registry().items()):
        if name.startswith("browser/"):
            found.append(parse(name, text))
    return found


def parse(name: str, text: str) -> SavedQuery:
    comments = [line[2:].strip() for line in text.splitlines() if line.startswith("//")]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("//")).strip()
    title = comments[0].removeprefix("Neo4j Browser:").strip().rstrip(".") if comments else name
    title = title[:1].upper() + title[1:]
    params = tuple(_param(line) for line in comments if ":param" in line)
    return SavedQuery(name, title, params, body)


def _param(comment: str) -> str:
    return comment[comment.index(":param"):].strip()


def style() -> str:
    """The style without its comment (Browser would show the comment with its spaces
    stripped; the rules are what it needs)."""
    text = resources.files("graphmem.cypher").joinpath("browser/style.grass").read_text(
        encoding="utf-8")
    return re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL).strip() + "\n"


def _runnable(text: str) -> str:
    return f'<pre class="code runnable">{html.escape(text)}</pre>'


def _slide(heading: str, *parts: str) -> str:
    return f"<slide class=\"row-fluid\"><h3>{html.escape(heading)}</h3>{''.join(parts)}</slide>"


def guide_html(base: str) -> str:
    """The guide, its links on `base` (where graphmem was reached): a first slide (the
    space parameter, the style), then one per saved query."""
    explorer = html.escape(base + "/ui/", quote=True)
    first = _slide(
        "graphmem",
        "<p>Facts are coloured by status (Active cyan, Flagged orange, Superseded grey,"
        " Historical green), entities blue, conflicts red: the graphmem style is applied."
        " Click a block to copy it into the editor, then run it.</p>",
        "<p>First choose the space (<code>tenant/user/agent/run</code>):</p>",
        _runnable(f":param space => '{DEFAULT_SPACE}'"),
        "<p>Style missing? Apply it again:</p>",
        _runnable(f":style {base}{STYLE_PATH}"),
        f'<p>The memory explorer: <a href="{explorer}" target="_blank"'
        ' rel="noopener noreferrer">graphmem web UI</a>.</p>',
    )
    slides = [first]
    for q in saved_queries():
        params = [_runnable(p) for p in q.params if not p.startswith(":param space ")]
        slides.append(_slide(
            q.title, f"<p>Saved as <code>cypher/{html.escape(q.name)}.cypher</code>.</p>",
            *params, _runnable(q.statement)))
    return (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>graphmem</title></head><body><article class=\"guide\">"
        f"<carousel class=\"deck container-fluid\">{''.join(slides)}</carousel>"
        "</article></body></html>"
    )
