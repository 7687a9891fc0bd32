"""``coderecalld``: index, serve, or print the symbols of one file.

    coderecalld index --config FILE            mirror + fully index every repo, print a summary
    coderecalld serve --config FILE            index, serve gRPC, re-sync on an interval
    coderecalld serve --repo PATH_OR_URL ...   same with no config file (per-user data dir)
    coderecalld symbols FILE [--language L] [--json]
    coderecalld verify --config FILE [--repair]  compare ledger and store per repo (stopped daemon)
    coderecalld optimize --config FILE         build the store's search indexes now (stopped daemon)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from coderecalld import config as config_mod
from coderecalld import logs, parse
from coderecalld.config import Config, RepoConfig
from coderecalld.errors import CodeRecallError
from coderecalld.index.pipeline import IndexReport


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code (0 ok, 1 runtime error, 2 usage/config)."""
    args = _parser().parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe fails here, inside the handler, not at exit
        return status
    except CodeRecallError as exc:
        print(f"coderecalld: error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, config_mod.ConfigError) else 1
    except BrokenPipeError:  # e.g. `coderecalld symbols FILE | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coderecalld", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, func, text in (("index", _index, "mirror and fully index every configured repo"),
                             ("serve", _serve, "index, then serve gRPC and re-sync on an interval")):
        cmd = sub.add_parser(name, help=text)
        cmd.add_argument("--config", help="TOML config file")
        cmd.add_argument("--repo", action="append", default=[], metavar="PATH_OR_URL",
                         help="a repository to index (repeatable; adds to the config's)")
        cmd.add_argument("--data-dir", help="override data_dir")
        cmd.add_argument("--listen", help="override server.listen (HOST:PORT)")
        cmd.add_argument("--no-embed", action="store_true", help="sparse vectors only")
        cmd.set_defaults(func=func)
        if name == "index":
            cmd.add_argument("--no-optimize", action="store_true",
                             help="skip building the store's search indexes at the end")
    _verify_parser(sub)
    _stopped_daemon_parser(sub, "optimize", _optimize, "build the store's search indexes now "
                           "(HNSW, merged segments); the daemon must be stopped")
    prune = _stopped_daemon_parser(sub, "prune", _prune, "list the store's collections and delete "
                                   "the ones neither current nor configured (old models)")
    prune.add_argument("--dry-run", action="store_true", help="list what would be deleted, delete nothing")
    sym = sub.add_parser("symbols", help="print the symbols parsed from one file")
    sym.add_argument("file")
    sym.add_argument("--language", help=f"one of {', '.join(parse.supported_languages())}")
    sym.add_argument("--json", action="store_true")
    sym.set_defaults(func=_symbols)
    return parser


def _load(args: argparse.Namespace) -> Config:
    urls = [_abs_url(u) for u in args.repo]
    repos = tuple(RepoConfig(name=config_mod.repo_name_from_url(u), url=u) for u in urls)
    if not args.config and not repos:
        raise config_mod.ConfigError("give --config FILE or at least one --repo PATH_OR_URL")
    overrides: dict = {}  # validated like the file's own values
    if args.data_dir:
        overrides["data_dir"] = args.data_dir
    if args.listen:
        overrides["server"] = {"listen": args.listen}
    if args.no_embed:
        overrides["embedding"] = {"enabled": False}
    cfg = config_mod.load(args.config, extra_repos=repos, overrides=overrides)
    logs.configure(cfg.logging.format, cfg.logging.level)
    return cfg


def _abs_url(url: str) -> str:
    """Local paths become absolute so the mirror's remote works from any cwd."""
    if "://" in url or url.startswith("git@"):
        return url
    return str(Path(url).expanduser().resolve())


def _index(args: argparse.Namespace) -> int:
    from coderecalld.daemon import Daemon

    cfg = _load(args)
    daemon = Daemon.open(cfg)
    try:
        reports = [daemon.pipeline.index_repo(repo, with_dense=True) for repo in cfg.repos]
        for report in reports:
            print(format_report(report))
        if not args.no_optimize:
            _optimize_store(daemon)
        if daemon.rebuild is not None and not daemon.rebuild.maybe_switch():
            print(f"new vector space not active yet: {daemon.rebuild.blocker()}")
    finally:
        daemon.close()
    return 1 if any(r.state == "error" for r in reports) else 0


def _optimize_store(daemon: Any) -> None:
    started = time.monotonic()
    changed = daemon.jobs.optimize()
    print(f"store optimized in {time.monotonic() - started:.1f} s" if changed
          else "store already optimized")


def _optimize(args: argparse.Namespace) -> int:
    """Run the store's optimizers now (a stopped daemon: one process per Edge store)."""
    from coderecalld.daemon import Daemon

    daemon = Daemon.open(_load(args))
    try:
        _optimize_store(daemon)
    finally:
        daemon.close()
    return 0


def _prune(args: argparse.Namespace) -> int:
    """List the Edge store's collections; delete those that are neither ``current`` nor the
    configured one (``store/ondisk.py``). Exit 1 when one could not be deleted."""
    from coderecalld.daemon import DISABLED_DIM, _embedder
    from coderecalld.embed import sparse
    from coderecalld.store.base import StoreIdentity
    from coderecalld.store.ondisk import collections, remove

    cfg = _load(args)
    if cfg.store.backend == "server":
        print("coderecalld: error: prune: the server backend's collections live on the Qdrant "
              "server (the alias names the active one); delete old ones through its API",
              file=sys.stderr)
        return 2
    embedder = _embedder(cfg.embedding, cfg.data_dir)  # the configured identity's model id
    configured = StoreIdentity(embedder.model_id if embedder else "none",
                               embedder.dim if embedder else DISABLED_DIM,
                               sparse.TOKENIZER_VERSION).collection_name
    root = cfg.data_dir / "store"
    failed = False
    freed = 0
    for info in collections(root):
        size = f"{info.bytes / 2**20:,.1f} MiB"
        if info.current or info.name == configured:
            role = "current" if info.current else "configured (a rebuild fills it)"
            print(f"keep    {info.name}  {size}  {role}  {info.identity}")
        elif args.dry_run:
            print(f"delete  {info.name}  {size}  {info.identity}  (dry run)")
        else:
            try:
                freed += remove(root, info.name, keep={configured})
                print(f"deleted {info.name}  {size}  {info.identity}")
            except CodeRecallError as exc:
                failed = True
                print(f"coderecalld: error: {exc}", file=sys.stderr)
    if not args.dry_run:
        print(f"freed {freed / 2**20:,.1f} MiB")
    return 1 if failed else 0


def format_report(report: IndexReport) -> str:
    """Human summary of one repo's run: counts, seconds per stage, chunks/s."""
    total_s = sum(report.stages_s.values())
    stages = "  ".join(f"{k}={v:.2f}s" for k, v in sorted(report.stages_s.items()))
    rate = report.chunks / total_s if total_s else 0.0
    embed_s = report.stages_s.get("embed", 0.0)
    embed_rate = f"  embedded={report.embedded} ({report.embedded / embed_s:.1f}/s)" if embed_s else ""
    skipped = ", ".join(f"{k}={v}" for k, v in sorted(report.skipped_reasons.items()))
    lines = [
        f"repo {report.repo}  state={report.state}  commit={report.commit[:12]}"
        + (f"  error={report.error}" if report.error else ""),
        f"  files: seen={report.files_seen} indexed={report.files_indexed} "
        f"skipped={report.files_skipped}{f' ({skipped})' if skipped else ''} "
        f"failed={report.files_failed} deleted={report.files_deleted}",
        f"  symbols={report.symbols}  chunks={report.chunks}{embed_rate}",
        f"  stages: {stages}  total={total_s:.2f}s  chunks/s={rate:.1f}",
    ]
    return "\n".join(lines)


def _serve(args: argparse.Namespace) -> int:
    from grpc_health.v1 import health

    from coderecalld import auth
    from coderecalld.daemon import Daemon
    from coderecalld.ops import httpserve
    from coderecalld.server.app import build_server, stop_server

    cfg = _load(args)
    authenticator = auth.from_config(cfg)  # refuse a bad auth setup before indexing anything
    daemon = Daemon.open(cfg)
    stop = threading.Event()

    def on_signal(*_: object) -> None:
        stop.set()
        daemon.pipeline.stop()  # an index in progress returns after its current file

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on_signal)
    try:
        health_servicer = health.HealthServicer()
        # Bound before the first index, so a busy or bad address fails at once, not after it.
        server, port = build_server(daemon.api, cfg.server.listen, cfg.server.max_workers,
                                    health_servicer=health_servicer, authenticator=authenticator,
                                    tls=cfg.server, max_file_bytes=cfg.index.max_file_bytes)
        daemon.ops = httpserve.start(cfg, daemon.jobs.trigger)  # /metrics, webhooks: before indexing
        if daemon.rebuild is not None:  # the old generation answers while the new one builds
            server.start()
        for repo in cfg.repos:  # lexical index first: searchable by name before the model runs
            if stop.is_set():
                break
            daemon.jobs.run_now(repo.name, with_dense=False)
        if not stop.is_set():
            # What exists now (model, store handles, config, caches) lives as long as the
            # process: keep it out of the cyclic GC's scans. A full collection over those
            # ~80k objects took ~50 ms at 1M points here, a pause any query could land in.
            gc.collect()  # the initial index's garbage goes first; what survives is kept
            gc.freeze()
            if daemon.rebuild is None:
                server.start()
            logs.event("server.listening", listen=cfg.server.listen, port=port,
                       auth=str(authenticator.mode), tls=bool(cfg.server.tls_cert_file))
            daemon.jobs.start()  # re-syncs, and the worker that adds dense vectors behind
            stop.wait()
        logs.event("server.stopping")
        daemon.progress.close()  # WatchProgress streams end now, not at the grace deadline
        stop_server(server, health_servicer, grace_s=5.0)
    finally:
        daemon.close()
    return 0


def _symbols(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        print(f"coderecalld: error: {path}: no such file", file=sys.stderr)
        return 2
    language = args.language or parse.language_for(path.name)
    if not language:
        print(f"coderecalld: error: no parser for {path.name}; pass --language", file=sys.stderr)
        return 2
    parsed = parse.symbols(path.read_bytes(), language)
    rows = [dict(asdict(s), kind=str(s.kind), path=str(path), language=language,
                 call_sites=[asdict(c) for c in s.call_sites]) for s in parsed.symbols]
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
    else:
        for row in rows:
            print(f"{row['start_line']}-{row['end_line']}\t{row['kind']}\t{row['qualified_name']}"
                  f"\t{row['signature']}")
    return 0



def _stopped_daemon_parser(sub: argparse._SubParsersAction, name: str, func: Any,
                           text: str) -> argparse.ArgumentParser:
    """A subcommand that opens the daemon's data dir itself (the daemon stopped): the
    config options ``_load`` reads, no listen address."""
    cmd = sub.add_parser(name, help=text)
    cmd.add_argument("--config", help="TOML config file")
    cmd.add_argument("--repo", action="append", default=[], metavar="PATH_OR_URL",
                     help="a repository (repeatable; adds to the config's)")
    cmd.add_argument("--data-dir", help="override data_dir")
    cmd.add_argument("--no-embed", action="store_true", help="the store was built sparse-only")
    cmd.set_defaults(func=func, listen=None)
    return cmd


def _verify_parser(sub: argparse._SubParsersAction) -> None:
    cmd = _stopped_daemon_parser(sub, "verify", _verify,
                                 "compare the ledger and the store per repo; --repair fixes drift")
    cmd.add_argument("--repair", action="store_true",
                     help="delete orphan points, re-index files with missing points")


def _verify(args: argparse.Namespace) -> int:
    """Exit 0 when every repo is clean (or was repaired), 1 when drift was left in place."""
    from coderecalld.daemon import Daemon

    cfg = _load(args)
    daemon = Daemon.open(cfg)
    left = False
    try:
        for repo in cfg.repos:
            drift, fixed = daemon.jobs.verify(repo.name, repair=args.repair)
            counts = "  ".join(f"{k}={v}" for k, v in drift.counts.items())
            done = f"  repaired: deleted={fixed.deleted} reindexed={len(fixed.forgotten)}" if fixed else ""
            print(f"repo {repo.name}  files={drift.files} points={drift.points}  {counts}{done}")
            left = left or (not drift.clean and fixed is None)
        waiting = daemon.service.pending_vectors()
        if waiting:
            print(f"embedding {waiting} points still without a dense vector (a previous run "
                  "was interrupted, or files were re-indexed) ...", flush=True)
        daemon.pipeline.embed_backlog()  # re-indexed files get their dense vectors before exit
    finally:
        daemon.close()
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
