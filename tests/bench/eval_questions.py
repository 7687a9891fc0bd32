"""Evaluation: written questions about real repositories, end to end (issue 21).

CoSQA measures short web queries on CodeSearchNet functions, where the model is flattered;
this measures what an agent asks of a repository it works in. Each line of a question set
(``tests/bench/questions/*.jsonl``) is one query written by a person reading that
repository's source at one commit, with the answer checked there:

    {"repo": "spf13/cobra", "commit": "<sha>", "id": "Q5", "shape": "question",
     "query": "what happens when a flag marked required is not provided",
     "files": ["command.go"], "symbols": ["Command.ValidateRequiredFlags"]}

``shape`` is the writer's (question, message, identifier, issue), not the product's;
``files`` are repo paths, any of which is right; ``symbols`` are qualified names or their
trailing parts (``Command.execute`` matches ``cobra.Command.execute``), any of which is
right (empty: the file alone is the answer; ``#Heading``: a docs section under it). A
row of shape ``absent`` asks about something the repository does not do (``files`` and
``symbols`` empty): every answer to it is wrong, and the low-confidence flag should say so.

The repo is indexed at ``commit`` with the model on (a data dir per set under ``--work``,
kept between runs: the vector cache makes a re-run cheap), then each query goes through
``Service.search`` (``--limit`` 10) and ``Service.locate`` (5 files). Printed per shape and
in all: the right file at rank 1 and within 5 (search: among its first hits' files;
locate: its files), the right symbol likewise (locate: its functions, file by file), and
how the low-confidence flag splits right from wrong answers (a wrong answer: nothing
relevant, no right file, among search's first 5 hits: the flag's definition, issue 21). With
``--modes`` also sparse and dense search alone. ``--misses`` prints each miss's first hits,
``--ranks`` every question's ranks (a hit's too).

    python tests/bench/eval_questions.py --questions tests/bench/questions/cobra.jsonl \\
        --work /tmp/questions [--modes hybrid,sparse,dense] [--misses]

Needs the repo's mirror (``fetch github:spf13/cobra``) under ``--mirrors``.

``tests/bench/issues/*.jsonl`` are sets of pasted issues (shape ``issue``; 678 over 54
repositories), each written by a newcomer trial from a real fix commit (title, body, the
real traceback where the bug raised; the fixed file and function as the answer), asked at
the mirror's HEAD as the trial asked it, or (``pydantic.jsonl``, ``httpx.jsonl``,
``jinja.jsonl``, ``click.jsonl``, ``starlette.jsonl``, ``requests.jsonl``,
``fastapi.jsonl``, ``express.jsonl``, ``cobra.jsonl`` and the later ones, ``skimage.jsonl``
with tracebacks printed by runs at those commits; ``pytest-history.jsonl``,
``xarray-history.jsonl``, ``seaborn-history.jsonl``, ``ripgrep-history.jsonl``,
``gin-history.jsonl``, ``zod-history.jsonl``, ``sqlfluff-history.jsonl``,
``astroid-history.jsonl``, ``fmt-history.jsonl``, ``networkx-history.jsonl``,
``aiohttp-history.jsonl``, ``pip-history.jsonl``, ``rich-``, ``scrapy-``, ``sqlalchemy-``,
``mypy-``, ``ipython-`` and ``pydicom-history.jsonl``, fixes of 2018-2025 written in each
project's issue form with its session output, ``show_versions()`` or ``pip show`` report,
``rg --version`` or CLI output, tracebacks, panics, stacks and compiler errors composed from
the source at those commits, not run; astroid's four tracebacks, networkx's and mypy's were run) each at its fix's parent commit: a set naming several commits of a repository is asked in rounds (``rounds``), the
repository moved and re-synced between them. Run them with ``--no-model`` (an issue is ranked by
its words alone either way; a separate ``--work``):

    for f in tests/bench/issues/*.jsonl; do python tests/bench/eval_questions.py \
        --questions $f --work /tmp/issues/$(basename $f .jsonl) --no-model; done
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import pygit2
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld import logs

sys.path.insert(0, str(Path(__file__).parent))
import issue_lab  # noqa: E402  (the --set overrides and the working repos, shared)


def symbol_right(qualified: str, wanted: list[str]) -> bool:
    """Whether ``qualified`` (an answer's qualified name) is one of ``wanted`` or ends with
    one at a ``.`` (``cobra.Command.execute`` is ``Command.execute``); a wanted ``#Heading``
    matches a docs section under that heading (``docs/api.rst#API/Heading``). A Rust name
    is read dotted, its trait left out (``<AllowHeader as Trait>::merge`` and
    ``AllowHeader::merge`` are ``AllowHeader.merge``), and a Java one without its
    parameter types, as the question sets write them. A part of a long function
    (``genBashComp#part2``, ``index/chunk.py``) is that function: search shows it so, and
    ``card`` and ``symbols`` answer the function for it."""
    qualified = dotted(_PART.sub("", qualified))
    wanted = [w if w.startswith("#") else dotted(w) for w in wanted]  # a set may write Rust's ``::``
    return any(qualified == w or qualified.endswith("." + w) or (w.startswith("#") and w in qualified)
               for w in wanted)


#: A part's suffix (``#part2``) ending a qualified name.
_PART = re.compile(r"#part\d+$")


def dotted(name: str) -> str:
    """A qualified name in the question sets' form: Rust's dotted (``<T<S> as Tr<S>>::m``
    -> ``T.m``, ``a::B::c`` -> ``a.B.c``), parameter types left out
    (``C.m(int).<anonymous T>.n()`` -> ``C.m.<anonymous T>.n``)."""
    if name.startswith("<"):
        depth = 0
        for i, ch in enumerate(name):
            depth += (ch == "<") - (ch == ">")
            if depth == 0:
                head = name[1:i].split(" as ", 1)[0]
                name = head.split("<", 1)[0] + name[i + 1:]
                break
    return _PARAMETERS.sub("", name.replace("::", "."))


#: A Java (or Kotlin, C#) overload's parameter types in its qualified name:
#: ``Gson.fromJson(String,Class<T>)`` is ``Gson.fromJson`` to the question sets.
_PARAMETERS = re.compile(r"(?<=[\w>])\([^()]*\)")


def rounds(rows: list[dict]) -> list[list[dict]]:
    """``rows`` in rounds that each ask every repository at one commit: round k holds, per
    repository, the rows of the k-th commit it names (a set of issues written from real
    fixes, each asked at its fix's parent, names one commit per row; a set asked at one
    commit is one round). Row order is kept within a round."""
    order: dict[str, list[str]] = {}
    for r in rows:
        commits = order.setdefault(r["repo"], [])
        if r["commit"] not in commits:
            commits.append(r["commit"])
    out: list[list[dict]] = [[] for _ in range(max((len(c) for c in order.values()), default=0))]
    for r in rows:
        out[order[r["repo"]].index(r["commit"])].append(r)
    return out


def at_commits(daemon: Daemon, work: Path, mirrors: Path, rows: list[dict]) -> None:
    """Move each repository of ``rows`` (one commit each) to its rows' commit and sync it:
    the next round of a set asked at several commits (the ledger and the vector cache make
    each step an incremental re-index)."""
    for name, commit in {r["repo"]: r["commit"] for r in rows}.items():
        repo = pygit2.Repository(str(issue_lab.working_repo(work, mirrors, name)))
        repo.references.create("refs/heads/main", repo.revparse_single(commit).id, force=True)
        daemon.jobs.run_now(name.split("/")[1])


def prepare(work: Path, mirrors: Path, rows: list[dict], chunking: dict[str, int] | None = None,
            model: bool = True) -> Daemon:
    """A daemon over one working bare repo per repository of ``rows``, its ``main`` at
    the rows' first commit (alternates to the mirror: no copy; ``rounds`` and
    ``at_commits`` move it on), indexed with the model unless ``model`` is False (an
    issue set: a pasted issue is ranked by its words alone)."""
    repos: dict[str, str] = {}
    for r in rows:
        repos.setdefault(r["repo"], r["commit"])
    cfgs = []
    for name, commit in repos.items():
        bare = issue_lab.working_repo(work, mirrors, name)
        repo = pygit2.Repository(str(bare))
        repo.references.create("refs/heads/main", repo.revparse_single(commit).id, force=True)
        cfgs.append(RepoConfig(name.split("/")[1], str(bare), "main"))
    cfg = Config(data_dir=work / "data", repos=tuple(cfgs), embedding=EmbeddingConfig(enabled=model, threads=2),
                 index=IndexConfig(sync_interval_s=86400, sync_jitter_s=0, **(chunking or {})))
    daemon = Daemon.open(cfg)
    for c in cfgs:
        daemon.jobs.run_now(c.name)
    return daemon


def judge(row: dict, files: list[str], symbols: list[str]) -> tuple[int | None, int | None]:
    """Ranks (1-based) of the first right file among ``files`` and the first right symbol
    among ``symbols``; None when absent (the symbol rank is the file's when the row names no
    symbol)."""
    frank = next((i for i, p in enumerate(files, 1) if p in row["files"]), None)
    if not row.get("symbols"):
        return frank, frank
    srank = next((i for i, q in enumerate(symbols, 1) if symbol_right(q, row["symbols"])), None)
    return frank, srank


def main() -> int:
    # the daemon's warnings and errors with their fields (``index.file_failed``'s path and
    # error: a newcomer saw the bare event name six times, its files unknown)
    logs.configure(level="warning")
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=Path, action="append", required=True)
    ap.add_argument("--work", type=Path, default=Path("/tmp/questions"))
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--limit", type=int, default=10)
    ap.add_argument("--modes", default="hybrid")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--ranks", action="store_true",
                    help="print every question's ranks (RANK mode id f@file s@symbol), hits too")
    ap.add_argument("--features", type=Path,
                    help="write each hybrid answer's confidence features and whether it is "
                         "wrong (nothing relevant in the first 5) as JSONL, for replays")
    ap.add_argument("--max-chunk-lines", type=int, help="index.max_chunk_lines (a separate --work: "
                    "another chunking is another index)")
    ap.add_argument("--max-chunk-chars", type=int, help="index.max_chunk_chars (likewise)")
    ap.add_argument("--unscoped", action="store_true",
                    help="ask every query without its repository (as an agent pasting an issue "
                         "into an index of many repositories does); a hit in another repository "
                         "is never right")
    ap.add_argument("--no-model", action="store_true",
                    help="index without the model (a separate --work): for sets of pasted "
                         "issues, which are ranked by their words alone either way")
    issue_lab.add_sets(ap)
    ap.add_argument("--vs-set", action="append", default=[],
                    help="like --set, for a second search and locate per query (reported as "
                         "modes MODE-vs and locate-vs): two query-time settings compared on one "
                         "index in one run (a set asked in rounds scores by its sync history, "
                         "so two runs of it differ a little)")
    args = ap.parse_args()
    issue_lab.apply_sets(args.set)
    vs_before, vs_after = issue_lab.swapped_sets(args.vs_set)
    rows = [json.loads(line) for q in args.questions for line in q.read_text().splitlines()
            if line.strip()]
    chunking = {k: v for k, v in (("max_chunk_lines", args.max_chunk_lines),
                                  ("max_chunk_chars", args.max_chunk_chars)) if v}
    daemon = prepare(args.work, args.mirrors, rows, chunking, model=not args.no_model)
    table: dict[tuple[str, str], list[tuple]] = defaultdict(list)
    dumped: list[dict] = []
    asked = [(k, row) for k, group in enumerate(rounds(rows)) for row in group]
    try:
        for i, (k, row) in enumerate(asked):
            if k and asked[i - 1][0] != k:  # a round's first row: its repositories move on
                at_commits(daemon, args.work, args.mirrors, [r for j, r in asked if j == k])
            repo = row["repo"].split("/")[1]
            scope = "" if args.unscoped else repo

            def own(hit_repo: str, path: str, repo: str = repo) -> str:
                return path if hit_repo == repo else f"{hit_repo}:{path}"  # never right
            for tag, values in [("", {}), *([("-vs", vs_after)] if vs_after else [])]:
                issue_lab.put_sets(values)
                try:
                    for mode in args.modes.split(","):
                        res = daemon.service.search(row["query"], limit=args.limit, repo=scope, mode=mode)
                        hits = list(res)
                        files = list(dict.fromkeys(own(h.repo, h.path) for h in hits))
                        f, s = judge(row, files, [h.qualified_name for h in hits])
                        low = res.low_confidence
                        if args.features and mode == "hybrid" and not tag and res.features is not None:
                            dumped.append({"id": row["id"], "repo": row["repo"], "shape": row["shape"],
                                           "wrong": f is None or f > 5, "low": low,
                                           "features": res.features.as_dict()})
                        for key in ((row["shape"], mode), ("all", mode)):
                            table[(key[0], key[1] + tag)].append((f, s, low))
                        if args.ranks:
                            print(f"RANK {mode + tag:9} {row['id']:5} f@{f} s@{s}")
                        if args.misses and (s is None or s > 1):
                            print(f"MISS {mode + tag:6} {row['id']:5} s@{s} f@{f} low={low} {row['query'][:70]!r}")
                            for h in hits[:3]:
                                print(f"      {h.score:.3f} {own(h.repo, h.path)}:{h.qualified_name} ({h.kind}, {h.role})")
                    located = daemon.service.locate(row["query"], limit=5, repo=scope)
                    lfiles = [own(x.repo, x.path) for x in located.files]
                    lsyms = [fn.qualified_name if x.repo == repo else f"{x.repo}:{fn.qualified_name}"
                             for x in located.files for fn in x.functions]
                    f, s = judge(row, lfiles, lsyms)
                    for key in ((row["shape"], "locate"), ("all", "locate")):
                        table[(key[0], key[1] + tag)].append((f, s, False))
                    if args.ranks:
                        print(f"RANK {'locate' + tag:9} {row['id']:5} f@{f} s@{s}")
                    if args.misses and (s is None or s > 1):
                        print(f"MISS {'locate' + tag} {row['id']:5} s@{s} f@{f}")
                        for x in located.files[:2]:
                            print(f"      {x.score:.3f} {own(x.repo, x.path)}: {', '.join(fn.qualified_name for fn in x.functions[:4])}")
                finally:
                    issue_lab.put_sets(vs_before)
    finally:
        daemon.close()
    if args.features:
        args.features.write_text("".join(json.dumps(d) + "\n" for d in dumped))
    print(f"{'shape':12} {'mode':9} {'n':>3} {'file@1':>6} {'file@5':>6} {'sym@1':>6} {'sym@5':>6}  flag: wrong caught / flags right")
    for (shape, mode), vals in sorted(table.items()):
        n = len(vals)
        at = lambda i, k: sum(1 for v in vals if v[i] is not None and v[i] <= k)  # noqa: E731
        line = f"{shape:12} {mode:9} {n:3} {at(0, 1):6} {at(0, 5):6} {at(1, 1):6} {at(1, 5):6}"
        if not mode.startswith("locate"):
            wrong = [v for v in vals if v[0] is None or v[0] > 5]  # nothing relevant in the top 5
            caught = sum(1 for v in wrong if v[2])
            false = sum(1 for v in vals if v[2] and v not in wrong)
            line += f"  {caught}/{len(wrong)} / {false}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
