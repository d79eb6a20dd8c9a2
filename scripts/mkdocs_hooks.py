"""MkDocs hooks: the site loads nothing from another host and runs under graphmem's CSP.

- Mermaid comes from the `mmdc` package's copy of `mermaid.min.js` (a dev extra, from PyPI),
  written into the site and loaded before Material's bundle on the pages that draw a
  diagram, so Material finds `mermaid` defined and never fetches it from a CDN.
- Material's small inline scripts (`__md_scope`, `__md_get`, ...) move into files of the
  site: `/docs/` is served under the same Content-Security-Policy as `/ui/`
  (`script-src 'self'`, no inline script).
- The benchmark plots of bench/ are added beside the page that includes bench/RESULTS.md.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
MERMAID_URI = "assets/javascripts/mermaid.min.js"
INLINE_DIR = "assets/javascripts/inline"
_INLINE = re.compile(r"<script>(.*?)</script>", re.S)
_BUNDLE = re.compile(r'<script src="([^"]*)assets/javascripts/bundle\.[0-9a-f]+\.min\.js">')
_scripts: dict[str, str] = {}


def mermaid_js() -> Path:
    spec = importlib.util.find_spec("mmdc")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("mermaid.min.js comes from the `mmdc` package: install the dev"
                         ' extras (uv pip install -e ".[dev]")')
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "mermaid.js"


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, MERMAID_URI, abs_src_path=str(mermaid_js())))
    for plot in sorted((ROOT / "bench").glob("*.png")):
        files.append(File.generated(config, plot.name, abs_src_path=str(plot)))
    return files


def on_post_page(output: str, page: Any, config: Any) -> str:
    return externalize(output)


def on_post_template(output: str, template_name: str, config: Any) -> str:
    """Static templates (404.html) get the same treatment as pages."""
    return externalize(output)


def externalize(output: str) -> str:
    """Material's inline scripts moved into files; Mermaid loaded first where it draws."""
    bundle = _BUNDLE.search(output)
    if bundle is None:
        return output
    prefix = bundle.group(1)

    def external(match: re.Match[str]) -> str:
        code = match.group(1)
        name = hashlib.sha256(code.encode()).hexdigest()[:16] + ".js"
        _scripts[name] = code
        return f'<script src="{prefix}{INLINE_DIR}/{name}"></script>'

    output = _INLINE.sub(external, output)
    if 'class="mermaid"' in output:
        tag = f'<script src="{prefix}{MERMAID_URI}"></script>'
        output = output.replace(bundle.group(0), tag + bundle.group(0), 1)
    return output


def on_post_build(config: Any) -> None:
    folder = Path(config["site_dir"]) / INLINE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for name, code in sorted(_scripts.items()):
        (folder / name).write_text(code, encoding="utf-8")
    _scripts.clear()
