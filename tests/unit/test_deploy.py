"""The Helm chart and the plain Kubernetes manifests: rendered offline with helm-python-sdk
(Helm's Go SDK as a shared library: no helm binary, no cluster, no network) and every manifest
validated against the Kubernetes 1.30 schemas bundled in kubernetes-validate (strict: unknown
fields fail). The Qdrant subchart is not fetched (no network for ``helm dependency build``):
the chart renders without it, which is what these tests do.

ServiceMonitor is a Prometheus Operator CRD, not in the core schemas: it is checked for its
required structure and against the Service it must select instead.
"""

from __future__ import annotations

import base64
import shutil
import tomllib
from pathlib import Path
from typing import Any

import helm_python as helm
import pytest
from deployfiles import (CHART, DEPLOY, PENDING_SECTIONS, env_of, load_config, validate_k8s,
                         yaml_docs)

from coderecalld import auth

RELEASE, NAMESPACE = "rel", "code"
ORDINAL_FIELD = "metadata.labels['apps.kubernetes.io/pod-index']"
CRDS = {"ServiceMonitor"}


@pytest.fixture(scope="module")
def chart_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The chart without charts/ (where ``helm dependency build`` puts the Qdrant chart), so
    the tests see the same chart on every machine."""
    target = tmp_path_factory.mktemp("chart") / "coderecall"
    shutil.copytree(CHART, target, ignore=lambda d, names: ["charts"] if Path(d) == CHART else [])
    return target


@pytest.fixture(scope="module")
def chart(chart_dir: Path) -> helm.Chart:
    return helm.Chart.load(chart_dir)


def render(chart: helm.Chart, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """Rendered manifests as ``{"Kind/name": doc}``, plus ``"NOTES"``; each validated."""
    out = chart.render(values, name=RELEASE, namespace=NAMESPACE)
    docs: dict[str, Any] = {"NOTES": out.pop("coderecall/templates/NOTES.txt")}
    for text in out.values():
        for doc in yaml_docs(text):
            key = f"{doc['kind']}/{doc['metadata']['name']}"
            assert key not in docs, key
            if doc["kind"] in CRDS:
                _check_service_monitor(doc)
            else:
                validate_k8s(doc)
            docs[key] = doc
    return docs


def _check_service_monitor(doc: dict[str, Any]) -> None:
    assert doc["apiVersion"] == "monitoring.coreos.com/v1"
    assert set(doc["spec"]) >= {"selector", "endpoints"}
    assert doc["spec"]["selector"]["matchLabels"]
    for endpoint in doc["spec"]["endpoints"]:
        assert set(endpoint) <= {"port", "path", "interval", "scrapeTimeout", "scheme"}
        assert endpoint["port"] and endpoint["path"].startswith("/")


def _pod(docs: dict[str, Any]) -> dict[str, Any]:
    return docs[f"StatefulSet/{RELEASE}-coderecall"]["spec"]["template"]["spec"]


def _container(docs: dict[str, Any]) -> dict[str, Any]:
    (container,) = _pod(docs)["containers"]
    return container


def _config_text(docs: dict[str, Any]) -> str:
    return docs[f"ConfigMap/{RELEASE}-coderecall"]["data"]["config.toml"]


def _env_values(container: dict[str, Any]) -> dict[str, str]:
    """The cluster variables as the kubelet resolves them (a fieldRef to the absent pod-index
    label as ""), and the webhook secret as a placeholder when it comes from a Secret."""
    env = env_of(container)
    out = {name: e.get("value", "") for name, e in env.items() if name.startswith("CODERECALL_CLUSTER__")}
    secret = env.get("CODERECALL_WEBHOOK__SECRET", {}).get("valueFrom", {}).get("secretKeyRef")
    if secret:
        out["CODERECALL_WEBHOOK__SECRET"] = f"<secret {secret['key']}>"
    return out


# --- the chart --------------------------------------------------------------------------

def test_lint_reports_only_the_subchart_not_fetched(chart_dir: Path) -> None:
    report = helm.lint(chart_dir, strict=True, kube_version="v1.30.0")
    assert [(m["severity"], m["error"]) for m in report["messages"]] == [
        (1, "icon is recommended"),
        (2, "chart directory is missing these dependencies: qdrant"),
    ]


def test_default_values(chart: helm.Chart, tmp_path: Path) -> None:
    docs = render(chart)
    assert sorted(k for k in docs if k != "NOTES") == [
        "ConfigMap/rel-coderecall", "Secret/rel-coderecall", "Service/rel-coderecall",
        "Service/rel-coderecall-headless", "ServiceAccount/rel-coderecall",
        "StatefulSet/rel-coderecall"]
    sts = docs["StatefulSet/rel-coderecall"]["spec"]
    assert (sts["replicas"], sts["serviceName"], sts["podManagementPolicy"]) == (
        1, "rel-coderecall-headless", "Parallel")
    container = _container(docs)
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"] == {"port": 50551}
    assert container["startupProbe"]["periodSeconds"] * container["startupProbe"]["failureThreshold"] == 3600
    assert {p["name"]: p["containerPort"] for p in container["ports"]} == {
        "grpc": 50551, "metrics": 9464}  # webhooks are off until given a secret
    pod = _pod(docs)
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == 10001
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["capabilities"] == {"drop": ["ALL"]}
    assert pod["automountServiceAccountToken"] is False
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts == {"data": "/var/lib/coderecall", "config": "/etc/coderecall",
                      "secrets": "/run/secrets/coderecall", "tmp": "/tmp"}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert volumes["secrets"]["secret"]["secretName"] == "rel-coderecall"
    assert volumes["config"]["configMap"]["name"] == "rel-coderecall"
    (claim,) = sts["volumeClaimTemplates"]
    assert (claim["metadata"]["name"], claim["spec"]["resources"]["requests"]["storage"]) == ("data", "20Gi")
    env = env_of(container)
    assert env["CODERECALL_CLUSTER__REPLICAS"]["value"] == "1"
    assert env["CODERECALL_CLUSTER__ORDINAL"]["valueFrom"] == {"fieldRef": {"fieldPath": ORDINAL_FIELD}}
    # qdrant.enabled (default): the subchart's Service and generated API-key Secret.
    assert env["CODERECALL_STORE__API_KEY"]["valueFrom"] == {
        "secretKeyRef": {"name": "rel-qdrant-apikey", "key": "api-key"}}
    raw = tomllib.loads(_config_text(docs))
    assert raw["store"] == {"backend": "server", "url": "http://rel-qdrant:6333"}
    assert raw["metrics"] == {"listen": "0.0.0.0:9464"} and raw["webhook"] == {"listen": ""}
    cfg = load_config(_config_text(docs), _env_values(container))
    assert (cfg.server.listen, str(cfg.data_dir), cfg.log_format) == ("0.0.0.0:50551", "/var/lib/coderecall", "json")
    assert (cfg.auth.mode, cfg.auth.tokens_file) == ("token", "/run/secrets/coderecall/tokens.toml")
    assert (cfg.cluster.replicas, cfg.cluster.ordinal) == (1, -1)
    assert (cfg.index.sync_interval_s, cfg.embedding.batch_size, cfg.repos) == (300.0, 8, ())
    # The placeholder tokens file is valid and matches no token.
    tokens = tmp_path / "tokens.toml"
    tokens.write_bytes(base64.b64decode(docs["Secret/rel-coderecall"]["data"]["tokens.toml"]))
    (entry,) = auth.load_tokens(tokens)
    assert (entry.principal.name, entry.sha256) == ("replace-me", "0" * 64)
    assert 'placeholder entry "replace-me"' in docs["NOTES"]


def test_three_replicas_with_service_monitor_and_external_qdrant(chart: helm.Chart) -> None:
    docs = render(chart, {
        "replicaCount": 3,
        "serviceMonitor": {"enabled": True, "labels": {"release": "prom"}},
        "podDisruptionBudget": {"enabled": True},
        "qdrant": {"enabled": False},
        "externalQdrant": {"url": "https://qdrant.example:6333", "apiKey": "qk"},
        "gitCredentials": {"token": "gt"},
        "webhook": {"enabled": True, "secret": "ws"},
        "repos": [{"name": "acme/api", "url": "https://github.com/acme/api.git", "branch": "main",
                   "token_file": "/run/secrets/coderecall/git-token"},
                  {"url": "https://github.com/acme/web.git"}],
    })
    assert docs["StatefulSet/rel-coderecall"]["spec"]["replicas"] == 3
    container = _container(docs)
    env = env_of(container)
    assert env["CODERECALL_CLUSTER__REPLICAS"]["value"] == "3"
    assert env["CODERECALL_STORE__API_KEY"]["valueFrom"] == {
        "secretKeyRef": {"name": "rel-coderecall", "key": "qdrant-api-key", "optional": False}}
    assert env["CODERECALL_WEBHOOK__SECRET"]["valueFrom"] == {
        "secretKeyRef": {"name": "rel-coderecall", "key": "webhook-secret"}}
    secret = {k: base64.b64decode(v).decode() for k, v in docs["Secret/rel-coderecall"]["data"].items()}
    assert {k: v for k, v in secret.items() if k != "tokens.toml"} == {
        "git-token": "gt", "webhook-secret": "ws", "qdrant-api-key": "qk"}
    assert tomllib.loads(_config_text(docs))["store"] == {"backend": "server", "url": "https://qdrant.example:6333"}
    cfg = load_config(_config_text(docs), _env_values(container))
    assert cfg.cluster.replicas == 3
    assert [(r.name, r.url, r.branch, r.token_file) for r in cfg.repos] == [
        ("acme/api", "https://github.com/acme/api.git", "main", "/run/secrets/coderecall/git-token"),
        ("web", "https://github.com/acme/web.git", "", "")]
    # The ServiceMonitor selects exactly the headless Service, whose port "metrics" it scrapes.
    monitor = docs["ServiceMonitor/rel-coderecall"]
    headless = docs["Service/rel-coderecall-headless"]
    selector = monitor["spec"]["selector"]["matchLabels"]
    services = [k for k, d in docs.items() if k.startswith("Service/")
                and selector.items() <= d["metadata"]["labels"].items()]
    assert services == ["Service/rel-coderecall-headless"]
    assert monitor["metadata"]["labels"]["release"] == "prom"
    assert [e["port"] for e in monitor["spec"]["endpoints"]] == ["metrics"]
    assert {p["name"]: p["port"] for p in headless["spec"]["ports"]} == {"grpc": 50551, "metrics": 9464}
    pdb = docs["PodDisruptionBudget/rel-coderecall"]["spec"]
    assert (pdb["maxUnavailable"], pdb["selector"]["matchLabels"]) == (
        1, docs["StatefulSet/rel-coderecall"]["spec"]["selector"]["matchLabels"])
    assert "mod 3 is its ordinal" in docs["NOTES"]


def test_without_qdrant_one_replica_uses_the_embedded_store(chart: helm.Chart) -> None:
    docs = render(chart, {"qdrant": {"enabled": False}, "metrics": {"enabled": False},
                          "webhook": {"enabled": False}})
    raw = tomllib.loads(_config_text(docs))
    assert "store" not in raw
    assert (raw["metrics"], raw["webhook"]) == ({"listen": ""}, {"listen": ""})
    env = env_of(_container(docs))
    assert sorted(env) == ["CODERECALL_CLUSTER__ORDINAL", "CODERECALL_CLUSTER__REPLICAS"]
    assert [p["name"] for p in _container(docs)["ports"]] == ["grpc"]
    assert "Store: embedded" in docs["NOTES"]


def test_existing_secret_replaces_the_charts(chart: helm.Chart) -> None:
    docs = render(chart, {"existingSecret": "mine", "qdrant": {"enabled": False},
                          "externalQdrant": {"url": "http://q:6333"}, "webhook": {"enabled": True}})
    assert "Secret/rel-coderecall" not in docs
    pod = _pod(docs)
    assert {v["name"]: v for v in pod["volumes"]}["secrets"]["secret"]["secretName"] == "mine"
    env = env_of(_container(docs))
    assert env["CODERECALL_STORE__API_KEY"]["valueFrom"]["secretKeyRef"] == {
        "name": "mine", "key": "qdrant-api-key", "optional": True}
    assert env["CODERECALL_WEBHOOK__SECRET"]["valueFrom"]["secretKeyRef"] == {
        "name": "mine", "key": "webhook-secret"}  # required: the daemon refuses a webhook without it


@pytest.mark.parametrize(("values", "message"), [
    ({"replicaCount": 2, "qdrant": {"enabled": False}},
     "replicaCount > 1 needs a shared Qdrant: set qdrant.enabled=true or externalQdrant.url"),
    ({"externalQdrant": {"url": "http://q:6333"}},
     "set either qdrant.enabled or externalQdrant.url, not both"),
    ({"auth": {"mode": "token", "tokens": ""}}, "auth.mode=token needs auth.tokens"),
    ({"serviceMonitor": {"enabled": True}, "metrics": {"enabled": False}},
     "serviceMonitor.enabled needs metrics.enabled"),
    ({"webhook": {"enabled": True}},
     "webhook.enabled needs webhook.secret"),
])
def test_contradictory_values_fail_with_a_message(chart: helm.Chart, values: dict[str, Any],
                                                 message: str) -> None:
    with pytest.raises(helm.HelmRenderError, match=message.replace(".", r"\.").replace("(", r"\(")):
        chart.render(values, name=RELEASE, namespace=NAMESPACE)


@pytest.mark.parametrize(("values", "message"), [
    ({"replicaCount": 0}, "at '/replicaCount': minimum: got 0, want 1"),
    ({"repos": [{"url": "https://h/x.git", "token": "t"}]}, "additional properties 'token' not allowed"),
    ({"config": {"store": {"backend": "server"}}}, "at '/config'"),
    ({"auth": {"mode": "none"}}, "at '/auth/mode'"),
])
def test_values_schema_refuses(chart: helm.Chart, values: dict[str, Any], message: str) -> None:
    with pytest.raises(helm.HelmValuesError) as info:
        chart.render(values, name=RELEASE, namespace=NAMESPACE)
    assert message in str(info.value)


def test_release_named_like_qdrant_follows_the_subcharts_naming(chart: helm.Chart) -> None:
    # The Qdrant chart names itself after the release when the release name contains "qdrant".
    out = chart.render(None, name="my-qdrant", namespace=NAMESPACE)
    (config_map,) = yaml_docs(out["coderecall/templates/configmap.yaml"])
    assert tomllib.loads(config_map["data"]["config.toml"])["store"]["url"] == "http://my-qdrant:6333"


# --- deploy/k8s --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def k8s() -> dict[str, Any]:
    docs: dict[str, Any] = {}
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        for doc in yaml_docs(path.read_text()):
            validate_k8s(doc)
            docs[f"{doc['kind']}/{doc['metadata']['name']}"] = doc
    return docs


def test_k8s_manifests_validate_and_are_complete(k8s: dict[str, Any]) -> None:
    assert sorted(k8s) == [
        "ConfigMap/coderecall-config", "Namespace/coderecall", "PodDisruptionBudget/coderecall",
        "Secret/coderecall-secrets", "Service/coderecall", "Service/coderecall-headless",
        "Service/qdrant", "StatefulSet/coderecall", "StatefulSet/qdrant"]
    namespaced = [d for k, d in k8s.items() if not k.startswith("Namespace/")]
    assert {d["metadata"]["namespace"] for d in namespaced} == {"coderecall"}


def test_k8s_statefulset_shards_and_probes(k8s: dict[str, Any]) -> None:
    sts = k8s["StatefulSet/coderecall"]["spec"]
    pod = sts["template"]["spec"]
    (container,) = pod["containers"]
    env = env_of(container)
    assert env["CODERECALL_CLUSTER__REPLICAS"]["value"] == str(sts["replicas"]) == "2"
    assert env["CODERECALL_CLUSTER__ORDINAL"]["valueFrom"] == {"fieldRef": {"fieldPath": ORDINAL_FIELD}}
    assert sts["podManagementPolicy"] == "Parallel"
    assert sts["serviceName"] == "coderecall-headless"
    grpc_port = {p["name"]: p["containerPort"] for p in container["ports"]}["grpc"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"] == {"port": grpc_port}
    assert (pod["securityContext"]["runAsNonRoot"], pod["securityContext"]["runAsUser"]) == (True, 10001)
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    # Every ConfigMap and Secret the pods use is in the directory.
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert f"ConfigMap/{volumes['config']['configMap']['name']}" in k8s
    assert f"Secret/{volumes['secrets']['secret']['secretName']}" in k8s
    for name in ("CODERECALL_STORE__API_KEY", "CODERECALL_WEBHOOK__SECRET"):
        ref = env[name]["valueFrom"]["secretKeyRef"]
        assert ref["key"] in k8s[f"Secret/{ref['name']}"]["stringData"]
    (claim,) = sts["volumeClaimTemplates"]
    assert {m["name"]: m["mountPath"] for m in container["volumeMounts"]}[claim["metadata"]["name"]] == "/var/lib/coderecall"


def test_k8s_config_loads_and_points_at_the_manifests(k8s: dict[str, Any], tmp_path: Path) -> None:
    text = k8s["ConfigMap/coderecall-config"]["data"]["config.toml"]
    raw = tomllib.loads(text)
    assert set(raw) - {"data_dir", "log_format", "server", "auth", "index", "repos", "cluster"} == PENDING_SECTIONS - {"logging"}
    # The store URL is the Qdrant Service of qdrant.yaml, its port named http.
    qdrant = k8s["Service/qdrant"]
    ports = {p["name"]: p["port"] for p in qdrant["spec"]["ports"]}
    assert raw["store"]["url"] == f"http://qdrant.coderecall.svc:{ports['http']}"
    cfg = load_config(text, {"CODERECALL_CLUSTER__REPLICAS": "2", "CODERECALL_CLUSTER__ORDINAL": "",
                             "CODERECALL_WEBHOOK__SECRET": "from the Secret"})
    (container,) = k8s["StatefulSet/coderecall"]["spec"]["template"]["spec"]["containers"]
    assert cfg.server.listen == f"0.0.0.0:{container['ports'][0]['containerPort']}"
    assert (cfg.cluster.replicas, cfg.cluster.ordinal) == (2, -1)
    assert [r.token_file for r in cfg.repos] == ["/run/secrets/coderecall/git-token"] * 2
    secrets_mount = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}["secrets"]
    assert cfg.auth.tokens_file == f"{secrets_mount}/tokens.toml"
    tokens = tmp_path / "tokens.toml"
    tokens.write_text(k8s["Secret/coderecall-secrets"]["stringData"]["tokens.toml"])
    (entry,) = auth.load_tokens(tokens)
    assert entry.sha256 == "0" * 64


def test_k8s_services_select_the_pods(k8s: dict[str, Any]) -> None:
    labels = k8s["StatefulSet/coderecall"]["spec"]["template"]["metadata"]["labels"]
    for name in ("Service/coderecall", "Service/coderecall-headless", "PodDisruptionBudget/coderecall"):
        spec = k8s[name]["spec"]
        selector = spec["selector"].get("matchLabels", spec["selector"])
        assert selector.items() <= labels.items(), name
    assert k8s["Service/coderecall-headless"]["spec"]["clusterIP"] == "None"
    qdrant_labels = k8s["StatefulSet/qdrant"]["spec"]["template"]["metadata"]["labels"]
    assert k8s["Service/qdrant"]["spec"]["selector"].items() <= qdrant_labels.items()
