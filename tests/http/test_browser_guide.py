"""The Neo4j Browser guide and conf lines, without a server: every saved query becomes a
runnable block, text is escaped, and the conf points at where graphmem is reached."""

from __future__ import annotations

from graphmem.neo4j_local import browser
from graphmem.settings import load_settings


def test_every_saved_query_is_a_slide_with_its_statement() -> None:
    queries = browser.saved_queries()
    assert {q.name for q in queries} >= {"browser/current_graph", "browser/subject_timeline",
                                         "browser/open_conflicts", "browser/neighbourhood"}
    html = browser.guide_html("http://127.0.0.1:8080")
    assert html.count("<slide") == len(queries) + 1
    for q in queries:
        assert q.title and q.title[0].isupper() and not q.title.endswith(".")
        assert q.statement.startswith("MATCH")
        assert f"cypher/{q.name}.cypher" in html


def test_param_lines_become_runnable_blocks_and_text_is_escaped() -> None:
    timeline = next(q for q in browser.saved_queries() if q.name == "browser/subject_timeline")
    assert ":param subject => 'alice_role'" in timeline.params
    html = browser.guide_html("http://127.0.0.1:8080")
    assert '<pre class="code runnable">:param subject =&gt; &#x27;alice_role&#x27;</pre>' in html
    assert "-[about:ABOUT]-&gt;(e:Entity)" in html and "]->(e:Entity)" not in html


def test_the_guide_links_where_graphmem_was_reached() -> None:
    html = browser.guide_html("http://memory.example:9000")
    assert ":style http://memory.example:9000/ui/neo4j/style.grass" in html
    assert 'href="http://memory.example:9000/ui/"' in html


def test_conf_values_follow_host_port_and_public_url() -> None:
    wildcard = browser.conf_values(load_settings(host="0.0.0.0", port=9001))
    assert wildcard["browser_post_connect_cmd"] == (
        "style http://127.0.0.1:9001/ui/neo4j/style.grass;"
        " guide http://127.0.0.1:9001/ui/neo4j/guide.html")
    assert wildcard["browser_allowlist"] == "127.0.0.1,localhost"
    public = browser.conf_values(load_settings(public_url="https://mem.example/"))
    assert public["browser_post_connect_cmd"].startswith(
        "style https://mem.example/ui/neo4j/style.grass;")
    assert public["browser_allowlist"] == "mem.example,127.0.0.1,localhost"


def test_the_style_is_served_without_its_comment() -> None:
    style = browser.style()
    assert "/*" not in style and "node.Entity {" in style and "#4C8EDA" in style
