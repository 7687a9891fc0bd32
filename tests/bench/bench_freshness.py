"""Benchmark: how fresh is the index after a push (issue 4, "freshness")?

Makes a git repository of the interpreter's standard library (as ``bench_stdlib.py``),
indexes it completely (names, sparse and dense vectors), starts the daemon with a live gRPC
server on loopback and its background jobs, then ``--runs`` times:

1. commits a change to one file: a new function with a unique name and docstring;
2. calls ``SyncRepo`` through the client (it returns once the lexical index has the change;
   the dense vector follows in the background worker, DESIGN.md decision 4);
3. polls ``FindSymbols(name)`` until the function is found (*name*), and a dense-only
   ``Search`` of its docstring until it is in the top 10 (*dense*).

Times are from the commit (step 1) to the first successful answer, in seconds, polled every
10 ms. Prints p50 / p95 / max per measure. Not a test: nothing here asserts a time.

    python tests/bench/bench_freshness.py [--limit-files 60] [--runs 7] [--keep DIR]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pygit2

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stdlib import make_repo  # noqa: E402

from coderecall import Client  # noqa: E402
from coderecalld.config import Config, IndexConfig, RepoConfig  # noqa: E402
from coderecalld.daemon import Daemon  # noqa: E402
from coderecalld.server.app import build_server, stop_server  # noqa: E402

POLL_S = 0.01
TIMEOUT_S = 120.0
TARGET = "__future__.py"  # the first file of the sorted tree, so in any --limit-files


def _commit(repo: pygit2.Repository, workdir: Path, run: int) -> str:
    """Append a probe function to ``TARGET`` and commit; returns the function's name."""
    name = f"freshness_probe_{run}"
    path = workdir / TARGET
    path.write_text(path.read_text() + (
        f"\n\ndef {name}(label):\n"
        f'    """Compute the check digit of shipping label number {run} (mod 97)."""\n'
        f"    return int(label) % 97\n"))
    repo.index.add_all()
    repo.index.write()
    sig = pygit2.Signature("bench", "bench@example.invalid", 1_700_000_000 + run * 60, 0)
    repo.create_commit("HEAD", sig, sig, f"probe {run}", repo.index.write_tree(), [repo.head.target])
    return name


def _until(check: Callable[[], bool], started: float) -> float:
    while time.monotonic() - started < TIMEOUT_S:
        if check():
            return time.monotonic() - started
        time.sleep(POLL_S)
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit-files", type=int, default=60, help="stdlib files (0 = all)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="work dir to keep (default: a temp dir)")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="coderecall-fresh-"))
    src = work / "stdlib"
    if src.exists():
        shutil.rmtree(src)
    files, size = make_repo(src, args.limit_files, with_tests=False)
    if not (src / TARGET).exists():
        raise SystemExit(f"{TARGET} not among the first {args.limit_files} files; raise --limit-files")
    repo = pygit2.Repository(str(src))
    cfg = Config(data_dir=work / "data", repos=(RepoConfig("stdlib", str(src)),),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    started = time.monotonic()
    report = daemon.jobs.run_now("stdlib")
    print(f"initial index: {files} files, {size / 1e6:.1f} MB, {report.chunks} chunks, "
          f"{report.embedded} embedded, {time.monotonic() - started:.1f} s")
    server, port = build_server(daemon.api, "127.0.0.1:0")
    server.start()
    daemon.jobs.start()
    client = Client(f"127.0.0.1:{port}", timeout_s=60)
    by_name, by_dense, sync_s = [], [], []
    try:
        for run in range(args.runs):
            t0 = time.monotonic()
            name = _commit(repo, src, run)
            client.sync_repo("stdlib")
            sync_s.append(time.monotonic() - t0)
            by_name.append(_until(lambda: any(h.name == name for h in client.find_symbols(name)), t0))
            query = f"check digit of shipping label number {run} mod 97"
            by_dense.append(_until(lambda: any(
                h.name == name for h in client.search(query, limit=10, mode="dense")), t0))
            print(f"run {run}: sync {sync_s[-1]:.3f} s  name {by_name[-1]:.3f} s  "
                  f"dense {by_dense[-1]:.3f} s")
    finally:
        client.close()
        stop_server(server, None, grace_s=1.0)
        daemon.close()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{'measure':<22}{'p50 s':>8}{'p95 s':>8}{'max s':>8}")
    for label, values in (("SyncRepo returns", sync_s), ("found by name", by_name),
                          ("found by dense query", by_dense)):
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        print(f"{label:<22}{statistics.median(values):>8.3f}{p95:>8.3f}{ordered[-1]:>8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
