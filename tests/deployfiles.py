"""Shared by the deployment tests: where the files are, the Kubernetes validation, and the
config sections other work adds (so a rendered config can be loaded by today's loader)."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

import kubernetes_validate
import yaml

from coderecalld import config

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
CHART = ROOT / "helm" / "coderecall"
#: Kubernetes version the manifests are validated against (schemas bundled in kubernetes-validate).
K8S_VERSION = "1.30.0"
#: Config sections the deployment files set that other branches are adding to config.py
#: (the Qdrant server store, the metrics and webhook listeners, logging). Until they are in
#: ``config.Config`` the tests drop them before ``config.load``; once they are, nothing is dropped.
PENDING_SECTIONS = frozenset({"store", "metrics", "webhook", "logging"})


def yaml_docs(text: str) -> list[dict[str, Any]]:
    """The non-empty YAML documents of ``text``."""
    return [doc for doc in yaml.safe_load_all(text) if doc]


def validate_k8s(doc: dict[str, Any]) -> None:
    """Validate one manifest against the Kubernetes ``K8S_VERSION`` schema, strictly (unknown
    fields are errors). Raises ``kubernetes_validate.ValidationError`` or
    ``SchemaNotFoundError`` (a kind not in the core schemas, e.g. a CRD)."""
    kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def known_sections() -> set[str]:
    """Top-level keys ``config.load`` accepts today."""
    return {f.name for f in fields(config.Config)} | {"repos"}


def load_config(text: str, env: dict[str, str] | None = None) -> config.Config:
    """Load a TOML config with the daemon's loader and validation, after dropping the
    ``PENDING_SECTIONS`` this branch's loader does not know yet (only those: any other unknown
    key fails), with ``env`` as ``CODERECALL_*`` overrides."""
    raw = tomllib.loads(text)
    dropped = {k for k in raw if k not in known_sections()}
    assert dropped <= PENDING_SECTIONS, f"unknown config sections {dropped - PENDING_SECTIONS}"
    pending = PENDING_SECTIONS - known_sections()
    env = {k: v for k, v in (env or {}).items()
           if k.removeprefix("CODERECALL_").split("__")[0].lower() not in pending}
    # The file's tables go in as ``overrides`` (validated like a file, but winning over env):
    # so env must not name a key the file sets, or the test would check the wrong value.
    for key in env:
        section, _, name = key.removeprefix("CODERECALL_").lower().partition("__")
        assert name not in raw.get(section, {}), f"{key} overrides a key the file sets"
    return config.load(None, env=env, overrides={k: v for k, v in raw.items() if k not in dropped})


def env_of(container: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A container's env entries by name."""
    return {e["name"]: e for e in container.get("env", [])}
