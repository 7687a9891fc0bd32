"""Issue-to-code localisation through the product, end to end (issue 21's evidence).

For each SWE-bench Lite instance of ``/work/shared/eval/swe-lite-dev`` (README there: fields,
metrics, ``in_balanced_subset``; the ``patch`` field is the answer and is never read here), the
issue text is asked of a real ``coderecalld serve`` subprocess over gRPC through
``coderecall.Client``, with the repository indexed at the instance's ``base_commit``.

Incremental per repository: one data dir per repo (``--data-root/<dense|sparse>/<repo>``),
one daemon per repo for the whole run. The daemon mirrors a local bare repo
(``--data-root/src/<repo>.git``, borrowing the objects of the ``fetch``-ed snapshot through
``objects/info/alternates``) whose branch ``bench`` is moved, instance by instance in
``created_at`` order, to a parentless *snapshot commit* holding exactly ``base_commit``'s tree
(fixed author and date, message ``snapshot of <base_commit>``); ``SyncRepo`` re-syncs, so
the ledger re-parses only changed blobs and the vector cache re-embeds only changed chunk
texts. Snapshots instead of the real commits: the daemon's first fetch would otherwise pack
the repository's whole history (sympy: ~340 MB) for no difference in what is indexed (the
index reads only the tree at the branch head).

Modes: ``hybrid``, ``dense``, ``sparse`` (``Client.search(mode=...)``), and ``locate`` when the
client offers ``Client.locate`` (skipped with a note otherwise). Metrics (LocAgent / SweRank
strict form, as the set's README defines them): file Acc@k = the gold non-test file is among
the first k distinct files of the answer; function Acc@k = every gold function
(``path::Qualified.name``) is among the first k distinct function/method answers (hits of kind
function or method; ``#partN`` suffixes of split symbols dropped); instances without gold
functions are left out of function Acc (``n_fn``). ``files*`` also scores the answer with
test files and non-``.py`` files removed (an agent told "non-test Python only"), the same
candidate set as the baseline.

Baseline ``bm25``: a plain file-level Okapi BM25 over the non-test ``.py`` files of the tree at
``base_commit``, no model: score(D, Q) = sum over distinct query terms t of
IDF(t) * tf(t, D) * (k1 + 1) / (tf(t, D) + k1 * (1 - b + b * |D| / avgdl)), with
IDF(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5)), k1 = 1.2, b = 0.75 (Robertson & Zaragoza,
"The Probabilistic Relevance Framework: BM25 and Beyond", 2009, eq. 3.26 with Lucene's
non-negative IDF). Terms are ``coderecalld.embed.sparse.tokens`` (the product's own
identifier-splitting tokenizer); query terms also drop ``sparse.QUERY_STOP_WORDS``.

Runs cost indexing, not queries: a cold sparse-only index of sympy took ~5 min and each
step 5-270 s (the changed files) on 2 cores shared with other work; dense embeds ~5-17
chunks/s there, so a cold dense sympy (~25k chunks) is most of an hour. Keep ``--data-root``
outside the git tree; ``src/`` under it holds the bare repos the daemons mirror. Two runs
sharing a ``--data-root`` at the same time would move the same branch: give each its own.

Query shapes (heuristic, from the issue text only): ``traceback`` (a Python traceback),
``code`` (a ``>>>`` session or a fenced/indented code block), ``prose`` (neither).

    nice -n 19 python tests/bench/bench_locate.py [--repos sympy,astropy,pylint] [--balanced]
        [--limit-instances N] [--modes hybrid,dense,sparse,locate] [--no-dense]
        [--data-root /work/bench-data/locate] [--out FILE [--resume]] [--label TEXT]
    python tests/bench/bench_locate.py --report results/a.json results/b.json  # merged tables

The daemon runs as ``python -c 'coderecalld.cli.main()' serve`` with this process's
``sys.executable`` and environment: point ``PYTHONPATH`` at another worktree to measure its
code. Not a test: nothing here asserts. Writes JSON (per-instance ranks, rewritten after each
instance, ``complete`` true at the end) to ``tests/bench/results/`` unless ``--out`` says
otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pygit2
from coderecall import Client, CodeRecallError, UnavailableError
from coderecalld.embed import sparse
from coderecalld.query import validate

EVAL_SET = Path("/work/shared/eval/swe-lite-dev/instances.jsonl")
DATA_ROOT = Path("/work/bench-data/locate")
RESULTS = Path(__file__).parent / "results"
MIRRORS = {  # the `fetch` tool's snapshots (full history)
    "sympy/sympy": Path("/work/.mirror/sympy+sympy/repo"),
    "astropy/astropy": Path("/work/.mirror/astropy+astropy/repo"),
    "pylint-dev/pylint": Path("/work/.mirror/pylint-dev+pylint/repo"),
}
SEARCH_MODES = ("hybrid", "dense", "sparse")
FILE_K = (1, 5, 10)
FN_K = (5, 10)
HITS = 200
"""Search hits asked per query: chunk-level hits repeat files, and 10 distinct files (and 10
distinct functions) need several times 10 hits."""
LOCATE_FILES = 10
"""Files asked of ``Client.locate`` (file Acc@10 needs 10), each with the daemon's default
number of functions."""
MAX_QUERY_CHARS = getattr(validate, "MAX_SEARCH_QUERY_CHARS", validate.MAX_QUERY_CHARS)
"""The daemon's query limit (``validate``, in the code measured); longer issues are cut
(``truncated`` in the output)."""
AUTHOR = pygit2.Signature("Bench Locate", "bench@example.invalid", 1_700_000_000, 0)
BM25_K1, BM25_B = 1.2, 0.75
_FUNCTION_KINDS = ("function", "method")


# --- the eval set -----------------------------------------------------------------------


def load_instances(args: argparse.Namespace) -> dict[str, list[dict]]:
    """Instances per repository (``repo`` field), in ``created_at`` order, after the filters."""
    wanted = {r.strip() for r in args.repos.split(",") if r.strip()}
    by_repo: dict[str, list[dict]] = {}
    for line in EVAL_SET.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        row.pop("patch", None)  # the answer: never input
        if args.balanced and not row["in_balanced_subset"]:
            continue
        if row["repo"] not in wanted and row["repo"].split("/")[-1] not in wanted:
            continue
        by_repo.setdefault(row["repo"], []).append(row)
    order = [w.split("/")[-1] for w in args.repos.split(",")]
    by_repo = dict(sorted(by_repo.items(), key=lambda kv: order.index(kv[0].split("/")[-1])))
    for rows in by_repo.values():
        rows.sort(key=lambda r: r["created_at"])
        if args.limit_instances:
            del rows[args.limit_instances:]
    return by_repo


def is_test_path(path: str) -> bool:
    """A test file by the usual Python layouts: a ``test``/``tests``/``testing`` directory,
    ``test_*.py``, ``*_test.py`` or ``conftest.py``."""
    parts = path.split("/")
    name = parts[-1]
    return (any(p in ("test", "tests", "testing") for p in parts[:-1])
            or name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py")


def query_shape(text: str) -> str:
    """``traceback`` / ``code`` / ``prose``: what the issue shows besides words."""
    if "Traceback (most recent call last)" in text or re.search(r'File ".*", line \d+', text):
        return "traceback"
    if ">>>" in text or "```" in text or re.search(r"(?m)^(    |\t)\S", text):
        return "code"
    return "prose"


# --- the source repo the daemon mirrors ---------------------------------------------------


def source_repo(root: Path, slug: str, upstream: Path) -> pygit2.Repository:
    """A bare repo at ``root/src/<slug>.git`` reading ``upstream``'s objects (alternates)."""
    path = root / "src" / f"{slug}.git"
    if not path.exists():
        repo = pygit2.init_repository(str(path), bare=True)
        (path / "objects" / "info").mkdir(parents=True, exist_ok=True)
        (path / "objects" / "info" / "alternates").write_text(str(upstream / "objects") + "\n")
        repo.set_head("refs/heads/bench")
    return pygit2.Repository(str(path))


def move_branch(repo: pygit2.Repository, base_commit: str, omitted: list[str]) -> str:
    """Point ``bench`` at a parentless commit of ``base_commit``'s tree; its id. Blobs the
    snapshot lacks (the ``fetch`` snapshots leave out some large files, e.g. astropy's
    ``astropy/utils/iers/data/eopc04.1962-now``) are left out of the tree, their paths
    appended to ``omitted``: the daemon's fetch would fail on them."""
    tree = _present_tree(repo, repo.revparse_single(base_commit).peel(pygit2.Commit).tree_id,
                         "", omitted)
    oid = repo.create_commit(None, AUTHOR, AUTHOR, f"snapshot of {base_commit}\n", tree, [])
    repo.references.create("refs/heads/bench", oid, force=True)
    return str(oid)


_PRESENT: dict[pygit2.Oid, tuple[pygit2.Oid, tuple[str, ...]]] = {}


def _present_tree(repo: pygit2.Repository, tree_id: pygit2.Oid, prefix: str, omitted: list[str]) -> pygit2.Oid:
    """``tree_id`` without the blobs absent from ``repo`` (the same id when none is);
    memoised per tree, so a commit costs only the subtrees that changed."""
    if tree_id not in _PRESENT:
        builder, missing, changed = repo.TreeBuilder(), [], False
        for entry in repo[tree_id]:  # type: ignore[attr-defined]
            oid = entry.id
            if entry.type_str == "tree":
                sub: list[str] = []
                oid = _present_tree(repo, entry.id, "", sub)
                missing += [f"{entry.name}/{m}" for m in sub]
            elif entry.type_str == "blob" and entry.id not in repo:
                missing.append(entry.name)
                changed = True
                continue
            changed |= oid != entry.id
            builder.insert(entry.name, oid, entry.filemode)
        _PRESENT[tree_id] = (builder.write() if changed else tree_id, tuple(missing))
    new_id, missing_paths = _PRESENT[tree_id]
    omitted += [prefix + m for m in missing_paths]
    return new_id


# --- the daemon ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    proc: subprocess.Popen
    client: Client
    name: str
    log: Path


def serve(data_dir: Path, name: str, url: Path, dense: bool) -> Served:
    """Write ``data_dir/config.toml`` and start ``coderecalld serve`` on it; wait until it answers."""
    data_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    config = data_dir / "config.toml"
    config.write_text("\n".join([
        f'data_dir = "{data_dir}"',
        "[server]", f'listen = "127.0.0.1:{port}"',
        "[embedding]", f"enabled = {'true' if dense else 'false'}",
        "[index]", "sync_interval_s = 1000000", "sync_jitter_s = 0",
        "[verify]", 'cron = ""',
        "[store]", 'optimize_cron = ""',
        "[[repos]]", f'name = "{name}"', f'url = "{url}"', 'branch = "bench"', ""]))
    log = data_dir / "serve.log"
    cmd = [sys.executable, "-c", "import sys; from coderecalld.cli import main; sys.exit(main())",
           "serve", "--config", str(config)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log.open("ab"), env=os.environ.copy())
    client = Client(f"127.0.0.1:{port}", timeout_s=7200)
    probe = Client(f"127.0.0.1:{port}", timeout_s=5)
    while True:  # serve binds first, indexes lexically, then answers
        if proc.poll() is not None:
            raise SystemExit(f"coderecalld serve exited {proc.returncode}; see {log}")
        try:
            probe.list_repos()
            break
        except CodeRecallError:
            time.sleep(2)
    probe.close()
    return Served(proc, client, name, log)


def sync_to(served: Served, commit: str, dense: bool) -> dict:
    """``SyncRepo`` to the moved branch; with dense, wait until no point lacks a vector.
    Seconds of each, and the repo's counts."""
    started = time.monotonic()
    while True:  # a starting daemon answers ListRepos but refuses SyncRepo until ready
        try:
            info = served.client.sync_repo(served.name)
            break
        except UnavailableError:
            time.sleep(2)
    sync_s = time.monotonic() - started
    if info.indexed_commit != commit:
        raise SystemExit(f"{served.name}: indexed {info.indexed_commit}, wanted {commit} "
                         f"(state {info.state} {info.error})")
    while dense and info.pending_vectors:
        time.sleep(3)
        info = next(r for r in served.client.list_repos() if r.name == served.name)
    return {"sync_s": round(sync_s, 2), "dense_wait_s": round(time.monotonic() - started - sync_s, 2),
            "files": info.files, "chunks": info.chunks}


def stop(served: Served) -> None:
    served.client.close()
    served.proc.terminate()
    try:
        served.proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        served.proc.kill()


# --- answers, ranks, metrics -----------------------------------------------------------------


@dataclass
class Answer:
    files: list[str] = field(default_factory=list)  # distinct, best first
    functions: list[str] = field(default_factory=list)  # distinct path::qualified_name
    seconds: float = 0.0
    shape: str = ""  # how the daemon read the query (Locate only)


def from_hits(hits: Iterable[object]) -> Answer:
    answer = Answer()
    for hit in hits:
        path = getattr(hit, "path", "")
        if path and path not in answer.files:
            answer.files.append(path)
        if getattr(hit, "kind", "function") in _FUNCTION_KINDS and getattr(hit, "qualified_name", ""):
            fn = f"{path}::{hit.qualified_name.split('#')[0]}"  # type: ignore[attr-defined]
            if fn not in answer.functions:
                answer.functions.append(fn)
    return answer


def from_locate(result: Iterable[object]) -> Answer:
    """``Client.locate``'s answer (``LocatedFile`` items, each with its best ``functions``):
    files in order, functions flattened file by file (the order an agent reads them)."""
    answer = Answer(shape=getattr(result, "shape", ""))
    for item in result:
        path = item.path  # type: ignore[attr-defined]
        if path not in answer.files:
            answer.files.append(path)
        for fn in getattr(item, "functions", ()):
            name = f"{path}::{fn.qualified_name.split('#')[0]}"
            if name not in answer.functions:
                answer.functions.append(name)
    return answer


def ask(client: Client, mode: str, query: str, repo: str) -> Answer:
    started = time.monotonic()
    if mode == "locate":
        answer = from_locate(client.locate(query, limit=LOCATE_FILES, repo=repo))  # type: ignore[attr-defined]
    else:
        answer = from_hits(client.search(query, limit=HITS, repo=repo, mode=mode))
    answer.seconds = time.monotonic() - started
    return answer


def ranks(answer: Answer, row: dict) -> dict:
    """1-based rank of the gold file (raw answer, and non-test ``.py`` only) and the rank by
    which every gold function has appeared (None when absent / no gold functions)."""
    gold = row["gold_nontest_files"][0]
    clean = [f for f in answer.files if f.endswith(".py") and not is_test_path(f)]
    fn_rank = None
    if row["gold_functions"] and all(g in answer.functions for g in row["gold_functions"]):
        fn_rank = max(answer.functions.index(g) for g in row["gold_functions"]) + 1
    return {"file": answer.files.index(gold) + 1 if gold in answer.files else None,
            "file_clean": clean.index(gold) + 1 if gold in clean else None,
            "fn": fn_rank, "s": round(answer.seconds, 3)}


def acc(values: list[int | None], k: int) -> float:
    return round(100.0 * sum(1 for v in values if v is not None and v <= k) / len(values), 1) if values else float("nan")


def summarize(records: list[dict], mode: str) -> dict:
    rows = [r for r in records if mode in r["ranks"]]
    out = {"n": len(rows), "n_fn": sum(1 for r in rows if r["gold_functions"])}
    for k in FILE_K:
        out[f"file@{k}"] = acc([r["ranks"][mode]["file"] for r in rows], k)
        out[f"files*@{k}"] = acc([r["ranks"][mode].get("file_clean", r["ranks"][mode]["file"]) for r in rows], k)
    for k in FN_K:  # the baseline ranks files only
        out[f"fn@{k}"] = float("nan") if mode == "bm25" else acc([r["ranks"][mode].get("fn") for r in rows if r["gold_functions"]], k)
    return out


# --- the BM25 baseline ---------------------------------------------------------------------------


class Bm25Files:
    """File-level Okapi BM25 over a tree's non-test ``.py`` files (formula in the module doc).
    Term counts are cached per blob id, so consecutive base commits re-tokenize only changed files."""

    def __init__(self, repo: pygit2.Repository) -> None:
        self.repo = repo
        self._terms: dict[str, Counter[str]] = {}

    def rank(self, commit: str, query: str) -> list[str]:
        docs = self._docs(commit)
        n_docs = len(docs)
        avgdl = sum(sum(c.values()) for c in docs.values()) / max(n_docs, 1)
        q_terms = {t for t in sparse.tokens(query) if t not in sparse.QUERY_STOP_WORDS}
        df = Counter(t for c in docs.values() for t in q_terms if t in c)
        idf = {t: math.log(1 + (n_docs - df[t] + 0.5) / (df[t] + 0.5)) for t in q_terms}
        scores = {}
        for path, counts in docs.items():
            norm = BM25_K1 * (1 - BM25_B + BM25_B * sum(counts.values()) / avgdl)
            scores[path] = sum(idf[t] * counts[t] * (BM25_K1 + 1) / (counts[t] + norm)
                               for t in q_terms if t in counts)
        return sorted(scores, key=lambda p: (-scores[p], p))

    def _docs(self, commit: str) -> dict[str, Counter[str]]:
        docs = {}
        tree = self.repo.revparse_single(commit).peel(pygit2.Commit).tree
        for path, blob_id in _py_blobs(tree, ""):
            if is_test_path(path):
                continue
            if blob_id not in self._terms:
                text = self.repo[blob_id].data.decode("utf-8", "replace")
                self._terms[blob_id] = Counter(sparse.tokens(text))
            docs[path] = self._terms[blob_id]
        return docs


def _py_blobs(tree: pygit2.Tree, prefix: str) -> Iterable[tuple[str, str]]:
    for entry in tree:
        path = f"{prefix}{entry.name}"
        if entry.type_str == "tree":
            yield from _py_blobs(entry, path + "/")  # type: ignore[arg-type]
        elif entry.type_str == "blob" and path.endswith(".py"):
            yield path, str(entry.id)


# --- the run -------------------------------------------------------------------------------------


def has_locate() -> bool:
    return callable(getattr(Client, "locate", None))


def run_repo(repo_name: str, rows: list[dict], args: argparse.Namespace, modes: list[str],
             records: list[dict], save: Callable[[], None]) -> None:
    """Index ``rows``' base commits one after the other, query each; append to ``records``
    and ``save()`` after every instance (a run cut short keeps what it measured)."""
    slug = repo_name.split("/")[-1]
    upstream = pygit2.Repository(str(MIRRORS[repo_name]))
    src = source_repo(args.data_root, slug, MIRRORS[repo_name])
    bm25 = Bm25Files(upstream)
    dense = not args.no_dense
    data_dir = args.data_root / ("dense" if dense else "sparse") / slug
    move_branch(src, rows[0]["base_commit"], [])
    started = time.monotonic()
    served = serve(data_dir, slug, Path(src.path.rstrip("/")), dense)
    print(f"[{slug}] serving {data_dir} after {time.monotonic() - started:.0f} s", flush=True)
    try:
        for row in rows:
            omitted: list[str] = []
            commit = move_branch(src, row["base_commit"], omitted)
            step = sync_to(served, commit, dense)
            query = row["query"][:MAX_QUERY_CHARS]
            record = {k: row[k] for k in ("instance_id", "repo", "base_commit", "created_at",
                                          "gold_nontest_files", "gold_functions", "in_balanced_subset")}
            record.update(step, omitted_blobs=omitted, shape=query_shape(row["query"]), truncated=len(row["query"]) > MAX_QUERY_CHARS,
                          ranks={})
            for mode in modes:
                answer = ask(served.client, mode, query, slug)
                record["ranks"][mode] = ranks(answer, row)
                if answer.shape:
                    record["daemon_shape"] = answer.shape
            t0 = time.monotonic()
            record["ranks"]["bm25"] = ranks(Answer(files=bm25.rank(row["base_commit"], row["query"]),
                                                   seconds=0.0), row)
            record["ranks"]["bm25"]["s"] = round(time.monotonic() - t0, 3)
            records.append(record)
            save()
            brief = " ".join(f"{m}={record['ranks'][m]['file']}" for m in [*modes, "bm25"])
            print(f"[{slug}] {row['instance_id']} sync={step['sync_s']}s dense_wait={step['dense_wait_s']}s "
                  f"chunks={step['chunks']} gold-file rank: {brief}", flush=True)
    finally:
        stop(served)


def hybrid_worse(records: list[dict]) -> dict | None:
    """Share of instances whose hybrid gold-file rank is worse than the better of dense and
    sparse (absent = infinitely far), and the share where it is better than both."""
    rows = [r for r in records if all(m in r["ranks"] for m in SEARCH_MODES)]
    if not rows:
        return None
    far = lambda v: v if v is not None else math.inf
    worse = sum(1 for r in rows if far(r["ranks"]["hybrid"]["file"])
                > min(far(r["ranks"]["dense"]["file"]), far(r["ranks"]["sparse"]["file"])))
    better = sum(1 for r in rows if far(r["ranks"]["hybrid"]["file"])
                 < min(far(r["ranks"]["dense"]["file"]), far(r["ranks"]["sparse"]["file"])))
    return {"n": len(rows), "worse_pct": round(100.0 * worse / len(rows), 1),
            "better_pct": round(100.0 * better / len(rows), 1)}


def report(records: list[dict], modes: list[str]) -> dict:
    groups = {"overall": records}
    for r in records:
        groups.setdefault(r["repo"], []).append(r)
    for r in records:
        groups.setdefault(f"shape:{r['shape']}", []).append(r)
    for r in records:
        if r.get("daemon_shape"):
            groups.setdefault(f"daemon-shape:{r['daemon_shape']}", []).append(r)
    summary = {g: {m: summarize(rs, m) for m in [*modes, "bm25"]} for g, rs in groups.items()}
    worse = {g: hybrid_worse(rs) for g, rs in groups.items() if "shape:" not in g}
    cols = ["n", "n_fn", *[f"file@{k}" for k in FILE_K], *[f"files*@{k}" for k in FILE_K],
            *[f"fn@{k}" for k in FN_K]]
    print("\n" + f"{'group':<22}{'mode':<8}" + "".join(f"{c:>10}" for c in cols))
    for g, by_mode in summary.items():
        for m, s in by_mode.items():
            print(f"{g:<22}{m:<8}" + "".join(f"{s[c]:>10}" for c in cols))
        if worse.get(g):
            w = worse[g]
            print(f"{g:<22}hybrid worse than best single retriever (gold-file rank): "
                  f"{w['worse_pct']}% of {w['n']}, better than both: {w['better_pct']}%")
    return {"summary": summary, "hybrid_vs_single": worse}


def merged_report(paths: list[Path]) -> int:
    """Tables over the instances of several result files (e.g. one per repository)."""
    records, modes = [], []
    for path in paths:
        result = json.loads(path.read_text())
        records += result["instances"]
        print(f"{path}: {result['label']!r} complete={result.get('complete', True)} "
              f"n={len(result['instances'])}")
        modes += [m for m in result["modes"] if m not in modes]
    report(records, modes)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", default="sympy,astropy,pylint")
    parser.add_argument("--balanced", action="store_true", help="the 37-instance subset")
    parser.add_argument("--limit-instances", type=int, default=0, help="first N per repo (0 = all)")
    parser.add_argument("--modes", default="hybrid,dense,sparse,locate")
    parser.add_argument("--no-dense", action="store_true", help="embedding disabled: sparse only")
    parser.add_argument("--data-root", type=Path, default=DATA_ROOT)
    parser.add_argument("--out", type=Path, help="JSON results (default tests/bench/results/locate-*.json)")
    parser.add_argument("--label", default="", help="free text stored in the JSON (e.g. the code measured)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the instances already in --out and measure only the rest")
    parser.add_argument("--report", type=Path, nargs="+", metavar="JSON",
                        help="only print the tables of earlier runs' JSON files, merged")
    args = parser.parse_args(argv)
    if args.report:
        return merged_report(args.report)
    modes = [m for m in args.modes.split(",") if m]
    if args.no_dense:
        modes = [m for m in modes if m != "dense"] or ["sparse"]  # hybrid = sparse + name pins
    notes = []
    if "locate" in modes and not has_locate():
        modes.remove("locate")
        notes.append("locate: Client.locate absent in this code, mode skipped")
        print(notes[-1], flush=True)
    records: list[dict] = []
    started = time.monotonic()
    out = args.out or RESULTS / (f"locate-{'dense' if not args.no_dense else 'sparse'}"
                                 f"{'-balanced' if args.balanced else ''}.json")
    out.parent.mkdir(parents=True, exist_ok=True)

    def save(complete: bool = False, summary: dict | None = None) -> None:
        import coderecalld
        result = {"label": args.label, "argv": sys.argv[1:], "complete": complete, "modes": modes,
                  "notes": notes, "hits_per_query": HITS, "dense": not args.no_dense,
                  "code": str(Path(coderecalld.__file__).parent),
                  "wall_s": round(time.monotonic() - started, 1), **(summary or {}),
                  "instances": records}
        out.write_text(json.dumps(result, indent=1) + "\n")

    # SIGTERM unwinds like Ctrl-C, so run_repo's ``finally`` stops the daemon it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    done = set()
    if args.resume and out.exists():  # keep what an earlier, cut-short run measured
        records += json.loads(out.read_text())["instances"]
        done = {r["instance_id"] for r in records}
        print(f"resuming {out}: {len(done)} instances already measured", flush=True)
    for repo_name, rows in load_instances(args).items():
        rows = [r for r in rows if r["instance_id"] not in done]
        if not rows:
            continue
        run_repo(repo_name, rows, args, modes, records, save)
    save(complete=True, summary=report(records, modes))
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
