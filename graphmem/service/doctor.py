"""Every dependency of a deployment checked, each problem with the fix beside it
(`graphmem doctor`)."""

from __future__ import annotations

from collections.abc import Callable

from graphmem import embeddings
from graphmem.errors import GraphMemError
from graphmem.graph import migrations as graph_migrations
from graphmem.graph import recall
from graphmem.graph.driver import GraphDriver
from graphmem.lexicon import WordNetMissing, open_senses
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore, redact
from graphmem.model.health import Finding
from graphmem.neo4j_local.manager import LocalNeo4j, check_java
from graphmem.settings import Settings

LAG_CAP = 1_000_001  # facts without vectors counted at most (the count scans the graph)


def _java(settings: Settings) -> str:
    if not settings.managed_neo4j:
        return "not needed (external Neo4j)"
    return f"Java {check_java()}"


def _managed(settings: Settings) -> str:
    if not settings.managed_neo4j:
        return f"external Neo4j at {settings.neo4j_uri} (managed server not used)"
    status = LocalNeo4j(settings).status()
    if not status.installed:
        raise GraphMemError("managed Neo4j is not installed: run `graphmem neo4j install`")
    if not status.running:
        raise GraphMemError("managed Neo4j is stopped: run `graphmem neo4j start`")
    return f"Neo4j {status.version} running, pid {status.pid}"


def _neo4j(settings: Settings) -> str:
    graph = GraphDriver(settings)
    try:
        agent = graph.verify()
        version = graph_migrations.current_version(graph)
    finally:
        graph.close()
    latest = graph_migrations.latest_version()
    if version != latest:
        raise GraphMemError(f"{agent}: graph schema {version}/{latest}, run `graphmem migrate up`")
    return f"{agent} at {settings.bolt_uri}, credentials accepted, schema {version}"


def _relational(settings: Settings) -> str:
    store = RelationalStore(settings.relational_url)
    try:
        version = store_migrations.current_version(store)
    finally:
        store.close()
    latest = store_migrations.latest_version()
    where = redact(settings.relational_url)
    if version != latest:
        raise GraphMemError(f"{where}: schema {version}/{latest}, run `graphmem migrate up`")
    return f"{where}, schema {version}"


def _embeddings(settings: Settings) -> str:
    return embeddings.describe(settings)


def _vectors(settings: Settings) -> str:
    """The embedding lag in the graph: facts without a vector yet. Never a failure: they are
    embedded in the background by the next process that writes to their space, and full-text
    finds them meanwhile."""
    graph = GraphDriver(settings)
    try:
        waiting = recall.unembedded_count(graph, LAG_CAP)
    finally:
        graph.close()
    if not waiting:
        return "every fact has its vector"
    count = f"more than {LAG_CAP - 1:,}" if waiting >= LAG_CAP else f"{waiting:,}"
    return (f"{count} fact(s) wait for their vectors (embedded in the background by the next"
            " process that writes to their space; full-text finds them meanwhile)")


def _lexicon(settings: Settings) -> str:
    """WordNet, which multi-hop questions are read with: optional, but without it only the
    labels and the embedding model read a question's words."""
    try:
        senses = open_senses(settings.wordnet_dir)
    except (WordNetMissing, OSError):
        raise GraphMemError("WordNet's database files are not in GRAPHMEM_WORDNET_DIR:"
                            " multi-hop questions are read without the lexicon (install"
                            " Debian's `wordnet-base`, or point GRAPHMEM_WORDNET_DIR at"
                            " WordNet 3.0's dict/ folder)") from None
    found = senses.wn.senses("person", "n")
    return f"WordNet 3.0 ({len(found)} senses of `person`)"


def _llm(settings: Settings) -> str:
    if not settings.llm_configured:
        return ("no LLM configured: remember(text) and answers need GRAPHMEM_LLM_BASE_URL and"
                " GRAPHMEM_LLM_MODEL; rememberFacts, reads and recall without an answer work")
    return f"{settings.llm_model} at {settings.llm_base_url}"


CHECKS: tuple[tuple[str, Callable[[Settings], str]], ...] = (
    ("java", _java), ("managed neo4j", _managed), ("neo4j", _neo4j),
    ("relational store", _relational), ("embeddings", _embeddings), ("vectors", _vectors),
    ("lexicon", _lexicon), ("llm", _llm),
)


def run_checks(settings: Settings) -> list[Finding]:
    results = []
    for name, check in CHECKS:
        try:
            results.append(Finding(name, True, check(settings)))
        except GraphMemError as e:
            results.append(Finding(name, False, str(e)))
    return results
