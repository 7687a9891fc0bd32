"""``coderecalld``: index, serve, or print the symbols of one file.

    coderecalld index --config FILE            mirror + fully index every repo, print a summary
    coderecalld serve --config FILE            index, serve gRPC, re-sync on an interval
    coderecalld serve --repo PATH_OR_URL ...   same with no config file (per-user data dir)
    coderecalld symbols FILE [--language L] [--json]
    coderecalld verify --config FILE [--repair] [--embed] [--drop-unconfigured]
                                               compare ledger and store per repo (stopped daemon)
    coderecalld optimize --config FILE         build the store's search indexes now (stopped daemon)
"""

from __future__ import annotations

import argparse
import faulthandler
import gc
import json
import os
import re
import signal
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coderecalld import config as config_mod
from coderecalld import logs
from coderecalld.config import Config, RepoConfig
from coderecalld.errors import CodeRecallError

if TYPE_CHECKING:  # the index path's imports (parsers, git) are not needed to bind a port
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
        return 141  # 128 + SIGPIPE, as the client's ``BROKEN_PIPE_STATUS``: not 1, "none"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coderecalld", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, func, text in (("index", _index, "mirror and fully index every configured repo"),
                             ("serve", _serve, "index, then serve gRPC and re-sync on an interval")):
        cmd = sub.add_parser(name, help=text)
        cmd.add_argument("--config", help="TOML config file")
        cmd.add_argument("--repo", action="append", default=[], metavar="[NAME=]PATH_OR_URL",
                         help="a repository to index, named NAME or after its path's last part "
                              "(repeatable; adds to the config's)")
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
    sym.add_argument("--language", help=_languages_help())
    sym.add_argument("--json", action="store_true")
    sym.set_defaults(func=_symbols)
    return parser


def _languages_help() -> str:
    """``--language``'s help: the language list when the command is ``symbols`` only (the
    parsers take ~0.1 s to import, which ``serve`` spends before binding its port)."""
    if "symbols" not in sys.argv[1:2]:
        return "a language id"
    from coderecalld import parse

    return f"one of {', '.join(parse.supported_languages())}"


#: ``--repo NAME=PATH_OR_URL``: a name given before the path (``=`` before any ``:``).
_NAMED_REPO = re.compile(r"^([^=:]+)=(.+)$")


def _cli_repos(values: list[str]) -> tuple[RepoConfig, ...]:
    """``--repo`` values as repos: ``PATH_OR_URL`` named after its last part (``.git``
    dropped), or ``NAME=PATH_OR_URL`` (an existing path or a URL holding ``=`` is a path).
    Raises ``ConfigError`` for a name the config would refuse, and for two of one name,
    saying how to name them (two mirrors at ``.../a/repo`` and ``.../b/repo`` are both
    ``repo``)."""
    repos, given = [], set()
    for value in values:
        named = None if "://" in value or Path(value).expanduser().exists() else _NAMED_REPO.match(value)
        if named and not config_mod.valid_repo_name(named.group(1)):
            raise config_mod.ConfigError(
                f"--repo: {named.group(1)!r} is no repo name (letters, digits, '.', '_', '-', '/'; "
                f"a letter or digit first); use --repo NAME=PATH_OR_URL")
        url = _abs_url(named.group(2) if named else value)
        repos.append(RepoConfig(name=named.group(1) if named else config_mod.repo_name_from_url(url), url=url))
        if named:
            given.add(named.group(1))
    seen: dict[str, str] = {}
    for repo in repos:
        if repo.name in seen:
            why = "" if repo.name in given else " (a repo is named after its path's last part)"
            raise config_mod.ConfigError(
                f"--repo: {seen[repo.name]!r} and {repo.url!r} are both named {repo.name!r}{why}; "
                f"name each: --repo NAME=PATH_OR_URL")
        seen[repo.name] = repo.url
    return tuple(repos)


def _load(args: argparse.Namespace) -> Config:
    repos = _cli_repos(args.repo)
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


#: Seconds in-flight RPCs get to finish after SIGTERM (the gRPC server's stop grace).
STOP_GRACE_S = 3.0
#: Seconds after the first SIGTERM/SIGINT at which ``serve`` exits even if a step of the
#: shutdown is still running (a fetch, a huge file's parse): below Kubernetes' default
#: 30 s grace and the 10 s this daemon promises (docs/operations.md). Exiting there loses
#: nothing: every write is idempotent and the ledger records only finished files (DESIGN.md
#: decision 2), so the next start resumes where this one stopped.
STOP_DEADLINE_S = 8.0
#: Seconds after ``STOP_DEADLINE_S`` at which ``faulthandler``'s watchdog (a C thread, no
#: GIL needed) dumps every thread's stack and exits 1, if the Python deadline could not:
#: one full-suite run in six here saw ``serve`` outlive a 60 s wait after SIGTERM, the
#: deadline thread silent (a native call holding the GIL, most likely). At 9 s, not 9.5: the
#: SIGTERM reaches the handler up to a wait slice late and the dump and exit take their own
#: time (a CI clone on a slow machine saw the 9.5 s watchdog's process end 10.09 s after
#: the signal, over issue 19's 10 s).
STOP_BACKSTOP_S = 1.0
#: Seconds the main thread waits at a time for a stop (``_serve``): a signal handler runs
#: only between its waits when the signal lands on another thread.
STOP_POLL_S = 0.2


def _serve(args: argparse.Namespace) -> int:
    """Serve from the first second: bind and start gRPC (health NOT_SERVING, WatchProgress
    and ListRepos answering, other RPCs UNAVAILABLE) before the model and the store open;
    then answer from what is indexed so far while the first lexical index runs; health
    SERVING once every repo this replica owns has a lexical index; dense vectors behind."""
    from grpc_health.v1 import health

    from coderecalld import auth
    from coderecalld.server.app import build_server
    from coderecalld.server.starting import Starting, starting_registry

    cfg = _load(args)
    authenticator = auth.from_config(cfg)  # refuse a bad auth setup before binding anything
    stop = threading.Event()
    opened: list[Any] = []  # the Daemon, once open

    def on_signal(signum: int, _frame: object) -> None:
        if stop.is_set():  # a second signal: the operator does not want to wait
            logs.warn("server.stop_forced", signal=signum, reason="second signal")
            os._exit(1)
        stop.set()
        threading.Thread(target=_exit_after, args=(STOP_DEADLINE_S,), name="stop-deadline",
                         daemon=True).start()
        # The same deadline from a C thread: the one above needs the GIL, which a native
        # call (a model load, a gRPC shutdown) can hold; this one dumps every thread's
        # stack to stderr (the log) and exits 1 without it.
        faulthandler.dump_traceback_later(STOP_DEADLINE_S + STOP_BACKSTOP_S, exit=True)
        for daemon in opened:
            daemon.pipeline.stop()  # an index returns after its file, embedding after its batch

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on_signal)
    progress = starting_registry(cfg)
    api = Starting(cfg, progress)
    health_servicer = health.HealthServicer()
    # Bound and started before the model loads (~5 s on a fresh data dir) and before the
    # first index (minutes): a busy address fails at once, and probes, WatchProgress and
    # `coderecall status --watch` answer from the first second.
    server, port = build_server(api, cfg.server.listen, cfg.server.max_workers,
                                health_servicer=health_servicer, authenticator=authenticator,
                                tls=cfg.server, serving=False, max_file_bytes=cfg.index.max_file_bytes)
    server.start()
    logs.event("server.listening", listen=cfg.server.listen, port=port,
               auth=str(authenticator.mode), tls=bool(cfg.server.tls_cert_file), serving=False)
    from coderecalld.ops import httpserve  # after the port: ~0.1 s of imports

    try:  # /metrics and webhooks too; a push before the daemon is open is covered by the
        # first index, which fetches every repo
        ops = httpserve.start(cfg, lambda name: opened[0].jobs.trigger(name) if opened
                              else cfg.repo(name) is not None)
    except BaseException:
        _shut_down(server, health_servicer, progress, None, None)
        raise
    failed: list[BaseException] = []

    def start() -> None:
        try:
            daemon = _open_serving(cfg, progress, api, opened, stop, ops)
            if not stop.is_set():
                _first_index(daemon, stop, health_servicer, port)
            if not stop.is_set():
                daemon.jobs.start()  # re-syncs, and the worker that adds dense vectors behind
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread, re-raised there
            failed.append(exc)
            stop.set()

    # Opening and the first index run beside the main thread, which only waits: a signal
    # handler runs on the main thread, and would wait behind a long native call there
    # (the query model's derivation, a model batch).
    starter = threading.Thread(target=start, name="serve-start", daemon=True)
    starter.start()
    try:
        # Waited in slices, never whole: a signal the kernel delivers to another thread (a
        # gRPC or model thread) runs its Python handler only when the main thread next
        # returns to the interpreter, and a whole wait never returns (a SIGTERM while the
        # model loaded went unanswered for minutes, one run in six here).
        while not stop.wait(STOP_POLL_S):
            pass
        logs.event("server.stopping")
        if not opened and not failed:
            # Still loading the model or opening the store: nothing of this run to save,
            # and the model load cannot be interrupted (seconds under load). Exit now; the
            # next start redoes what this one began (files land atomically, DESIGN.md 2).
            _shut_down(server, health_servicer, progress, None, ops)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
        while starter.is_alive():  # after the current file or model batch (STOP_DEADLINE_S bounds it)
            starter.join(STOP_POLL_S)  # in slices too: a second signal must be able to run
    finally:
        _shut_down(server, health_servicer, progress, opened[0] if opened else None, ops)
    if failed:
        raise failed[0]
    return 0


def _open_serving(cfg: Config, progress: Any, api: Any, opened: list[Any],
                  stop: threading.Event, ops: Any) -> Any:
    """``Daemon.open`` while the server answers; hands the server the daemon's api."""
    from coderecalld.daemon import Daemon

    daemon = Daemon.open(cfg, progress=progress)
    daemon.ops = ops  # closed first by Daemon.close
    opened.append(daemon)
    if stop.is_set():
        daemon.pipeline.stop()
    api.ready(daemon.api)
    return daemon


def _first_index(daemon: Any, stop: threading.Event, health_servicer: Any, port: int) -> None:
    """The lexical index of every owned repo, in config order (searchable by name before
    the model runs); health turns SERVING when each has one: at once when a previous run
    left an indexed commit for every repo (the old index answers while it catches up), or
    during a rebuild (the old generation answers)."""
    from coderecalld.server.app import set_serving

    owned = [r.name for r in daemon.cfg.repos if daemon.jobs.shard.owns(r.name)]
    daemon.progress.queue(owned)

    def serving() -> None:
        set_serving(health_servicer)
        logs.event("server.serving", port=port)

    early = daemon.rebuild is not None or all(
        (row := daemon.ledger.repo(name)) is not None and row.indexed_commit for name in owned)
    if early:
        serving()
    for name in owned:
        if stop.is_set():
            return
        daemon.jobs.run_now(name, with_dense=False)
    if stop.is_set():
        return
    # What exists now (model, store handles, config, caches) lives as long as the process:
    # keep it out of the cyclic GC's scans. A full collection over those ~80k objects took
    # ~50 ms at 1M points here, a pause any query could land in.
    gc.collect()  # the initial index's garbage goes first; what survives is kept
    gc.freeze()
    if not early:
        serving()


def _shut_down(server: Any, health_servicer: Any, progress: Any, daemon: Any, ops: Any) -> None:
    """NOT_SERVING, end WatchProgress streams, let in-flight RPCs finish (``STOP_GRACE_S``)
    while the jobs stop (the current file, the current model batch), then close the store
    and the ledger."""
    health_servicer.enter_graceful_shutdown()
    progress.close()  # WatchProgress streams end now, not at the grace deadline
    stopped = server.stop(STOP_GRACE_S)
    if daemon is not None:
        daemon.jobs.shutdown()
    stopped.wait()
    if daemon is not None:
        daemon.close()  # its ops too
    elif ops is not None:
        ops.close()
    logs.event("server.stopped")


def _exit_after(seconds: float) -> None:
    """Exit the process ``seconds`` from now if it is still running (``STOP_DEADLINE_S``)."""
    time.sleep(seconds)
    logs.warn("server.stop_forced", reason=f"shutdown took longer than {seconds:g} s")
    os._exit(1)


def _symbols(args: argparse.Namespace) -> int:
    from coderecalld import parse

    path = Path(args.file)
    if not path.is_file():
        print(f"coderecalld: error: {path}: no such file", file=sys.stderr)
        return 2
    language = args.language or parse.language_for(path.name)
    if not language:
        print(f"coderecalld: error: no parser for {path.name}; pass --language", file=sys.stderr)
        return 2
    parsed = parse.symbols(path.read_bytes(), language, path.as_posix())
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
    cmd.add_argument("--repo", action="append", default=[], metavar="[NAME=]PATH_OR_URL",
                     help="a repository, named NAME or after its path's last part (repeatable; "
                          "adds to the config's)")
    cmd.add_argument("--data-dir", help="override data_dir")
    cmd.add_argument("--no-embed", action="store_true", help="the store was built sparse-only")
    cmd.set_defaults(func=func, listen=None)
    return cmd


def _verify_parser(sub: argparse._SubParsersAction) -> None:
    cmd = _stopped_daemon_parser(sub, "verify", _verify,
                                 "compare the ledger and the store per repo (compare only, "
                                 "unless --repair, --embed or --drop-unconfigured)")
    cmd.add_argument("--repair", action="store_true",
                     help="delete orphan points, re-index files with missing points (lexical)")
    cmd.add_argument("--embed", action="store_true",
                     help="also embed every point of the configured repos still without a "
                          "dense vector (minutes on a large backlog; progress printed)")
    cmd.add_argument("--drop-unconfigured", action="store_true",
                     help="delete the points and ledger rows of repos no longer configured")


def _verify(args: argparse.Namespace) -> int:
    """Exit 0 when every repo is clean (or was repaired), 1 when drift was left in place.

    Compares only by default: no model run, no sync. Counts: ``ledger_files`` is every
    ledger row of the repo (indexed, skipped and failed files: ``indexed`` of them have
    points, the count ``ListRepos`` calls ``files``), ``points`` the store's points (what
    ``ListRepos`` calls ``chunks``), ``pending_vectors`` those without a dense vector."""
    from coderecalld.daemon import Daemon
    from coderecalld.records import FileState

    cfg = _load(args)
    daemon = Daemon.open(cfg)
    left = False
    try:
        for repo in cfg.repos:
            print(f"repo {repo.name}: comparing ledger and store ...", file=sys.stderr, flush=True)
            drift, fixed = daemon.jobs.verify(repo.name, repair=args.repair)
            indexed = len(daemon.ledger.files(repo.name, FileState.INDEXED))
            counts = "  ".join(f"{k}={v}" for k, v in drift.counts.items())
            done = f"  repaired: deleted={fixed.deleted} reindexed={len(fixed.forgotten)}" if fixed else ""
            pending = daemon.service.pending_vectors(repo.name)
            print(f"repo {repo.name}  ledger_files={drift.files} (indexed={indexed}) "
                  f"points={drift.points} pending_vectors={pending}  {counts}{done}", flush=True)
            left = left or (not drift.clean and fixed is None)
        _unconfigured(daemon, drop=args.drop_unconfigured)
        if args.embed:
            _embed_with_progress(daemon)
        elif daemon.service.pending_vectors():
            print(f"{daemon.service.pending_vectors()} points still wait for a dense vector: "
                  "`serve` embeds them in the background (or run verify --embed)")
    finally:
        daemon.close()
    return 1 if left else 0


def _unconfigured(daemon: Any, drop: bool) -> None:
    """Report (or with ``drop`` delete) what the store and the ledger hold of repos that
    are not configured: never searched, synced or embedded, kept so that configuring the
    repo again needs no re-index of unchanged files."""
    configured = {r.name for r in daemon.cfg.repos}
    held = daemon.store.repos()
    names = sorted((set(held or ()) | set(daemon.ledger.repo_names())) - configured)
    for name in names:
        if drop:
            deleted = daemon.store.delete_repo(name)
            daemon.ledger.forget_repo(name)
            print(f"unconfigured repo {name}: deleted {deleted} points and its ledger rows")
        else:
            print(f"unconfigured repo {name}: {daemon.store.count_missing_dense(name)} of its points "
                  "lack a dense vector; not searched, synced or embedded "
                  "(--drop-unconfigured deletes it)")


def _embed_with_progress(daemon: Any) -> None:
    """Embed the configured repos' pending points, one line per repo and every ~10 s."""
    for repo in daemon.cfg.repos:
        total = daemon.service.pending_vectors(repo.name)
        if not total:
            continue
        started = last = time.monotonic()
        done = 0

        def report(n: int, name: str = repo.name, total: int = total, started: float = started) -> None:
            nonlocal done, last
            done += n
            if time.monotonic() - last >= 10 or done >= total:
                last = time.monotonic()
                rate = done / max(last - started, 1e-9)
                print(f"embedding {name}: {done}/{total} ({rate:.1f}/s, "
                      f"ETA {max(total - done, 0) / rate:.0f} s)", file=sys.stderr, flush=True)

        print(f"embedding {repo.name}: {total} points without a dense vector ...", file=sys.stderr,
              flush=True)
        daemon.pipeline.embed_backlog(repos=(repo.name,), on_group=report)


if __name__ == "__main__":
    sys.exit(main())
