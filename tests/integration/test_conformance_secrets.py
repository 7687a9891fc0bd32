"""Conformance case 25 (secrets in the index) through the real pipeline and service.

``.envrc`` is policy-dependent in the case; coderecall excludes it (direnv files export
variables, typically tokens: ``classify.SENSITIVE_NAMES``), documented in
docs/configuration.md.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
from prometheus_client import REGISTRY
from conformance_cases import build, commit_all, daemon, expected, indexed_paths, points, stored_paths

from coderecalld.config import RepoConfig
from coderecalld.errors import NotFound
from coderecalld.records import FileState

CASE = "25-secrets-in-index"


class CapturingEmbedder:
    """Records every text sent to the embedding backend."""

    model_id = "none"
    dim = 384

    def __init__(self) -> None:
        self.texts: list[str] = []

    def cached(self, keys):
        return {}

    def embed(self, texts):
        self.texts += texts
        return [np.full(self.dim, 0.1 + len(t) % 5 / 10, dtype=np.float32) for t in texts]

    def embed_query(self, text):  # the caller's own query, not index content
        return np.full(self.dim, 0.2, dtype=np.float32)


def test_25_secrets_in_index(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    expect = expected(CASE)["expect"]
    out = tmp_path / "c25"
    head = build(CASE, out)["head"]
    canaries = expect["canaries_absent"]
    with caplog.at_level(logging.DEBUG), daemon(tmp_path, RepoConfig("c25", str(out / "repo"), "main")) as running:
        embedder = CapturingEmbedder()
        running.pipeline.embedder = running.service.embedder = embedder
        report = running.jobs.run_now("c25")
        assert report.commit == head and report.embedded > 0
        indexed, stored = indexed_paths(running, "c25"), stored_paths(running, "c25")
        for path in expect["not_indexed"]:
            assert path not in indexed and path not in stored, path
            assert running.ledger.file("c25", path).reason == "sensitive", path
        assert running.ledger.file("c25", ".envrc").reason == "sensitive"  # our policy
        for path in expect["indexed"]:
            assert path in indexed and path in stored, path
        for sym in expect["symbols_present"]:
            hits = [(h.path, h.start_line, h.end_line) for h in
                    running.service.find_symbols(sym["qualified_name"], repo="c25")]
            assert hits == [(sym["path"], sym["start_line"], sym["end_line"])]

        # Incremental updates apply the same filter: new credentials in a later commit.
        repo_dir = out / "repo"
        (repo_dir / "keys" / "deploy.key").write_text("CANARY-0008 key material\n")
        (repo_dir / "secrets" / "more.py").write_text("TOKEN = 'CANARY-0009'\n")
        (repo_dir / "src" / "cfg.py").write_text("API_TOKEN = 'CANARY-0010-zQ8xW3'\n")
        second = commit_all(repo_dir, "more credentials")
        before = _redacted_total()
        report = running.jobs.run_now("c25")
        assert _redacted_total() >= before + 1  # src/cfg.py's API_TOKEN (module + text chunk)
        assert report.commit == second
        assert running.ledger.file("c25", "keys/deploy.key").reason == "sensitive"
        assert running.ledger.file("c25", "secrets/more.py").reason == "sensitive"
        assert running.ledger.file("c25", "src/cfg.py").state is FileState.INDEXED
        canaries = [*canaries, "CANARY-0008", "CANARY-0009", "CANARY-0010"]

        # Every read tool applies it too: a sensitive path reads like a missing one.
        for path in [*expect["not_indexed"], ".envrc", "keys/deploy.key"]:
            with pytest.raises(NotFound, match="no such file"):
                running.service.read_symbol("c25", path, 1, 0)
        redacted = running.service.read_symbol("c25", "src/cfg.py", 1, 0).text
        assert redacted == "API_TOKEN = '[REDACTED:Secret Keyword]'\n"

        # Where checked: search results (dense, sparse, hybrid), payloads, embedder input, logs.
        answers = []
        for query in [*canaries, "API_KEY", "private key", "service_account", "token"]:
            answers += running.service.search(query, repo="c25", limit=50)
            answers += running.service.find_symbols(query, repo="c25")
        answers += running.service.list_repos()
        answered = json.dumps([repr(a) for a in answers])
        payloads = json.dumps([h.payload for h in points(running, "c25")])
        sent = "\n".join(embedder.texts)
        assert "[REDACTED:Secret Keyword]" in payloads
        for where, text in (("answers", answered), ("payloads", payloads), ("embedder", sent),
                            ("logs", caplog.text)):
            assert not [c for c in canaries if c in text], where


def _redacted_total() -> float:
    """``coderecall_secrets_redacted_total`` summed over its ``type`` label."""
    return sum(sample.value for metric in REGISTRY.collect()
               if metric.name == "coderecall_secrets_redacted"
               for sample in metric.samples if sample.name.endswith("_total"))
