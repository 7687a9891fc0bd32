"""Benchmark: the query path at 10k, 100k and 1M chunks (issue 10 item 3).

For each size, builds an Edge collection (``scale_data``: a base set of real stdlib chunks
indexed by the daemon with the real model, then synthetic near-duplicates in repos
``synth-0001``, ...), written straight through ``EdgeStore.upsert`` (``PointRecord`` lists,
one repo per call, the store's own 256-point batches) in the collection ``Daemon.open``
expects for the default model. Then starts the daemon in a child process (``--serve``:
``Daemon.open`` with every repo configured, the real model, ``build_server`` on a free
loopback port, ``server.max_workers`` 8 as shipped; no jobs) and runs each query kind from
16 client threads (``coderecall.Client``, one channel each) at once:

* ``search``: hybrid search of real query strings (``bench_stdlib.SEARCHES`` and CoSQA dev
  web queries); the daemon embeds each query (never cached), so the model is in the figure;
* ``find_symbols``: exact lookups of names defined in the base set, half as they are, half
  a synthetic copy's (``urlsplit_s0042``);
* ``find_callers``: call sites of names the base set defines and calls, half real, half
  synthetic.

Latency is per call at the client (queueing for the 8 workers, the query-model lock and the
store lock included); p50/p95/p99 over all calls of a kind. ``search_1client``: 48 hybrid
searches from one client, one at a time (the cost of a call without queueing).
``<kind>_open_Rper_s``: the same 16 clients in open loop, each sending R calls/s of a kind
at Poisson arrivals (``--open-rates``), latency from the scheduled send time: what agents
that pause between questions see, where the closed loop above measures a saturated daemon.
Each open-loop run draws its own names (another seed): FindCallers' re-export facets are
cached per module prefix until the next write, so a run repeating the closed loop's names
would mostly measure cache hits. RSS of the daemon process (``/proc/PID/status``):
after open, after the load, and its peak (VmHWM). Per size also: build seconds, disk bytes.
``--variant optimized`` also runs ``EdgeStore.optimize()`` after the upserts (the daemon
never does): HNSW graphs and merged segments, at a large build cost; ``optimized-int8`` with
``quantization="int8"`` (the daemon then serves it with its default, unquantized options:
for that variant use ``bench_quant.py``).

    python tests/bench/bench_scale.py --work /tmp/perf-work [--sizes 10k,100k,1m] [--variant plain]

``BENCH_WITH="service.RANKINGS_FUSED=False"`` (``;``-separated) sets query-layer constants in
the daemon child, as ``issue_lab.py --set`` does (an A/B of one rule on the same store).

Writes (merges into) ``--json`` (default ``tests/bench/results/scale.json``). Not a test:
nothing here asserts a time. The machine is shared: each figure carries the load average.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import queue
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale_data  # noqa: E402
from bench_stdlib import SEARCHES  # noqa: E402
from coderecalld.embed import sparse
from coderecalld.index import points as points_mod

RESULTS = Path(__file__).resolve().parent / "results"
COSQA_QUERIES = Path("/work/shared/eval/cosqa-dev/queries_dev.jsonl")
KINDS = ("search", "find_symbols", "find_callers")
#: Hybrid searches also timed from a single client (no queueing behind other calls).
SOLO_CALLS = 48
#: How a store is built: ``EdgeStore`` options, and whether ``optimize()`` runs after the upserts.
VARIANTS = {"plain": ({}, False), "optimized": ({}, True),
            "optimized-int8": ({"quantization": "int8"}, True),
            "optimized-int8-disk": ({"quantization": "int8", "on_disk": True}, True)}


def parse_size(text: str) -> int:
    """``10k`` -> 10000, ``1m`` -> 1000000, ``2500`` -> 2500."""
    text = text.strip().lower()
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("km")) * scale)


def label(size: int) -> str:
    """1000000 -> ``1m``, 100000 -> ``100k``."""
    return f"{size // 1_000_000}m" if size % 1_000_000 == 0 else f"{size // 1_000}k"


def load_avg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def du(path: Path) -> int:
    """Bytes allocated on disk to the files under ``path`` (as ``du``: the engine preallocates
    sparse files, so their apparent size says little)."""
    return sum(f.stat().st_blocks * 512 for f in path.rglob("*") if f.is_file())


# --- build -------------------------------------------------------------------------------


def build(work: Path, base: scale_data.BaseSet, size: int, variant: str = "plain") -> tuple[Path, dict]:
    """The data dir of a store of ``size`` points built as ``VARIANTS[variant]`` says
    (reused when its ``built.json`` matches)."""
    from coderecalld.store import EdgeStore

    options, optimize = VARIANTS[variant]
    data = work / f"scale-{label(size)}-{variant}"
    marker = data / "built.json"
    want = {"size": size, "variant": variant, "base_points": len(base.points), "model": base.model_id}
    if marker.exists():
        info = json.loads(marker.read_text())
        if {k: info.get(k) for k in want} == want:
            if info.get("payload_version", 3) != points_mod.PAYLOAD_VERSION:
                store = EdgeStore(data / "store", len(base.points[0].dense), base.model_id,
                                  sparse.TOKENIZER_VERSION, **options)
                try:
                    info["upgraded_points"] = scale_data.upgrade_store(store)
                finally:
                    store.close()
                info["payload_version"] = points_mod.PAYLOAD_VERSION
                marker.write_text(json.dumps(info, indent=1))
            return data, info
    shutil.rmtree(data, ignore_errors=True)
    repos = scale_data.repos_for(len(base.points), size)
    load_before = load_avg()
    plain = work / f"scale-{label(size)}-plain"
    seeded = optimize and variant != "plain" and (plain / "built.json").exists() \
        and json.loads((plain / "built.json").read_text())["base_points"] == len(base.points)
    if seeded:  # the same points: copy the plain store instead of writing them again
        shutil.copytree(plain / "store", data / "store")
    started = time.monotonic()
    store = EdgeStore(data / "store", len(base.points[0].dense), base.model_id,
                      sparse.TOKENIZER_VERSION, **options)
    try:
        if seeded:
            upsert_s = json.loads((plain / "built.json").read_text())["upsert_s"]
        else:
            for batch in scale_data.points_for(base.points, size):
                store.upsert(batch)
            store.flush()
            upsert_s = time.monotonic() - started
        optimize_s = 0.0
        if optimize:
            started = time.monotonic()
            store.optimize()
            optimize_s = time.monotonic() - started
        points = store.count()
        segments = store._run("info", lambda shard: shard.info().segments_count)
    finally:
        store.close()
    info = {**want, "payload_version": points_mod.PAYLOAD_VERSION, "points": points, "repos": repos,
            "upsert_s": round(upsert_s, 1),
            "upsert_from": "plain store copied" if seeded else "written",
            "optimize_s": round(optimize_s, 1), "disk_bytes": du(data / "store"),
            "segments": segments, "load_avg": [load_before, load_avg()]}
    marker.write_text(json.dumps(info, indent=1))
    return data, info


# --- serve (child process) -----------------------------------------------------------------


def serve(data: Path, base_repo: str) -> int:
    """``--serve``: open the daemon over ``data`` and serve until stdin closes."""
    from coderecalld.config import Config, RepoConfig
    from coderecalld.daemon import Daemon
    from coderecalld.server.app import build_server

    overrides = [o for o in os.environ.get("BENCH_WITH", "").split(";") if o.strip()]
    if overrides:  # BENCH_WITH="service.RANKINGS_FUSED=False;...": constants as issue_lab's --set
        sys.path.insert(0, str(Path(__file__).parent))
        import issue_lab
        issue_lab.apply_sets(overrides)
    repos = json.loads((data / "built.json").read_text())["repos"]
    cfg = Config(data_dir=data, repos=tuple(RepoConfig(r, base_repo, "main") for r in repos))
    started = time.monotonic()
    daemon = Daemon.open(cfg)
    gc.collect()
    gc.freeze()  # as `coderecalld serve` does before it listens
    server, port = build_server(daemon.api, "127.0.0.1:0", cfg.server.max_workers)
    server.start()
    print(json.dumps({"port": port, "open_s": round(time.monotonic() - started, 2)}), flush=True)
    sys.stdin.read()
    server.stop(0).wait()
    daemon.close()
    return 0


def rss(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM, RssAnon, RssFile of ``pid`` in bytes."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            out[key] = int(value.split()[0]) * 1024
    return out


# --- load ----------------------------------------------------------------------------------


def query_sets(base: scale_data.BaseSet, copies: int, n: int, seed: int = 0) -> dict[str, list[str]]:
    """``n`` queries per kind (see the module docstring); the same for every size with the
    same number of synthetic copies."""
    rng = random.Random(seed)
    searches = list(SEARCHES)
    if COSQA_QUERIES.exists():
        searches += [json.loads(line)["text"] for line in COSQA_QUERIES.read_text().splitlines()]
    defined = sorted({p.payload["name"] for p in base.points
                      if p.payload["kind"] in ("function", "method", "class") and "#" not in p.payload["name"]})
    called = {c for p in base.points for c in p.payload.get("calls", [])}
    callees = sorted(set(defined) & called)

    def mixed(names: list[str]) -> list[str]:
        picked = [rng.choice(names) for _ in range(n)]
        return [scale_data.synth_name(x, rng.randint(1, copies)) if copies and i % 2 else x
                for i, x in enumerate(picked)]

    return {"search": searches[:n], "find_symbols": mixed(defined), "find_callers": mixed(callees)}


def run_kind(addr: str, kind: str, queries: list[str], threads: int) -> dict:
    """Every query once, from ``threads`` clients at once; latency figures in ms."""
    from coderecall import Client

    todo: queue.Queue[str] = queue.Queue()
    for q in queries:
        todo.put(q)
    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def worker() -> None:
        with Client(addr, timeout_s=600.0) as client:
            call = _call(client, kind)
            while True:
                try:
                    q = todo.get_nowait()
                except queue.Empty:
                    return
                started = time.perf_counter()
                try:
                    call(q)
                    ms = (time.perf_counter() - started) * 1000
                    with lock:
                        times.append(ms)
                except Exception as exc:  # a failed call is counted, not fatal
                    with lock:
                        errors.append(f"{type(exc).__name__}: {exc}"[:200])

    return _figures([threading.Thread(target=worker) for _ in range(threads)], times, errors)


def _figures(pool: list[threading.Thread], times: list[float], errors: list[str], **extra: float) -> dict:
    """Run ``pool`` to its end; the latency figures (ms) of the ``times`` its threads
    recorded, the calls/s over the wall time, the errors, the load average."""
    started = time.monotonic()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    wall = time.monotonic() - started
    arr = np.asarray(times) if times else np.asarray([float("nan")])
    return {"n": len(times), "errors": len(errors), "first_error": errors[0] if errors else "", **extra,
            "p50_ms": round(float(np.percentile(arr, 50)), 2), "p95_ms": round(float(np.percentile(arr, 95)), 2),
            "p99_ms": round(float(np.percentile(arr, 99)), 2), "mean_ms": round(float(arr.mean()), 2),
            "qps": round(len(times) / wall, 2), "load_avg": load_avg()}


def _call(client: object, kind: str) -> object:
    """The client call of a query kind (``KINDS``)."""
    return {"search": lambda q: client.search(q, limit=10),
            "find_symbols": client.find_symbols, "find_callers": client.find_callers}[kind]


def run_open(addr: str, kind: str, queries: list[str], clients: int, rate: float, seed: int = 0) -> dict:
    """Open-loop calls of one kind: ``clients`` threads, each sending at Poisson arrivals of
    ``rate`` calls/s (exponential gaps), whatever the answers' speed. Latency counts from
    the *scheduled* send time, so a call that waited behind a slow one pays for it (no
    coordinated omission); figures in ms."""
    from coderecall import Client

    per = [queries[i::clients] for i in range(clients)]
    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def worker(mine: list[str], rng: random.Random) -> None:
        with Client(addr, timeout_s=600.0) as client:
            call = _call(client, kind)
            due = time.perf_counter() + rng.expovariate(rate)
            for q in mine:
                pause = due - time.perf_counter()
                if pause > 0:
                    time.sleep(pause)
                try:
                    call(q)
                    with lock:
                        times.append((time.perf_counter() - due) * 1000)
                except Exception as exc:  # a failed call is counted, not fatal
                    with lock:
                        errors.append(f"{type(exc).__name__}: {exc}"[:200])
                due += rng.expovariate(rate)

    pool = [threading.Thread(target=worker, args=(mine, random.Random(seed + i)))
            for i, mine in enumerate(per)]
    return _figures(pool, times, errors, offered_qps=clients * rate)


def measure(data: Path, info: dict, base: scale_data.BaseSet, work: Path, threads: int, n: int,
            open_rates: tuple[float, ...] = ()) -> dict:
    """Start the daemon over ``data``, run every kind, stop it; the figures of one size."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen([sys.executable, __file__, "--serve", str(data),
                              "--base-repo", str(work / "base" / "stdlib")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    try:
        hello = json.loads(child.stdout.readline())
        addr = f"127.0.0.1:{hello['port']}"
        out = {"open_s": hello["open_s"], "rss_open": rss(child.pid), "latency": {}}
        sets = query_sets(base, len(info["repos"]) - 1, n)
        for kind in KINDS:
            run_kind(addr, kind, sets[kind][:threads], threads)  # warm-up: first touches
            out["latency"][kind] = run_kind(addr, kind, sets[kind], threads)
            print(f"  {label(info['size'])} {info['variant']} {kind}: {out['latency'][kind]}", flush=True)
        # One client, one call at a time: the cost of a call without queueing.
        out["latency"]["search_1client"] = run_kind(addr, "search", sets["search"][:SOLO_CALLS], 1)
        # Names drawn anew for each rate (seed 1, 2, ...): the store's facet cache
        # (EdgeStore.facet_any) must not answer from the closed loop's own lookups.
        fresh = [query_sets(base, len(info["repos"]) - 1, n, seed=i + 1) for i in range(len(open_rates))]
        for kind in KINDS:  # 16 clients that each ask at a steady rate, not flat out
            for rate, sets_of_rate in zip(open_rates, fresh):
                key = f"{kind}_open_{rate:g}per_s"
                out["latency"][key] = run_open(addr, kind, sets_of_rate[kind], threads, rate)
                print(f"  {label(info['size'])} {info['variant']} {key}: {out['latency'][key]}", flush=True)
        out["rss_after"] = rss(child.pid)
        return out
    finally:
        child.stdin.close()
        child.wait(timeout=120)


# --- main ----------------------------------------------------------------------------------


def machine() -> dict:
    from importlib import metadata

    mem = next(int(l.split()[1]) * 1024 for l in Path("/proc/meminfo").read_text().splitlines()
               if l.startswith("MemTotal"))
    return {"cores": os.cpu_count(), "mem_bytes": mem, "python": platform.python_version(),
            "qdrant_edge_py": metadata.version("qdrant-edge-py"), "fastembed": metadata.version("fastembed")}


def merge(path: Path, base: scale_data.BaseSet, rows: list[dict]) -> dict:
    """Merge ``rows`` into the JSON at ``path`` (keyed by size and variant) and write it."""
    doc = json.loads(path.read_text()) if path.exists() else {"rows": []}
    keys = {(r["size"], r["variant"]) for r in rows}
    doc["rows"] = sorted([r for r in doc["rows"] if (r["size"], r["variant"]) not in keys] + rows,
                         key=lambda r: (r["variant"], r["size"]))
    doc["machine"] = machine()
    doc["base"] = {"points": len(base.points), "model": base.model_id, "files": base.files,
                   "index_s": round(base.index_s, 1)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/coderecall-scale"),
                        help="kept between runs: base set, vector cache, built stores")
    parser.add_argument("--sizes", default="10k,100k,1m")
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--queries", type=int, default=320, help="calls per kind and size")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="plain")
    parser.add_argument("--json", type=Path, default=RESULTS / "scale.json")
    parser.add_argument("--open-rates", default="1,2,4",
                        help="open-loop search rates per client (calls/s), comma-separated; '' for none")
    parser.add_argument("--build-only", action="store_true",
                        help="build (or reuse) the stores and stop: no daemon, no queries")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--base-repo", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args.serve, args.base_repo)
    base = scale_data.base_set(args.work)
    print(f"base set: {len(base.points)} real chunks, {base.model_id}", flush=True)
    rows = []
    for size in (parse_size(s) for s in args.sizes.split(",")):
        data, info = build(args.work, base, size, args.variant)
        print(f"{label(size)} {info['variant']}: {info['points']} points, upsert {info['upsert_s']} s, "
              f"optimize {info['optimize_s']} s, {info['disk_bytes'] / 1e9:.2f} GB", flush=True)
        if args.build_only:
            continue
        rows.append({**{k: v for k, v in info.items() if k != "repos"}, "repos": len(info["repos"]),
                     **measure(data, info, base, args.work, args.threads, args.queries,
                                  tuple(float(r) for r in args.open_rates.split(",") if r.strip()))})
        merge(args.json, base, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
