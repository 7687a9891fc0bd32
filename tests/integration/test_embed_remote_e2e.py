"""End to end with a remote embedding endpoint (issue 10 item 2): ``Daemon.open`` picks the
remote embedder from ``embedding.endpoint``, the lexical index comes first, the dense worker
survives an endpoint failure and fills the vectors at its next wake, and a dense search finds
the function by its words. The endpoint is a real HTTP server on loopback (tests/embedserver.py).
"""

from __future__ import annotations

import time
from pathlib import Path

from embedserver import EmbedServer
from gitfixtures import GitRepo

from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon

FILES = {
    "app/config.py": 'def load_config(path):\n    """Parse the configuration file and return its settings."""\n'
                     "    return dict(line.split('=') for line in open(path))\n",
    "app/mail.py": 'def send_mail(to, body):\n    """Send an email message to every recipient."""\n'
                   "    return [to, body]\n",
    "app/maths.py": 'def square_root(x):\n    """Compute the square root of a number by Newton steps."""\n'
                    "    return x ** 0.5\n",
}


def _wait(check, timeout_s: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def test_remote_endpoint_indexes_and_answers_dense_search(tmp_path: Path, git_repo: GitRepo) -> None:
    git_repo.commit(FILES)
    with EmbedServer() as srv:
        emb = EmbeddingConfig(endpoint=srv.url, endpoint_kind="openai", model="fake-bow")
        cfg = Config(data_dir=tmp_path / "data", embedding=emb,
                     repos=(RepoConfig("src", str(git_repo.path)),),
                     index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
        daemon = Daemon.open(cfg)
        try:
            port = srv.url.rsplit(":", 1)[1]
            assert daemon.store.identity.model_id == f"remote:openai:fake-bow@127.0.0.1:{port}"
            assert daemon.store.identity.dense_dim == 32
            daemon.jobs.run_now("src", with_dense=False)
            pending = daemon.service.pending_vectors("src")
            assert pending == 3  # three functions (nothing else in their files: no module chunks)

            srv.fail_next.append((401, "token expired", {}))
            requests = len(srv.seen)
            daemon.jobs.start()  # the dense worker runs the backlog at once: it fails
            assert _wait(lambda: len(srv.seen) == requests + 1)
            assert daemon.service.pending_vectors("src") == 3
            assert daemon.jobs._embed_worker.is_alive()

            daemon.jobs.sync("src")  # wakes the worker again: now the endpoint answers
            assert _wait(lambda: daemon.service.pending_vectors("src") == 0)
            hits = [h for h in daemon.service.search("parse the configuration file", mode="dense")
                    if h.kind != "module"]
            assert hits[0].qualified_name == "load_config" and hits[0].score > hits[1].score
            assert {h.qualified_name for h in hits} == {"load_config", "send_mail", "square_root"}
            assert srv.seen[-1].body == {"model": "fake-bow", "input": ["parse the configuration file"]}
        finally:
            daemon.close()
