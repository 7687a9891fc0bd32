"""WatchProgress on a live server: a run held file by file streams its phases in order and
every files_done step, and ends on what ListRepos says; ``once`` ends; scope like ListRepos;
the CLI's ``status`` lines; server stop and client cancel end a stream."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import livedaemon
import pytest
from gitfixtures import GitRepo

from coderecall import NotFoundError
from coderecall import cli as client_cli
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.progress import PHASES

FILES = {f"lib/f{i}.py": f"def handler_{i}(event):\n    return event + {i}\n" for i in range(6)}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[livedaemon.Live, str]]:
    git = GitRepo(tmp_path / "src")
    commit = git.commit(FILES)
    other = GitRepo(tmp_path / "other")
    other.commit({"x.py": "def x():\n    pass\n"})
    cfg = Config(data_dir=tmp_path / "data",
                 repos=(RepoConfig("hooks", str(git.path), "main"), RepoConfig("other", str(other.path), "main")),
                 embedding=EmbeddingConfig(enabled=False), index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    running = livedaemon.start(cfg, index_first=False)
    try:
        yield running, commit
    finally:
        running.close()


def _collect(stream, into: queue.Queue) -> None:
    try:
        for item in stream:
            into.put(item)
    except Exception as exc:  # noqa: BLE001 - handed to the test thread
        into.put(exc)
    into.put(None)


def _until(messages: queue.Queue, seen: list, done, deadline_s: float = 30.0):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        item = messages.get(timeout=max(0.05, end - time.monotonic()))
        assert item is not None and not isinstance(item, Exception), item
        seen.append(item)
        if done(item):
            return item
    raise AssertionError(f"no such message; saw {seen}")


def test_a_held_run_streams_phases_in_order_and_ends_like_list_repos(live, monkeypatch) -> None:
    running, commit = live
    gate = threading.Semaphore(0)
    chunks = running.daemon.pipeline._chunks

    def gated(repo, path, *args):
        assert gate.acquire(timeout=30)
        return chunks(repo, path, *args)

    monkeypatch.setattr(running.daemon.pipeline, "_chunks", gated)
    stream = running.client.watch_progress("hooks")
    messages: queue.Queue = queue.Queue()
    threading.Thread(target=_collect, args=(stream, messages), daemon=True).start()
    seen: list = []
    first = _until(messages, seen, lambda m: True)
    assert (first.repo, first.phase, first.state, first.files_done) == ("hooks", "idle", "pending", 0)

    run = threading.Thread(target=running.daemon.jobs.run_now, args=("hooks",), kwargs={"with_dense": False})
    run.start()
    _until(messages, seen, lambda m: m.phase == "indexing" and m.files_total == 6)
    for n in range(1, 7):
        gate.release()
        _until(messages, seen, lambda m, n=n: m.files_done == n)
    # files_done=6 and the end of the run may arrive as one (coalesced) message
    last = seen[-1] if seen[-1].phase == "done" else _until(messages, seen, lambda m: m.phase == "done")
    run.join(30)
    stream.close()

    phases = [m.phase for i, m in enumerate(seen) if i == 0 or m.phase != seen[i - 1].phase]
    assert phases == sorted(phases, key=PHASES.index) and phases[0] == "idle" and phases[-1] == "done"
    assert {"indexing", "done"} <= set(phases)
    assert [m.files_done for m in seen] == sorted(m.files_done for m in seen)  # never goes back
    assert all(m.repo == "hooks" for m in seen)
    (repo,) = [r for r in running.client.list_repos() if r.name == "hooks"]
    assert (last.state, last.commit, last.files_done, last.files_total, last.chunks_done) == (
        repo.state, repo.indexed_commit, repo.files, 6, repo.chunks)
    assert (repo.state, repo.indexed_commit, repo.files, repo.chunks) == ("ready", commit, 6, 6)
    assert last.started_unix_s > 0 and last.updated_unix_s >= last.started_unix_s and last.error == ""


def test_once_scope_cli_and_the_end_of_streams(live, capsys) -> None:
    running, commit = live
    running.daemon.jobs.run_now("hooks", with_dense=False)
    once = list(running.client.watch_progress(once=True))
    assert [(m.repo, m.phase, m.state) for m in once] == [("hooks", "done", "ready"), ("other", "idle", "pending")]
    with pytest.raises(NotFoundError):
        list(running.client.watch_progress("elsewhere", once=True))

    assert client_cli.main(["--addr", running.addr, "status", "--repo", "hooks"]) == 0
    assert capsys.readouterr().out == f"hooks  ready  done  {commit[:12]}  run: 6/6 changed files  6 chunks written  0 pending vectors\n"
    assert client_cli.main(["--addr", running.addr, "status", "--watch", "--repo", "hooks"]) == 0  # settled: ends
    assert capsys.readouterr().out == f"hooks  ready  done  {commit[:12]}  run: 6/6 changed files  6 chunks written  0 pending vectors\n"
    # a run that finds nothing changed says so (not "0/0 changed files")
    running.daemon.jobs.run_now("hooks", with_dense=False)
    assert client_cli.main(["--addr", running.addr, "status", "--repo", "hooks"]) == 0
    assert capsys.readouterr().out == f"hooks  ready  done  {commit[:12]}  run: nothing changed  0 chunks written  0 pending vectors\n"

    stream = running.client.watch_progress()
    assert [m.repo for m in (next(stream), next(stream))] == ["hooks", "other"]
    cancelled = running.client.watch_progress("other")
    next(cancelled)
    cancelled.close()  # the client goes away: the daemon drops the watch
    deadline = time.monotonic() + 30
    while len(running.daemon.progress._watches) != 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(running.daemon.progress._watches) == 1
    running.daemon.progress.close()  # what `serve` does first on SIGTERM
    assert list(stream) == []  # the stream ends cleanly, no error


def test_scope_is_the_callers_like_list_repos(tmp_path: Path) -> None:
    import json

    from coderecall import Client
    from coderecalld import auth
    from coderecalld.config import AuthConfig

    tokens = tmp_path / "tokens.toml"
    tokens.write_text(f'[[tokens]]\nprincipal = "pay"\nsha256 = "{auth.token_sha256("pay-token")}"\n'
                      f'repos = {json.dumps(["acme/*"])}\nrole = "reader"\n')
    repos = []
    for name in ("acme/pay", "other/ops"):
        git = GitRepo(tmp_path / name.replace("/", "_"))
        git.commit({"a.py": "def a():\n    pass\n"})
        repos.append(RepoConfig(name, str(git.path), "main"))
    cfg = Config(data_dir=tmp_path / "data", repos=tuple(repos), embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0),
                 auth=AuthConfig(mode="token", tokens_file=str(tokens)))
    running = livedaemon.start(cfg, authenticator=auth.from_config(cfg))
    try:
        with Client(running.addr, token="pay-token") as pay:
            assert [m.repo for m in pay.watch_progress(once=True)] == [r.name for r in pay.list_repos()] == [
                "acme/pay"]
            with pytest.raises(NotFoundError):
                list(pay.watch_progress("other/ops", once=True))  # exactly like an unknown repo
        with Client(running.addr, token="wrong") as stranger:
            from coderecall import UnauthenticatedError

            with pytest.raises(UnauthenticatedError):
                list(stranger.watch_progress(once=True))
    finally:
        running.close()


def test_a_sync_past_its_deadline_says_the_daemon_goes_on(live, monkeypatch, capsys) -> None:
    """pydantic's first index took longer than the CLI's 30 s call deadline: ``sync`` ended in
    a bare "Deadline Exceeded" while the daemon went on indexing (a newcomer). A sync now
    waits up to ``SYNC_TIMEOUT_S`` unless ``--timeout`` says otherwise, and past its
    deadline says the sync goes on and how to follow it."""
    running, commit = live
    gate = threading.Event()
    chunks = running.daemon.pipeline._chunks

    def held(repo, path, *args):
        assert gate.wait(timeout=30)
        return chunks(repo, path, *args)

    monkeypatch.setattr(running.daemon.pipeline, "_chunks", held)
    code = client_cli.main(["--addr", running.addr, "--timeout", "0.5", "sync", "hooks"])
    err = capsys.readouterr().err
    assert code == client_cli.RETRY_STATUS
    assert "goes on syncing 'hooks'" in err and "status --watch hooks" in err
    gate.set()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and running.client.list_repos()[0].indexed_commit != commit:
        time.sleep(0.1)
    (repo,) = [r for r in running.client.list_repos() if r.name == "hooks"]
    assert (repo.state, repo.indexed_commit, repo.files) == ("ready", commit, 6)  # it went on
    # no --timeout: a sync waits for the index (one answered at once here), a query 30 s
    timeouts: list[float] = []
    real = client_cli.Client

    def recorded(addr, timeout_s, token):
        timeouts.append(timeout_s)
        return real(addr, timeout_s=timeout_s, token=token)

    monkeypatch.setattr(client_cli, "Client", recorded)
    assert client_cli.main(["--addr", running.addr, "sync", "hooks"]) == 0
    assert client_cli.main(["--addr", running.addr, "repos"]) == 0
    assert timeouts == [client_cli.SYNC_TIMEOUT_S, client_cli.CALL_TIMEOUT_S] == [3600.0, 30.0]
    # after the command too, as the README writes `sync NAME` with `--timeout` (it was refused)
    assert client_cli.main(["--addr", running.addr, "sync", "hooks", "--timeout", "120"]) == 0
    assert client_cli.main(["--addr", running.addr, "--timeout", "60", "sync", "hooks"]) == 0
    assert timeouts[2:] == [120.0, 60.0]
