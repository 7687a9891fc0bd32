"""``/metrics`` over real HTTP: scraped during an index run (held at a known file) and
after it, in-process; and from a real ``coderecalld serve`` process, which must also stop
cleanly on SIGTERM and log one JSON object per line."""

from __future__ import annotations

import importlib.metadata
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import livedaemon
import pytest
from gitfixtures import GitRepo
from livedaemon import value

from coderecall import Client, NotFoundError
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, MetricsConfig, RepoConfig

#: Eight Python files, one function each: every file is indexed (2 chunks: module + function).
FILES = {f"pkg/m{i}.py": f'"""Module {i}."""\n\n\ndef step_{i}(x):\n    return x + {i}\n' for i in range(8)}
VERSION = importlib.metadata.version("coderecall")


def test_scraped_during_and_after_an_index_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git = GitRepo(tmp_path / "src")
    commit = git.commit(FILES)
    cfg = Config(data_dir=tmp_path / "data", repos=(RepoConfig("steps", str(git.path), "main"),),
                 embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0),
                 metrics=MetricsConfig(listen="127.0.0.1:0"))
    live = livedaemon.start(cfg, index_first=False)
    try:
        port = live.ops.metrics_port
        before = livedaemon.scrape(port)
        assert value(before, "coderecall_build_info", version=VERSION) == 1.0
        assert ("coderecall_index_lag_seconds", (("repo", "steps"),)) in before

        held, release = threading.Event(), threading.Event()
        chunks = live.daemon.pipeline._chunks

        def slow_chunks(repo, path, *args):  # hold the run at the 4th file (sorted by path)
            if path == "pkg/m3.py":
                held.set()
                release.wait(30)
            return chunks(repo, path, *args)

        monkeypatch.setattr(live.daemon.pipeline, "_chunks", slow_chunks)
        run = threading.Thread(target=live.daemon.jobs.run_now, args=("steps",), kwargs={"with_dense": False})
        run.start()
        assert held.wait(30)
        during = livedaemon.scrape(port)
        release.set()
        run.join(30)
        after = livedaemon.scrape(port)

        def delta(samples, name, **labels):
            return value(samples, name, **labels) - value(before, name, **labels)

        upserts = "coderecall_store_operation_duration_seconds_count"
        assert value(during, "coderecall_index_queue_depth") == 1.0
        assert delta(during, upserts, op="upsert") == 3  # m0, m1, m2 written, m3 held
        assert delta(during, "coderecall_files_indexed_total", state="indexed") == 0  # counted per run
        assert value(during, "coderecall_index_lag_seconds", repo="steps") >= 0.0

        assert value(after, "coderecall_index_queue_depth") == 0.0
        assert delta(after, "coderecall_files_indexed_total", state="indexed") == 8
        assert delta(after, "coderecall_files_indexed_total", state="skipped") == 0
        assert delta(after, "coderecall_chunks_indexed_total") == 16 == live.daemon.ledger.repo("steps").chunks
        assert delta(after, upserts, op="upsert") == 8
        for stage in ("mirror", "diff", "layout", "parse", "store"):
            assert delta(after, "coderecall_stage_duration_seconds_count", stage=stage) == 1, stage
        assert value(after, "coderecall_index_lag_seconds", repo="steps") == 0.0  # caught up
        assert live.daemon.ledger.repo("steps").indexed_commit == commit

        for query in ("step three", "module four", "step_5"):
            live.client.search(query, limit=3)
        with pytest.raises(NotFoundError):
            live.client.search("x", repo="nope")
        live.client.list_repos()
        rpcs = livedaemon.scrape(port)
        assert delta(rpcs, "coderecall_rpc_duration_seconds_count", method="Search") == 4
        assert delta(rpcs, "coderecall_rpc_duration_seconds_count", method="ListRepos") == 1
        assert delta(rpcs, "coderecall_rpc_errors_total", method="Search", code="NOT_FOUND") == 1
        assert delta(rpcs, "coderecall_rpc_errors_total", method="ListRepos", code="NOT_FOUND") == 0
        assert delta(rpcs, "coderecall_rpc_duration_seconds_sum", method="Search") > 0
        # Each search, with no model here: the sparse retriever's candidates, then the page's
        # payloads ("step_5" is an identifier: two exact lookups first, then the same), and
        # one exact-evidence check of the verbatim identifier "step_5" (its sparse query, its
        # holders read to see it used as code, then the page's first chunks read the same
        # way instead of a score lookup: query/service.py ``_with_evidence``, ``_as_code``),
        # and the page read once more for the chunks using it (``_holders_first``), after
        # one more sparse query for source chunks off the page holding it
        # (``_source_code_holders``: none here, so none read).
        ops = {op: delta(rpcs, upserts, op=op) for op in
               ("dense_search", "sparse_scores", "sparse_search", "retrieve", "find")}
        assert ops == {"dense_search": 0, "sparse_scores": 0, "sparse_search": 5, "retrieve": 6, "find": 2}
    finally:
        live.close()
    with pytest.raises(OSError):  # the port is closed with the daemon
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def _read_lines(stream, into: queue.Queue) -> None:
    for line in iter(stream.readline, b""):
        into.put(line.decode())
    into.put(None)


def _await_event(lines: queue.Queue, seen: list[str], name: str, deadline_s: float = 120) -> dict:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        line = lines.get(timeout=max(0.1, end - time.monotonic()))
        if line is None:
            raise AssertionError("daemon exited:\n" + "".join(seen))
        seen.append(line)
        record = json.loads(line)
        if record["event"] == name:
            return record
    raise AssertionError(f"no {name} event:\n" + "".join(seen))


def test_serve_process_exposes_metrics_and_stops_cleanly(tmp_path: Path) -> None:
    git = GitRepo(tmp_path / "src")
    commit = git.commit(FILES)
    cfg = tmp_path / "coderecall.toml"
    cfg.write_text(f'data_dir = "{tmp_path / "data"}"\n[server]\nlisten = "127.0.0.1:0"\n'
                   f'[metrics]\nlisten = "127.0.0.1:0"\n[logging]\nformat = "json"\n'
                   f'[index]\nsync_interval_s = 3600\n'
                   f'[[repos]]\nname = "steps"\nurl = "{git.path}"\nbranch = "main"\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-m", "coderecalld.cli", "serve", "--config", str(cfg),
                             "--no-embed"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_read_lines, args=(proc.stderr, lines), daemon=True).start()
    seen: list[str] = []
    try:
        grpc_port = _await_event(lines, seen, "server.listening")["port"]  # first (issue 19)
        port = _await_event(lines, seen, "metrics.listening")["port"]
        done = _await_event(lines, seen, "index.repo_done")
        assert _await_event(lines, seen, "server.serving")["port"] == grpc_port
        assert (done["repo"], done["commit"], done["level"]) == ("steps", commit, "info")
        assert done["duration_s"] > 0 and done["ts"].endswith("Z")
        samples = livedaemon.scrape(port)
        assert value(samples, "coderecall_files_indexed_total", state="indexed") == 8
        assert value(samples, "coderecall_chunks_indexed_total") == 16
        assert value(samples, "coderecall_build_info", version=VERSION) == 1.0
        assert value(samples, "coderecall_index_lag_seconds", repo="steps") == 0.0
        phases = {dict(labels)["phase"]: v for (name, labels), v in samples.items()
                  if name == "coderecall_repo_phase" and dict(labels)["repo"] == "steps"}
        assert phases["done"] == 1.0 and sum(phases.values()) == 1.0  # what it works on: nothing
        assert {"starting", "queued", "indexing", "embedding"} <= set(phases)
        with Client(f"127.0.0.1:{grpc_port}", timeout_s=30) as client:
            for query in ("step one", "step two", "step_7"):
                client.search(query)
        samples = livedaemon.scrape(port)
        assert value(samples, "coderecall_rpc_duration_seconds_count", method="Search") == 3
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    while (line := lines.get(timeout=10)) is not None:
        seen.append(line)
    proc.stderr.close()
    records = [json.loads(line) for line in seen]  # every line is one JSON object
    assert {"ts", "level", "event"} <= set(records[-1]) and records[-1]["event"] == "server.stopped"
    assert "jobs.stopped" in [r["event"] for r in records]
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
