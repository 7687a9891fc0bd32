"""Problems a newcomer found by following the README and then trying to break the daemon.

Each test states the expected behaviour; all were xfail when found and pass since the fixes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from coderecall import Client, CodeRecallError, InvalidArgumentError
from coderecall import cli as client_cli
from coderecalld import config as config_mod
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.errors import ConfigError
from coderecalld.server.app import build_server
from gitfixtures import GitRepo


def _coderecalld(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run ``coderecalld`` in a subprocess (it configures process-wide logging to stderr)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODERECALL_")}
    return subprocess.run([sys.executable, "-m", "coderecalld.cli", *argv], capture_output=True,
                          text=True, env=env, timeout=300, check=False)


def _write_config(tmp_path: Path, body: str, repo_url: str) -> Path:
    path = tmp_path / "coderecalld.toml"
    path.write_text(f'data_dir = "{tmp_path / "data"}"\n{body}\n'
                    f'[[repos]]\nname = "r"\nurl = "{repo_url}"\n')
    return path


# --- configuration: a bad value must stop the daemon at start, naming the key ------------------

@pytest.mark.parametrize("body", [
    "[index]\nsync_interval_s = nan",
    "[index]\nsync_interval_s = inf",
    "[index]\nsync_jitter_s = inf",
])
def test_non_finite_sync_intervals_are_config_errors(tmp_path: Path, git_repo: GitRepo, body: str) -> None:
    git_repo.commit({"a.py": "def f():\n    return 1\n"})
    key = body.split("\n")[1].split(" =")[0]
    with pytest.raises(ConfigError, match=key):
        config_mod.load(_write_config(tmp_path, body, str(git_repo.path)), env={})


@pytest.mark.parametrize("listen", ["127.0.0.1:99999", "nohost"])
def test_cli_listen_override_is_validated(tmp_path: Path, git_repo: GitRepo, listen: str) -> None:
    git_repo.commit({"a.py": "def f():\n    return 1\n"})
    done = _coderecalld("index", "--repo", str(git_repo.path), "--data-dir", str(tmp_path / "data"),
                        "--no-embed", "--listen", listen)
    assert done.returncode == 2
    assert "server.listen" in done.stderr


def test_data_dir_that_is_a_file_is_a_config_error(tmp_path: Path, git_repo: GitRepo) -> None:
    git_repo.commit({"a.py": "def f():\n    return 1\n"})
    a_file = tmp_path / "not-a-dir"
    a_file.write_text("x")
    done = _coderecalld("index", "--repo", str(git_repo.path), "--data-dir", str(a_file), "--no-embed")
    assert done.returncode == 2
    assert "data_dir" in done.stderr
    assert "Traceback" not in done.stderr


# --- coderecalld symbols ----------------------------------------------------------------------

def test_symbols_of_a_missing_file_is_a_clean_error(tmp_path: Path) -> None:
    done = _coderecalld("symbols", str(tmp_path / "missing.py"))
    assert done.returncode in (1, 2)
    assert "coderecalld: error:" in done.stderr
    assert "Traceback" not in done.stderr


# --- mirror errors ----------------------------------------------------------------------------

def test_missing_local_repo_path_is_reported_as_missing(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "repo"
    done = _coderecalld("index", "--repo", str(missing), "--data-dir", str(tmp_path / "data"), "--no-embed")
    assert done.returncode == 1
    assert str(missing) in done.stdout
    assert "unsupported URL protocol" not in done.stdout + done.stderr


# --- client: out-of-range integers --------------------------------------------------------------

def test_client_out_of_range_limit_is_invalid_argument() -> None:
    with Client("127.0.0.1:1", timeout_s=2) as client:
        with pytest.raises(InvalidArgumentError):
            client.search("x", limit=2**40)


@pytest.mark.parametrize("argv", [
    ["search", "x", "--limit", "99999999999"],
    ["callers", "x", "--limit", "99999999999"],
    ["read", "r", "a.py", "--lines", "1-2147483648"],
])
def test_cli_out_of_range_integers_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code = client_cli.main(["--addr", "127.0.0.1:1", "--timeout", "2", *argv])
    assert code in (1, 2)
    assert "Traceback" not in capsys.readouterr().err


# --- SyncRepo must not wait for (or be blocked by) the whole store's dense backlog --------------

@pytest.fixture
def daemon_with_backlog(tmp_path: Path) -> Iterator[tuple[Daemon, str]]:
    big = GitRepo(tmp_path / "big")
    big.commit({f"pkg/m{i}.py": "".join(
        f"def func_{i}_{j}(a, b):\n    \"\"\"Add {j} to a and b.\"\"\"\n    return a + b + {j}\n\n"
        for j in range(40)) for i in range(10)})
    small = GitRepo(tmp_path / "small")
    small.commit({"s.py": "def tiny():\n    return 1\n"})
    cfg = Config(data_dir=tmp_path / "data",
                 repos=(RepoConfig("big", str(big.path), "main"), RepoConfig("small", str(small.path), "main")),
                 embedding=EmbeddingConfig(threads=2),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    for repo in cfg.repos:  # what `serve` does first: lexical only, dense vectors left as a backlog
        daemon.jobs.run_now(repo.name, with_dense=False)
    server, port = build_server(daemon.service, "127.0.0.1:0")
    server.start()
    try:
        yield daemon, f"127.0.0.1:{port}"
    finally:
        daemon.pipeline.stop()
        server.stop(0).wait()
        time.sleep(1)
        daemon.close()


@pytest.mark.slow
def test_sync_of_a_small_repo_returns_while_another_repos_backlog_embeds(
        daemon_with_backlog: tuple[Daemon, str]) -> None:
    _, addr = daemon_with_backlog
    with Client(addr, timeout_s=5) as client:
        started = time.monotonic()
        try:
            info = client.sync_repo("small")
        except CodeRecallError as exc:
            pytest.fail(f"sync_repo('small') failed after {time.monotonic() - started:.1f}s: {exc}")
        assert info.state == "ready"


# --- SIGTERM while `serve` does its first index ------------------------------------------------

@pytest.mark.slow
def test_sigterm_during_initial_index_stops_promptly(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "many")
    repo.commit({f"pkg{i // 50}/m{i}.py": "".join(
        f"def f_{i}_{j}(x):\n    return x * {j}\n\n" for j in range(40)) for i in range(400)})
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODERECALL_")}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "coderecalld.cli", "serve", "--repo", str(repo.path),
             "--data-dir", str(tmp_path / "data"), "--listen", "127.0.0.1:0", "--no-embed"],
            stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            deadline = time.monotonic() + 60
            while b"daemon.opened" not in log.read_bytes():
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            time.sleep(0.5)
            proc.send_signal(signal.SIGTERM)
            sent = time.monotonic()
            proc.wait(timeout=300)
            took = time.monotonic() - sent
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    text = log.read_text()
    # The port answers from the start (issue 19); the interrupted run never claims to be done.
    assert "server.listening" in text and "index.repo_done" not in text, text
    assert took < 10, f"stopped {took:.1f}s after SIGTERM"


# --- second newcomer run (issue 11 session) ---------------------------------------------------


@pytest.mark.parametrize(("argv", "message"), [
    (["--addr", "127.0.0.1", "repos"], "--addr: expected HOST:PORT with a port in 1..65535, got '127.0.0.1'"),
    (["--addr", "127.0.0.1:99999", "repos"], "got '127.0.0.1:99999'"),
    (["--addr", "127.0.0.1:50551", "--timeout", "0", "repos"], "--timeout: expected seconds > 0, got 0"),
    (["--addr", "127.0.0.1:50551", "--timeout", "-1", "repos"], "--timeout: expected seconds > 0, got -1"),
    (["--addr", "127.0.0.1:50551", "--timeout", "inf", "sync", "x"], "--timeout: expected seconds > 0, got inf"),
])
def test_client_address_and_timeout_are_checked_before_any_call(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert client_cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_data_dir_held_by_another_process_says_so(tmp_path: Path) -> None:
    from coderecalld.errors import StoreUnavailable
    from coderecalld.store import EdgeStore

    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from coderecalld.store import EdgeStore; "
         f"s = EdgeStore({str(tmp_path)!r}, 4, 'm', 'v'); print('ready', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(StoreUnavailable, match="in use by another process .a running coderecalld "
                                                   "on the same data_dir.."):
            EdgeStore(tmp_path, 4, "m", "v")
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()


def test_low_confidence_reason_names_chunks_still_waiting_for_dense_vectors(
        tmp_path: Path, git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a share of the scope waits for dense vectors (``PENDING_LEXICAL_SHARE``) a
    hybrid answer is ranked by words alone, low, and says so with the counts; below the
    share, a weak answer names the count; once every chunk has its vector, no note."""
    from coderecalld.query import service as service_mod

    git_repo.commit({"geo/birds.py": "def arctic_tern_route(season):\n    return season\n",
                     "geo/maps.py": "def draw_coast(points):\n    return points\n"})
    daemon = Daemon.open(Config(data_dir=tmp_path / "data", repos=(RepoConfig("r", str(git_repo.path), "main"),),
                                index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0)))
    try:
        daemon.pipeline.index_repo(daemon.cfg.repos[0], with_dense=False)
        waiting = daemon.store.count_missing_dense("r")
        assert waiting == 2  # per file its function (nothing else: no module chunk)
        filling = daemon.service.search("route of the arctic tern by season")
        assert [h.qualified_name for h in filling][:1] == ["arctic_tern_route"]
        assert filling.low_confidence
        assert filling.confidence_reason.startswith(
            "2 of 2 chunks in scope still wait for dense vectors: ranked by their words alone until embedded")
        dense = daemon.service.search("route of the arctic tern by season", mode="dense")
        assert dense.low_confidence and dense.confidence_reason.startswith(
            "2 of 2 chunks in scope still wait for dense vectors: this dense answer covers the others only")
        located = daemon.service.locate("route of the arctic tern by season")
        assert located.files[0].path == "geo/birds.py" and located.low_confidence
        assert located.confidence_reason.startswith("2 of 2 chunks in scope still wait for dense vectors")
        monkeypatch.setattr(service_mod, "PENDING_LEXICAL_SHARE", 1.01)  # under the share
        before = daemon.service.search("recipe for lemon cake with icing")
        assert before.low_confidence
        assert before.confidence_reason.endswith(
            f"; {waiting} chunks in scope still wait for dense vectors (found by their words only until embedded)")
        monkeypatch.setattr(service_mod, "PENDING_LEXICAL_SHARE", 0.1)
        daemon.pipeline.embed_backlog()
        assert daemon.store.count_missing_dense("r") == 0
        # The counts are a hint reused for PENDING_NOTE_TTL_S per scope, then asked again.
        stale = daemon.service.search("recipe for lemon cake with icing")  # now dense hits exist
        assert stale.confidence_reason.startswith("2 of 2 chunks in scope still wait for dense vectors")
        monkeypatch.setattr(service_mod, "PENDING_NOTE_TTL_S", 0.0)
        after = daemon.service.search("recipe for lemon cake with icing")
        assert after.low_confidence and "wait for dense vectors" not in after.confidence_reason
        right = daemon.service.search("route of the arctic tern by season")
        assert "wait for dense vectors" not in right.confidence_reason
    finally:
        daemon.close()


def test_a_report_is_not_said_to_wait_for_vectors(tmp_path: Path, git_repo: GitRepo) -> None:
    """An issue or a report is ranked by its words alone, embedded or not: the fill of the
    dense vectors changes nothing of its answer, which says nothing of it."""
    git_repo.commit({"geo/birds.py": "def arctic_tern_route(season):\n    return season\n",
                     "geo/maps.py": "def draw_coast(points):\n    return points\n"})
    daemon = Daemon.open(Config(data_dir=tmp_path / "data", repos=(RepoConfig("r", str(git_repo.path), "main"),),
                                index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0)))
    try:
        daemon.pipeline.index_repo(daemon.cfg.repos[0], with_dense=False)
        assert daemon.store.count_missing_dense("r") == 2
        report = "Arctic tern route is wrong in winter."
        for answer in (daemon.service.search(report), daemon.service.locate(report)):
            assert "wait for dense vectors" not in answer.confidence_reason
        question = daemon.service.search("route of the arctic tern by season")
        assert "wait for dense vectors" in question.confidence_reason
    finally:
        daemon.close()
