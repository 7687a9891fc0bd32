"""Exact evidence (query/service.py ``_with_evidence``) respects the path glob: a chunk that
holds the query's verbatim token but lies outside ``--path-glob`` is never added to the page
(found by a newcomer: ``search sha_utf8 --path-glob 'src/*/utils.py'`` answered auth.py).
Real store, lexical index only (no model needed for the rule)."""

from __future__ import annotations

from pathlib import Path

from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from gitfixtures import GitRepo

FILES = {
    "docs/deploy.rst": "Deploying\n=========\n\nSet ``proxy_set_header Host $host;`` in nginx.\n",
    "src/app/proxy.py": "def forward_headers(request):\n    \"\"\"Copy the proxy headers.\"\"\"\n"
                        "    return dict(request.headers)\n",
    "src/app/util.py": "def set_header(response, name, value):\n    response.headers[name] = value\n",
}


def test_evidence_outside_the_glob_is_not_added(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "web")
    repo.commit(FILES)
    cfg = Config(data_dir=tmp_path / "data", repos=(RepoConfig("web", str(repo.path)),),
                 embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    try:
        daemon.jobs.run_now("web", with_dense=False)
        everywhere = daemon.service.search("proxy_set_header", limit=5)
        # The one chunk holding the token is on the first page (source ranks before docs).
        assert "docs/deploy.rst" in [h.path for h in everywhere[:3]]
        # util.py's set_header holds the token: the evidence rule's pick, but outside this
        # glob, which no chunk holding the token matches.
        assert [h.path for h in daemon.service.search("set_header", limit=5)][:1] == ["src/app/util.py"]
        in_glob = daemon.service.search("set_header", limit=5, path_glob="src/*/proxy.py")
        assert [(h.path, h.match) for h in in_glob] == []
    finally:
        daemon.close()
