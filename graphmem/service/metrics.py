"""Prometheus metrics for one process, in a registry of its own (no module-level globals).

`/metrics` serves the text format; GRAPHMEM_METRICS_TOKEN, when set, must come as a bearer
token. With several workers each keeps its own figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector

from graphmem.graph.statements import EXECUTIONS
from graphmem.service.denials import DenialSampler

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
ROUTES = frozenset({"/graphql", "/mcp", "/healthz", "/readyz", "/metrics"})


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.operations = Counter("graphmem_operations", "Operations run (GraphQL root"
                                  " fields, MCP tools and resources), by operation and"
                                  " outcome (ok or the error code)",
                                  ["operation", "outcome"], registry=r)
        self.latency = Histogram("graphmem_operation_seconds", "Time to run an operation"
                                 " (a GraphQL root field, an MCP tool)", ["operation"],
                                 buckets=BUCKETS, registry=r)
        self.http = Counter("graphmem_http_requests", "HTTP requests by route and status",
                            ["route", "status"], registry=r)
        self.http_latency = Histogram("graphmem_http_request_seconds", "HTTP request time by"
                                      " route", ["route"], buckets=BUCKETS, registry=r)
        self.reconcile = Counter("graphmem_reconcile_actions", "Reconcile results by action",
                                 ["action"], registry=r)
        self.errors = Counter("graphmem_errors", "Errors answered, by code", ["code"],
                              registry=r)
        self.denials = DenialSampler()  # which denials become audit rows
        self.models = ModelCalls(dict)
        r.register(self.models)
        r.register(StatementCalls())
        self.subscriptions = Gauge("graphmem_subscriptions_active", "Open GraphQL"
                                   " subscriptions", registry=r)
        self.heavy = Gauge("graphmem_heavy_requests", "Heavy GraphQL requests, running in a"
                           " heavy lane or waiting for one", ["state"], registry=r)
        self.embedding_backlog = Gauge("graphmem_embedding_backlog", "New facts queued for"
                                       " their vectors in this process (recall finds them by"
                                       " text meanwhile)", registry=r)
        self._children: dict[tuple[int, tuple[str, ...]], Any] = {}

    def watch_embeddings(self, backlog: Callable[[], int]) -> None:
        """Report the embedding worker's backlog, read at scrape time."""
        self.embedding_backlog.set_function(lambda: float(backlog()))

    def watch_models(self, clients: Callable[[], Mapping[str, object | None]]) -> None:
        """Report the model clients' own call counters (`clients`: those built so far, by
        kind); a new lifespan (a new runtime) replaces the one watched before."""
        self.models.clients = clients

    def observe_http(self, path: str, status: int, seconds: float) -> None:
        route = path if path in ROUTES else "other"
        self._child(self.http, route, str(status)).inc()
        self._child(self.http_latency, route).observe(seconds)

    def observe_operation(self, operation: str, outcome: str, seconds: float) -> None:
        self._child(self.operations, operation, outcome).inc()
        self._child(self.latency, operation).observe(seconds)

    def _child(self, metric: Any, *labels: str) -> Any:
        """A labelled series, looked up once (`labels()` validates and locks every time)."""
        key = (id(metric), labels)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(*labels)
        return found

    def error(self, code: str) -> None:
        self.errors.labels(code).inc()

    def actions(self, actions: Iterable[str]) -> None:
        for action in actions:
            self.reconcile.labels(action).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)


class ModelCalls(Collector):
    """`graphmem_model_calls_total{kind}`: the `calls` counters of the runtime's model
    clients, read at scrape time; a client not built yet has made no call."""

    def __init__(self, clients: Callable[[], Mapping[str, object | None]]) -> None:
        self.clients = clients

    def describe(self) -> Iterable[Metric]:
        return [CounterMetricFamily("graphmem_model_calls", "Model calls made by this"
                                    " process, by kind (llm, embedding)", labels=["kind"])]

    def collect(self) -> Iterable[Metric]:
        family = CounterMetricFamily("graphmem_model_calls", "Model calls made by this"
                                     " process, by kind (llm, embedding)", labels=["kind"])
        built = self.clients()
        for kind in ("llm", "embedding"):
            client = built.get(kind)
            calls = 0 if client is None else getattr(client, "calls", None)
            if isinstance(calls, int | float):  # a client without a counter is not reported
                family.add_metric([kind], float(calls))
        return [family]


class StatementCalls(Collector):
    """`graphmem_cypher_statements_total{statement}`: named Cypher statements this process
    ran (every runner fetches the text from the registry, which counts it)."""

    def describe(self) -> Iterable[Metric]:
        return [self._family()]

    def collect(self) -> Iterable[Metric]:
        family = self._family()
        for name, runs in sorted(EXECUTIONS.snapshot().items()):
            family.add_metric([name], float(runs))
        return [family]

    @staticmethod
    def _family() -> CounterMetricFamily:
        return CounterMetricFamily("graphmem_cypher_statements", "Named Cypher statements run"
                                   " by this process", labels=["statement"])
