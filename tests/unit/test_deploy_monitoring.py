"""deploy/grafana/coderecall.json and deploy/prometheus/alerts.yaml: every query parses as
PromQL (promql-parser, the Rust parser's bindings) and names only metrics the daemon exports,
from metrics.py or the RPC/stage/store/build metrics being added alongside (``PLANNED``)."""

from __future__ import annotations

import json
from typing import Any

import promql_parser
import pytest
import yaml
from deployfiles import DEPLOY
from prometheus_client.metrics import MetricWrapperBase

from coderecalld import metrics

#: Metric families another branch is adding (name as exposed -> type). Once metrics.py has
#: them, ``exported()`` finds them there and checks the type agrees.
PLANNED = {
    "coderecall_rpc_duration_seconds": "histogram",
    "coderecall_rpc_errors": "counter",
    "coderecall_stage_duration_seconds": "histogram",
    "coderecall_index_queue_depth": "gauge",
    "coderecall_store_operation_duration_seconds": "histogram",
    "coderecall_build_info": "gauge",
}
_SUFFIXES = {"counter": ("_total",), "gauge": ("",), "histogram": ("_bucket", "_count", "_sum"),
             "summary": ("_count", "_sum"), "info": ("_info",)}


def _families() -> dict[str, str]:
    """metrics.py's metric families: name -> type."""
    found = {}
    for value in vars(metrics).values():
        if isinstance(value, MetricWrapperBase):
            (family,) = value.describe()
            found[family.name] = family.type
    return found


def exported() -> dict[str, str]:
    """Every series name the daemon exposes -> its family, metrics.py's plus ``PLANNED``."""
    families = _families()
    for name, kind in PLANNED.items():
        if name in families:
            assert families[name] == kind, f"{name} is a {families[name]}, the dashboards expect a {kind}"
    families = {**PLANNED, **families}
    return {name + suffix: name for name, kind in families.items() for suffix in _SUFFIXES[kind]}


def selectors(expr: str) -> list[str]:
    """Metric names of the vector selectors in ``expr``. Raises ValueError on bad PromQL."""
    names: list[str] = []

    def visit(node: Any) -> None:
        if isinstance(node, promql_parser.VectorSelector):
            names.append(node.name)

    promql_parser.walk(promql_parser.parse(expr), visit)
    return names


def test_selectors_catch_what_they_should() -> None:
    assert selectors('sum by (le) (rate(a_bucket{x=~"$i"}[5m])) / b or vector(0)') == ["a_bucket", "b"]
    with pytest.raises(ValueError):
        selectors("sum(rate(x[5m])")
    assert exported()["coderecall_files_skipped_total"] == "coderecall_files_skipped"
    assert "coderecall_files_skipped" not in exported()  # a counter is only exposed with _total


# --- Grafana -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dashboard() -> dict[str, Any]:
    return json.loads((DEPLOY / "grafana" / "coderecall.json").read_text())


def _panels(dashboard: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in dashboard["panels"] if p["type"] != "row"]


def test_dashboard_queries_use_only_exported_metrics(dashboard: dict[str, Any]) -> None:
    names = exported()
    used = set()
    for panel in _panels(dashboard):
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            found = selectors(target["expr"])
            assert found, (panel["title"], target["expr"])
            unknown = [n for n in found if n not in names]
            assert unknown == [], (panel["title"], unknown)
            assert 'instance=~"$instance"' in target["expr"], panel["title"]
            used.update(names[n] for n in found)
    # Every metric family of metrics.py and of PLANNED is on the dashboard.
    assert set(_families()) | set(PLANNED) <= used


def test_dashboard_structure(dashboard: dict[str, Any]) -> None:
    assert (dashboard["uid"], dashboard["title"], dashboard["schemaVersion"]) == ("coderecall", "coderecall", 39)
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource" and variables["datasource"]["query"] == "prometheus"
    assert selectors(variables["instance"]["definition"].removeprefix("label_values(").split(",")[0]) == [
        "coderecall_build_info"]
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in _panels(dashboard):
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
        ref_ids = [t["refId"] for t in panel["targets"]]
        assert len(ref_ids) == len(set(ref_ids))
    # Panels sit inside the 24-column grid and never overlap.
    cells: set[tuple[int, int]] = set()
    for panel in dashboard["panels"]:
        g = panel["gridPos"]
        assert 0 <= g["x"] and g["x"] + g["w"] <= 24, panel["title"]
        area = {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}
        assert not area & cells, panel["title"]
        cells |= area


# --- Prometheus alerts -------------------------------------------------------------------

@pytest.fixture(scope="module")
def rules() -> list[dict[str, Any]]:
    doc = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yaml").read_text())
    assert set(doc) == {"groups"}
    return [dict(rule, group=group["name"]) for group in doc["groups"] for rule in group["rules"]]


def test_alerts_are_well_formed(rules: list[dict[str, Any]]) -> None:
    names = exported() | {"up": "up"}
    assert len({r["alert"] for r in rules}) == len(rules)
    for rule in rules:
        assert set(rule) == {"alert", "expr", "for", "labels", "annotations", "group"}, rule["alert"]
        assert rule["labels"]["severity"] in {"critical", "warning", "info"}
        assert set(rule["annotations"]) == {"summary", "description"}
        promql_parser.parse_duration(rule["for"])
        found = selectors(rule["expr"])
        assert found and [n for n in found if n not in names] == [], rule["alert"]


def test_alerts_cover_the_failure_modes(rules: list[dict[str, Any]]) -> None:
    by_name = {r["alert"]: r for r in rules}
    expected = {  # alert -> the metric it must watch
        "CoderecallDown": "up",
        "CoderecallAbsent": "coderecall_build_info",
        "CoderecallIndexLagHigh": "coderecall_index_lag_seconds",
        "CoderecallRepoSyncFailing": "coderecall_repo_sync_failures",
        "CoderecallPendingVectorsGrowing": "coderecall_points_pending_vectors",
        "CoderecallRpcErrorRate": "coderecall_rpc_errors_total",
    }
    for alert, metric in expected.items():
        assert metric in selectors(by_name[alert]["expr"]), alert
    assert by_name["CoderecallDown"]["labels"]["severity"] == "critical"
    # Thresholds stated in the rules' comments: 30 min of lag, 3 failed syncs in a row, 5% errors.
    lag = promql_parser.parse(by_name["CoderecallIndexLagHigh"]["expr"])
    assert isinstance(lag, promql_parser.BinaryExpr) and lag.rhs.val == 1800.0
    assert promql_parser.parse(by_name["CoderecallRepoSyncFailing"]["expr"]).rhs.val == 3.0
    assert promql_parser.parse(by_name["CoderecallRpcErrorRate"]["expr"]).rhs.val == 0.05
