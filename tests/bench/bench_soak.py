"""Soak benchmark (issue 19, "bounded work per request"): many clients, hostile arguments,
a daemon that indexes and re-syncs meanwhile, and a ``kill -9`` in the middle.

Builds a git repository of stdlib packages (``bench_stdlib.make_repo``), starts
``coderecalld serve`` on it as a subprocess (lexical index; ``--dense`` adds the model and
its background embedder), then for ``--duration`` seconds:

* ``--clients`` threads (default 16), each with its own ``coderecall.Client``, send a random
  mix of ``search``, fuzzy ``symbols``, exact ``symbols``, ``callers``, ``card`` and
  ``impact``, with real names from the repo and hostile arguments: names up to 1,000
  characters, queries up to 10,000, odd characters (NUL, emoji, regex and glob
  metacharacters, dots), limits up to 10**9, depths up to 10**6;
* a committer rewrites a few files every ``--commit-every`` seconds and the daemon re-syncs
  every ``--sync-interval`` seconds, so it indexes while it answers;
* at half time the daemon is killed with SIGKILL and started again on the same data dir.

Reports requests served, errors by gRPC code per kind (the goal: no INTERNAL, no UNKNOWN;
RESOURCE_EXHAUSTED is admission control doing its job, UNAVAILABLE the restart window,
INVALID_ARGUMENT the hostile limits), p50/p99 latency of successful calls per kind, and the
daemon's RSS: after the first index (baseline), peak, and final (``--settle`` seconds after
the clients stop). Not a test: nothing here asserts.

    nice -n 19 python tests/bench/bench_soak.py [--duration 600] [--clients 16]
        [--limit-files 400] [--dense] [--json results/soak.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import pygit2

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stdlib import make_repo  # noqa: E402

from coderecall import Client, CodeRecallError  # noqa: E402

REPO = "stdlib"
KINDS = ("search", "symbols_fuzzy", "symbols_exact", "callers", "card", "impact")
ODD = ["💥", ".*", "[a-", "**/", "..", "::", "\\", "'", '"', "%s", "\u202e", "é", " "]
READY_TIMEOUT_S = 900.0


def main() -> int:
    args = _args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="bench-soak-"))
    src = work / "src"
    if not src.exists():
        files, size = make_repo(src, args.limit_files, with_tests=False)
        print(f"repo: {files} files, {size / 1e6:.1f} MB", flush=True)
    names = _names(src)
    daemon = Daemon(work, src, args)
    try:
        daemon.start()
        baseline = daemon.rss_mib()
        print(f"daemon ready on {daemon.addr}, RSS {baseline:.0f} MiB (heap "
              f"{daemon.rss_mib('RssAnon'):.0f}), {len(names)} names", flush=True)
        report = Soak(daemon, names, args).run()
        report["rss_mib"]["baseline"] = baseline
    finally:
        daemon.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    _print(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


def _args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of load")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--limit-files", type=int, default=400, help="stdlib files in the repo")
    parser.add_argument("--timeout", type=float, default=10.0, help="each call's deadline (s)")
    parser.add_argument("--sync-interval", type=float, default=5.0)
    parser.add_argument("--commit-every", type=float, default=5.0)
    parser.add_argument("--no-kill", action="store_true", help="skip the kill -9 and restart")
    parser.add_argument("--settle", type=float, default=15.0, help="idle seconds before the final RSS")
    parser.add_argument("--dense", action="store_true", help="load the model, embed behind")
    parser.add_argument("--max-workers", type=int, default=8, help="server.max_workers")
    parser.add_argument("--keep", help="work directory to keep (and reuse)")
    parser.add_argument("--json", help="also write the report here")
    parser.add_argument("--seed", type=int, default=19)
    return parser.parse_args()


def _names(src: Path) -> list[str]:
    found: set[str] = set()
    for path in src.rglob("*.py"):
        text = path.read_text(errors="replace")
        found.update(re.findall(r"^\s*(?:def|class)\s+(\w+)", text, re.M))
    return sorted(found)


class Daemon:
    """``coderecalld serve`` as a subprocess on a free port; SIGKILL and restart."""

    def __init__(self, work: Path, src: Path, args: argparse.Namespace) -> None:
        self.work, self.src, self.args = work, src, args
        self.port = _free_port()
        self.addr = f"127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.config = work / "coderecalld.toml"
        self.config.write_text(
            f'data_dir = "{work / "data"}"\nlog_format = "json"\n'
            f'[server]\nlisten = "{self.addr}"\nmax_workers = {args.max_workers}\n'
            f"[index]\nsync_interval_s = {args.sync_interval}\nsync_jitter_s = 0\n"
            f"[embedding]\nenabled = {'true' if args.dense else 'false'}\n"
            f'[[repos]]\nname = "{REPO}"\nurl = "{src}"\nbranch = "main"\n')

    def start(self) -> None:
        script = Path(sys.executable).with_name("coderecalld")
        log = open(self.work / "daemon.log", "ab")  # noqa: SIM115 (the child owns it)
        self.proc = subprocess.Popen([sys.executable, str(script), "serve", "--config", str(self.config)],
                                     stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy())
        started = time.monotonic()
        with Client(self.addr, timeout_s=2) as client:
            while time.monotonic() - started < READY_TIMEOUT_S:
                if self.proc.poll() is not None:
                    raise SystemExit(f"coderecalld exited with {self.proc.returncode}; see {log.name}")
                try:
                    if client.list_repos():
                        return
                except CodeRecallError:
                    time.sleep(0.5)
        raise SystemExit(f"coderecalld not serving after {READY_TIMEOUT_S:.0f} s")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def rss_mib(self, field: str = "VmRSS") -> float:
        """The daemon's ``field`` of /proc/PID/status in MiB: ``VmRSS`` (all), ``RssAnon``
        (heap: what a leak grows), ``RssFile`` (mapped files: the store's segments, page
        cache the kernel may reclaim)."""
        if self.proc is None or self.proc.poll() is not None:
            return 0.0
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0


class Soak:
    """The clients, the committer, the RSS sampler and the kill in the middle."""

    def __init__(self, daemon: Daemon, names: list[str], args: argparse.Namespace) -> None:
        self.daemon, self.names, self.args = daemon, names, args
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.codes: dict[str, Counter] = defaultdict(Counter)
        self.rss: list[float] = []
        self.commits = 0
        self.restart_s = 0.0
        self.restarted_rss = 0.0

    def run(self) -> dict:
        threads = [threading.Thread(target=self._client, args=(i,), daemon=True)
                   for i in range(self.args.clients)]
        threads += [threading.Thread(target=self._committer, daemon=True),
                    threading.Thread(target=self._sampler, daemon=True)]
        started = time.monotonic()
        for t in threads:
            t.start()
        if not self.args.no_kill:
            self.stop.wait(self.args.duration / 2)
            if not self.stop.is_set():
                print("kill -9 and restart", flush=True)
                self.daemon.kill9()
                down = time.monotonic()
                self.daemon.start()
                self.restart_s = time.monotonic() - down
                self.restarted_rss = self.daemon.rss_mib()
                print(f"serving again after {self.restart_s:.1f} s, RSS {self.restarted_rss:.0f} MiB"
                      f" (heap {self.daemon.rss_mib('RssAnon'):.0f})", flush=True)
        self.stop.wait(max(0.0, self.args.duration - (time.monotonic() - started)))
        self.stop.set()
        for t in threads:
            t.join(self.args.timeout + 30)
        time.sleep(self.args.settle)
        return self._report(time.monotonic() - started)

    def _client(self, seed: int) -> None:
        rng = random.Random(self.args.seed * 1000 + seed)
        with Client(self.daemon.addr, timeout_s=self.args.timeout) as client:
            while not self.stop.is_set():
                kind = rng.choice(KINDS)
                call = getattr(self, f"_{kind}")(rng)
                started = time.perf_counter()
                try:
                    call(client)
                    code = "OK"
                except CodeRecallError as exc:
                    code = exc.code
                except Exception as exc:  # noqa: BLE001 (a client-side failure is a finding too)
                    code = f"client:{type(exc).__name__}"
                took = time.perf_counter() - started
                with self.lock:
                    self.codes[kind][code] += 1
                    if code == "OK":
                        self.latency[kind].append(took)
                if code == "UNAVAILABLE":
                    time.sleep(0.2)  # the restart window: do not spin

    # --- one call of each kind, with random and hostile arguments -----------------------------

    def _name(self, rng: random.Random) -> str:
        roll = rng.random()
        if roll < 0.5:
            return rng.choice(self.names)
        if roll < 0.7:  # a typo of a real name
            name = rng.choice(self.names)
            at = rng.randrange(len(name))
            return name[:at] + rng.choice("xyz_") + name[at + 1:]
        if roll < 0.85:  # long: Java/C#-like, up to the 1,000 accepted
            return "".join(rng.choice(self.names).capitalize() for _ in range(rng.randint(3, 40)))[:1000]
        if roll < 0.87:
            return rng.choice(self.names) + "\x00"  # INVALID_ARGUMENT
        return "".join(rng.choice(ODD + list("abcXYZ_.")) for _ in range(rng.randint(1, 300)))

    def _limit(self, rng: random.Random) -> int:
        if rng.random() < 0.8:
            return rng.choice([0, 1, 10, 50, 500])
        return rng.choice([501, 10**6, 10**9, -1])  # over the limit: INVALID_ARGUMENT

    def _search(self, rng: random.Random):
        words = [rng.choice(self.names) for _ in range(rng.randint(1, 8))]
        query = " ".join(words) if rng.random() < 0.8 else self._name(rng) * rng.randint(1, 40)
        query = query[:rng.choice([200, 10_000, 10_001])]
        mode = rng.choice(["", "", "hybrid", "sparse", "dense"])
        glob = rng.choice(["", "", "", "**/*.py", "json/*", "[", "*" * 300])
        return lambda c: c.search(query, limit=self._limit(rng), mode=mode, path_glob=glob)

    def _symbols_fuzzy(self, rng: random.Random):
        name = self._name(rng)
        return lambda c: c.find_symbols(name, fuzzy=True, limit=self._limit(rng))

    def _symbols_exact(self, rng: random.Random):
        name = self._name(rng)
        return lambda c: c.find_symbols(name, prefix=rng.random() < 0.3, limit=self._limit(rng))

    def _callers(self, rng: random.Random):
        name = self._name(rng)
        return lambda c: c.find_callers(name, limit=self._limit(rng))

    def _card(self, rng: random.Random):
        name = self._name(rng)
        return lambda c: c.get_card(name, budget_tokens=rng.choice([0, 100, 800, 8000, 10**6]))

    def _impact(self, rng: random.Random):
        name = self._name(rng)
        return lambda c: c.analyze_impact(name, depth=rng.choice([0, 1, 3, 10, 11, 10**6]),
                                          limit=rng.choice([0, 10, 2000, 2001, 10**9]))

    # --- background: commits, RSS --------------------------------------------------------------

    def _committer(self) -> None:
        rng = random.Random(self.args.seed)
        repo = pygit2.Repository(str(self.daemon.src))
        files = sorted(p for p in self.daemon.src.rglob("*.py") if ".git" not in p.parts)
        while not self.stop.wait(self.args.commit_every):
            for path in rng.sample(files, min(5, len(files))):
                n = self.commits
                path.write_text(path.read_text() + f"\n\ndef soak_probe_{n}_{path.stem}(value):\n"
                                f"    return {rng.choice(self.names)}(value)\n")
            repo.index.add_all()
            repo.index.write()
            sig = pygit2.Signature("bench", "bench@example.invalid", 1_700_000_000 + self.commits, 0)
            repo.create_commit("HEAD", sig, sig, f"soak {self.commits}", repo.index.write_tree(),
                               [repo.head.target])
            self.commits += 1

    def _sampler(self) -> None:
        while not self.stop.wait(1.0):
            self.rss.append(self.daemon.rss_mib())

    def _report(self, elapsed_s: float) -> dict:
        kinds = {}
        for kind in KINDS:
            lat = sorted(self.latency[kind])
            kinds[kind] = {
                "codes": dict(self.codes[kind].most_common()),
                "p50_ms": round(statistics.median(lat) * 1000, 1) if lat else None,
                "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 1) if lat else None,
                "max_ms": round(lat[-1] * 1000, 1) if lat else None,
            }
        total = sum(sum(c.values()) for c in self.codes.values())
        by_code = Counter()
        for c in self.codes.values():
            by_code.update(c)
        return {
            "duration_s": round(elapsed_s, 1), "clients": self.args.clients, "requests": total,
            "served_ok": by_code["OK"], "codes": dict(by_code.most_common()), "kinds": kinds,
            "commits": self.commits, "restart_s": round(self.restart_s, 1),
            "rss_mib": {"peak": round(max(self.rss, default=0.0)),
                        "after_restart": round(self.restarted_rss),
                        "final": round(self.daemon.rss_mib()),
                        "final_anon": round(self.daemon.rss_mib("RssAnon")),
                        "final_file": round(self.daemon.rss_mib("RssFile"))},
        }


def _print(report: dict) -> None:
    print(f"\n{report['requests']} requests in {report['duration_s']} s from {report['clients']} "
          f"clients; {report['served_ok']} OK; {report['commits']} commits; "
          f"restart {report['restart_s']} s")
    print("codes:", ", ".join(f"{k} {v}" for k, v in report["codes"].items()))
    print(f"{'kind':15} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  codes")
    for kind, row in report["kinds"].items():
        print(f"{kind:15} {row['p50_ms']!s:>8} {row['p99_ms']!s:>8} {row['max_ms']!s:>8}  {row['codes']}")
    rss = report["rss_mib"]
    print(f"RSS MiB: baseline {rss['baseline']:.0f} (after the first index), "
          f"{rss['after_restart']} (after the restart's), peak {rss['peak']}, "
          f"final {rss['final']} (after the settle: heap {rss['final_anon']}, "
          f"mapped files {rss['final_file']})")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


if __name__ == "__main__":
    sys.exit(main())
