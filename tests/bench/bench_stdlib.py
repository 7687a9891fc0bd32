"""Benchmark: index the running interpreter's standard library through ``coderecalld index``.

Makes a git repository of ``Lib/`` (real code nobody here wrote; test suites and
site-packages left out unless ``--with-tests``), writes a config, runs
``coderecalld index --config`` as a subprocess (so the figures include start-up), then starts
the daemon in-process on a free loopback port and times searches and symbol lookups through
the client library.

    python tests/bench/bench_stdlib.py [--limit-files N] [--no-embed] [--keep DIR]

Prints files, symbols, chunks, seconds per stage and chunks/s (from the index summary), then
p50/p95 latency in milliseconds per query kind. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import pygit2

SEARCHES = [
    "parse a URL into its components",
    "read a CSV file row by row",
    "compute the MD5 hash of a string",
    "join path components",
    "decode base64 data",
    "start a thread pool and submit work",
    "format a date as ISO 8601",
    "compare two sequences and produce a diff",
    "HTTPConnection",
    "urlsplit",
]
LOOKUPS = ["urlsplit", "JSONDecoder.decode", "Path.resolve", "ThreadPoolExecutor", "dumps",
           "SequenceMatcher.ratio", "b64decode", "namedtuple"]
CALLERS = ["urlsplit", "b64decode", "fspath", "getattr"]


def make_repo(target: Path, limit_files: int, with_tests: bool, stride: int = 1) -> tuple[int, int]:
    """Copy ``Lib/*.py`` trees (every ``stride``-th file) into a one-commit git repo;
    returns (files, bytes)."""
    lib = Path(sysconfig.get_paths()["stdlib"])
    files = 0
    size = 0
    for n, src in enumerate(sorted(lib.rglob("*.py"))):
        if n % stride:
            continue
        rel = src.relative_to(lib)
        top = rel.parts[0]
        if top in ("site-packages", "lib2to3", "idlelib") or "__pycache__" in rel.parts:
            continue
        if not with_tests and ("test" in rel.parts or "tests" in rel.parts):
            continue
        dest = target / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
        files += 1
        size += dest.stat().st_size
        if limit_files and files >= limit_files:
            break
    repo = pygit2.init_repository(str(target), initial_head="main")
    repo.index.add_all()
    repo.index.write()
    sig = pygit2.Signature("bench", "bench@example.invalid", 1_700_000_000, 0)
    repo.create_commit("HEAD", sig, sig, "stdlib snapshot", repo.index.write_tree(), [])
    return files, size


def run_index(config: Path) -> float:
    """Run ``coderecalld index`` and stream its summary; returns wall seconds."""
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "coderecalld.cli", "index", "--config", str(config)],
                   check=True)
    return time.monotonic() - started


def latency(fn, queries: list[str], rounds: int = 3) -> tuple[float, float]:
    """(p50, p95) in milliseconds over ``rounds`` passes of ``queries``."""
    times = []
    for _ in range(rounds):
        for q in queries:
            started = time.perf_counter()
            fn(q)
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def query_phase(config: Path) -> None:
    from coderecall import Client
    from coderecalld import config as config_mod
    from coderecalld.daemon import Daemon
    from coderecalld.server.app import build_server

    cfg = config_mod.load(config)
    started = time.monotonic()
    daemon = Daemon.open(cfg)
    print(f"daemon open (model + store): {time.monotonic() - started:.2f}s")
    server, port = build_server(daemon.service, "127.0.0.1:0")
    server.start()
    try:
        with Client(f"127.0.0.1:{port}") as client:
            for q in SEARCHES[:4]:
                top = client.search(q, limit=3)
                print(f"  search {q!r}: " + ", ".join(f"{h.path}:{h.qualified_name}" for h in top))
            for name, fn, qs in (("search", lambda q: client.search(q, limit=10), SEARCHES),
                                 ("find_symbols", client.find_symbols, LOOKUPS),
                                 ("find_callers", client.find_callers, CALLERS)):
                p50, p95 = latency(fn, qs)
                print(f"latency {name:<13} p50={p50:7.2f} ms  p95={p95:7.2f} ms  (n={3 * len(qs)})")
            print("points in store:", daemon.store.count())
    finally:
        server.stop(0).wait()
        daemon.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit-files", type=int, default=0, help="index only the first N files")
    parser.add_argument("--with-tests", action="store_true", help="include Lib/test*")
    parser.add_argument("--no-embed", action="store_true", help="sparse vectors only")
    parser.add_argument("--keep", help="work dir to keep (default: a temp dir, removed)")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="coderecall-bench-"))
    try:
        files, size = make_repo(work / "stdlib", args.limit_files, args.with_tests)
        print(f"cores={os.cpu_count()} python={sys.version.split()[0]} "
              f"repo files={files} size={size / 1e6:.1f} MB")
        config = work / "coderecall.toml"
        config.write_text(f'data_dir = "{work / "data"}"\n[embedding]\nenabled = {str(not args.no_embed).lower()}\n'
                          f'[[repos]]\nname = "stdlib"\nurl = "{work / "stdlib"}"\nbranch = "main"\n')
        wall = run_index(config)
        print(f"coderecalld index wall time: {wall:.1f}s")
        wall = run_index(config)
        print(f"re-run with nothing changed: {wall:.1f}s")
        query_phase(config)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
