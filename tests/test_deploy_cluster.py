"""The files that deploy graphmem past one machine, validated offline: the Compose file of a
three-server Neo4j cluster with three graphmem hosts behind nginx (Compose's own `config`, no
engine needed), and the Kubernetes manifests of the graphmem tier with the official Neo4j Helm
chart's values (parsed, and checked for the fields they must carry). No secret is written in
any of them: each is a required variable or a Kubernetes Secret reference."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from graphmem.settings import Settings

from support.compose import compose_or_skip, generated_env

ROOT = Path(__file__).resolve().parents[1]
CLUSTER = ROOT / "deploy" / "cluster" / "docker-compose.yml"
NGINX = ROOT / "deploy" / "cluster" / "nginx.conf"
KUBERNETES = ROOT / "deploy" / "kubernetes" / "graphmem.yaml"
NEO4J_VALUES = ROOT / "deploy" / "kubernetes" / "neo4j-values.yaml"
SHARED = ("GRAPHMEM_API_KEY_PEPPER", "GRAPHMEM_KEY", "GRAPHMEM_KEY_SALT",
          "GRAPHMEM_ENCRYPTION_KEY", "GRAPHMEM_NEO4J_PASSWORD", "GRAPHMEM_DATABASE_URL")
_REQUIRED = re.compile(r"\$\{([A-Z_][A-Z0-9_]*):\?([^}]*)\}")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    doc = yaml.safe_load(CLUSTER.read_text())
    assert isinstance(doc, dict)
    return doc


def services(compose: dict[str, Any], prefix: str) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in compose["services"].items() if k.startswith(prefix)}


def run_config(cli: list[str], env_file: Path, licence: str | None
               ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_ACCEPT_LICENSE_AGREEMENT"}
    if licence is not None:
        env["NEO4J_ACCEPT_LICENSE_AGREEMENT"] = licence
    return subprocess.run([*cli, "-f", str(CLUSTER), "--env-file", str(env_file), "config",
                           "-q"], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False, timeout=60)


def test_compose_validates_the_cluster_file_once_the_licence_is_accepted(
        tmp_path: Path) -> None:
    cli = compose_or_skip("deploy/cluster/docker-compose.yml")
    generated_env(tmp_path, "--cluster")
    accepted = run_config(cli, tmp_path / ".env", "yes")
    assert accepted.returncode == 0, accepted.stderr
    refused = run_config(cli, tmp_path / ".env", None)
    assert refused.returncode != 0 and "NEO4J_ACCEPT_LICENSE_AGREEMENT" in refused.stderr


def test_three_enterprise_servers_discover_one_another(compose: dict[str, Any]) -> None:
    servers = services(compose, "neo4j")
    assert len(servers) == 3
    for name, server in servers.items():
        assert server["image"] == "neo4j:5.26-enterprise"
        env = server["environment"]
        assert env["NEO4J_dbms_cluster_discovery_endpoints"].split(",") == [
            f"{s}:5000" for s in servers]
        assert env["NEO4J_server_default__advertised__address"] == name == server["hostname"]
        assert env["NEO4J_initial_server_mode__constraint"] == "PRIMARY"
        assert _REQUIRED.search(env["NEO4J_ACCEPT_LICENSE_AGREEMENT"])


def test_every_host_routes_to_the_cluster_and_shares_only_secrets_it_is_given(
        compose: dict[str, Any]) -> None:
    hosts = services(compose, "graphmem")
    assert len(hosts) == 3
    homes = set()
    for name, host in hosts.items():
        env = host["environment"]
        assert env["GRAPHMEM_NEO4J_URI"].startswith("neo4j://")
        assert int(env["GRAPHMEM_HOSTS"]) == len(hosts)
        for secret in SHARED:
            assert _REQUIRED.search(str(env[secret])), f"{name}: {secret} is not required"
        assert set(env) <= {f"GRAPHMEM_{f.upper()}" for f in Settings.model_fields}, name
        homes.update(v.split(":")[0] for v in host["volumes"])
        assert "/readyz" in " ".join(host["healthcheck"]["test"])
    assert len(homes) == 3, "every host keeps a home of its own"


def test_nginx_spreads_requests_over_every_host_and_never_resends_a_post() -> None:
    conf = NGINX.read_text()
    upstream = re.findall(r"server (graphmem\d):8080", conf)
    assert upstream == ["graphmem1", "graphmem2", "graphmem3"]
    assert "proxy_next_upstream error timeout;" in conf  # not non_idempotent
    assert "non_idempotent" not in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf  # subscriptions


@pytest.fixture(scope="module")
def manifests() -> dict[str, dict[str, Any]]:
    docs = [d for d in yaml.safe_load_all(KUBERNETES.read_text()) if d]
    return {f"{d['kind']}/{d['metadata']['name']}": d for d in docs}


def test_the_graphmem_tier_has_probes_on_readyz_and_healthz(
        manifests: dict[str, dict[str, Any]]) -> None:
    hosts = manifests["StatefulSet/graphmem"]
    container = hosts["spec"]["template"]["spec"]["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert hosts["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "home"
    assert {"Service/graphmem", "PodDisruptionBudget/graphmem"} <= set(manifests)
    assert manifests["Service/graphmem"]["spec"]["selector"] == (
        hosts["spec"]["template"]["metadata"]["labels"])


def test_the_graphmem_tier_takes_every_secret_from_a_kubernetes_secret(
        manifests: dict[str, dict[str, Any]]) -> None:
    hosts = manifests["StatefulSet/graphmem"]
    env = {e["name"]: e for e in hosts["spec"]["template"]["spec"]["containers"][0]["env"]}
    for secret in SHARED:
        assert "value" not in env[secret], secret
        assert env[secret]["valueFrom"]["secretKeyRef"]["name"] == "graphmem-secrets"
    assert env["GRAPHMEM_NEO4J_URI"]["value"].startswith("neo4j://")
    assert int(env["GRAPHMEM_HOSTS"]["value"]) == hosts["spec"]["replicas"]
    assert set(env) <= {f"GRAPHMEM_{f.upper()}" for f in Settings.model_fields}


def test_the_neo4j_chart_values_ask_for_a_three_server_enterprise_cluster() -> None:
    values = yaml.safe_load(NEO4J_VALUES.read_text())
    neo4j = values["neo4j"]
    assert neo4j["edition"] == "enterprise" and neo4j["minimumClusterSize"] == 3
    assert neo4j["acceptLicenseAgreement"] == "no", "the operator accepts the licence"
    assert neo4j["passwordFromSecret"] and "password" not in neo4j
    hosts = yaml.safe_load_all(KUBERNETES.read_text())
    uri = next(e["value"] for d in hosts if d and d["kind"] == "StatefulSet"
               for e in d["spec"]["template"]["spec"]["containers"][0]["env"]
               if e["name"] == "GRAPHMEM_NEO4J_URI")
    assert uri.startswith(f"neo4j://{neo4j['name']}-")


def keep_alive_settings() -> dict[str, str]:
    """The managed server's keep-alive settings, which give the driver its read timeout."""
    template = ROOT / "graphmem" / "neo4j_local" / "neo4j.conf"
    return dict(line.split("=", 1) for line in template.read_text().splitlines()
                if line.startswith("server.bolt.connection_keep_alive"))


def neo4j_env(name: str) -> str:
    """A setting's name as the Neo4j image reads it from the environment."""
    return "NEO4J_" + name.replace("_", "__").replace(".", "_")


def test_every_deployed_neo4j_gives_the_driver_the_managed_servers_read_timeout() -> None:
    wanted = keep_alive_settings()
    assert len(wanted) == 4 and wanted["server.bolt.connection_keep_alive_for_requests"] == "ALL"
    chart = yaml.safe_load(NEO4J_VALUES.read_text())["config"]
    assert {k: str(chart.get(k)) for k in wanted} == wanted
    servers = 0
    for path in (CLUSTER, ROOT / "docker-compose.yml"):
        doc = yaml.safe_load(path.read_text())
        for name, service in doc["services"].items():
            if not str(service.get("image", "")).startswith("neo4j:"):
                continue
            servers += 1
            env = service["environment"]
            assert {k: str(env.get(neo4j_env(k))) for k in wanted} == wanted, (path, name)
    assert servers == 4, "three cluster servers and the Compose file's one"
