"""Build a localisation set from a repository's own history (issue 21's held-out checks).

swe-lite-dev covers three repositories; the held-out split covers others. To check that a
ranking change holds on a repository nobody tuned on, this turns release notes into
instances in the swe-lite-dev schema (``/work/shared/eval/swe-lite-dev/README``), for
``issue_lab.py --instances FILE --repos NAME``:

* the query is a release note written with the fix: a towncrier fragment the commit adds
  (``--fragments``, e.g. pytest's ``changelog/1234.bugfix.rst``) or the lines the commit adds
  to a changelog file (``--changelog``, e.g. sphinx's ``CHANGES.rst``, xarray's
  ``doc/whats-new.rst``; issue/PR references and author credits dropped);
  or the commit's subject line (``--subjects``: a task as a developer names it, "Fix
  the crash when ..."; at least ``SUBJECT_MIN_CHARS``, no merges, bots, releases or
  reverts);
* the gold file is the one source file (``files.classify.role`` "source", ``.py``) the
  commit touches, and it modifies it (commits adding, deleting or renaming a source file, or
  touching several, are left out, as are merges and notes under ``MIN_CHARS`` / over
  ``MAX_CHARS``); a note that names its gold file (path, file name or dotted module) is
  left out too: it would hand over the answer (sphinx's deprecation-table rows do);
* ``base_commit`` is the commit's parent; ``gold_functions`` are derived as swe-lite-dev's
  are (its README): the innermost function or method, at ``base_commit``, enclosing each
  line the commit removes or changes in the gold file, or each point it inserts at
  (``ast``: nested names joined by dots, ``Class.method.inner``, as the index names them);
  edits outside any def name none.

Release notes describe a fix in its author's words, often naming the API it touches: they
are shorter and more direct than issues (most are the question shape, not the issue shape),
so read the figures as a check that nothing is below a plain BM25 on a new layout, not as
issue accuracy. Never tune on them.

    python tests/bench/history_set.py --mirror /work/.mirror/pytest-dev+pytest/repo \\
        --repo pytest-dev/pytest --since 2021-01-01 --fragments --every 3 --out /tmp/pytest.jsonl
    python tests/bench/history_set.py --mirror /work/.mirror/sphinx-doc+sphinx/repo \\
        --repo sphinx-doc/sphinx --since 2020-01-01 --changelog 'CHANGES(\\.rst)?' --out /tmp/sphinx.jsonl
    python tests/bench/history_set.py --mirror /work/.mirror/pallets+flask/repo \\
        --repo pallets/flask --since 2015-01-01 --changelog 'CHANGES(\\.rst)?' --out /tmp/flask.jsonl

With the model (the product's own path for short texts), one index at the set's last base
commit (``--snapshot-at N``: the first N notes whose file is still there):

    python tests/bench/history_set.py --mirror /work/.mirror/sphinx-doc+sphinx/repo \\
        --repo sphinx-doc/sphinx --since 2024-01-01 --changelog 'CHANGES(\\.rst)?' \\
        --snapshot-at 108 --out /tmp/sphinx24.jsonl
    python tests/bench/issue_lab.py --instances /tmp/sphinx24.jsonl --repos sphinx --snapshot \\
        --dense --data DIR/data --work DIR --bm25
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from datetime import datetime, timezone
from pathlib import Path

import pygit2

from coderecalld.files import classify

#: Release notes shorter than this say too little to localise ("Fix typo."); longer ones
#: are whole release sections, not one change.
MIN_CHARS = 60
MAX_CHARS = 2000
#: A commit subject shorter than this names no change ("Fix typo", "Update x.py").
SUBJECT_MIN_CHARS = 25
#: A subject's pull-request reference (``(#1234)``) and a bot's or a merge's subject.
_PR_REF = re.compile(r"\s*\(#\d+\)\s*$|\s*\(gh-\d+\)\s*$")
_NOT_A_CHANGE = re.compile(r"(?i)^(?:merge|bump|\[pre-commit|pre-commit|revert|release|update changelog|"
                           r"changelog|version)\b")
#: A towncrier fragment (``changelog/1234.bugfix.rst``, ``newsfragments/99.feature.md``).
FRAGMENT = re.compile(r"(?:changelog|changes|newsfragments|changelog\.d)/[\w.+-]+\.(?:rst|md|txt)$")
#: Issue/PR references and credits in a changelog line.
_NOISE = re.compile(r":(?:issue|pull|pr|gh|user):`[^`]*`|#\d+:?|\bBy `[^`]*`_?\.?|<https?://[^>]*>`?_?"
                    r"|\b(?:Patch|Patches|Contributed|Reported|Original patch) by [^.]*\.?", re.I)
_HEADING = re.compile(r"^(?:=+|-+|~+|Release .*|Version .*)$")


def note_of(repo: pygit2.Repository, commit: pygit2.Commit, diff: pygit2.Diff,
            fragments: bool, changelog: re.Pattern[str] | None) -> str:
    """The release note ``commit`` adds ("" when none or more than one)."""
    found = []
    for patch in diff:
        path = patch.delta.new_file.path
        if fragments and patch.delta.status == pygit2.GIT_DELTA_ADDED and FRAGMENT.search(path):
            found.append(repo[commit.tree[path].id].data.decode("utf-8", "replace"))
        elif changelog is not None and changelog.fullmatch(path):
            lines = [line.content.strip() for hunk in patch.hunks for line in hunk.lines
                     if line.origin == "+" and line.content.strip()]
            if lines and not any(_HEADING.match(line) for line in lines):
                found.append(" ".join(re.sub(r"^[*-]\s*", "", line) for line in lines))
    if len(found) != 1:
        return ""
    return re.sub(r"[ \t]+", " ", _NOISE.sub("", found[0])).strip()


def subject_of(commit: pygit2.Commit) -> str:
    """``commit``'s subject line without its pull-request reference ("" for a merge's, a
    bot's, a release's or a revert's subject, or one under ``SUBJECT_MIN_CHARS``)."""
    subject = _PR_REF.sub("", commit.message.strip().split("\n", 1)[0]).strip()
    if _NOT_A_CHANGE.match(subject) or len(subject) < SUBJECT_MIN_CHARS:
        return ""
    return subject


def source_file(diff: pygit2.Diff) -> str:
    """The one ``.py`` source file ``diff`` touches when it modifies it (not added, deleted
    or renamed); "" when it touches none, several, or its one in another way."""
    touched = [p.delta for p in diff
               if any(f.endswith(".py") and classify.role(f) == "source"
                      for f in (p.delta.old_file.path, p.delta.new_file.path))]
    if len(touched) != 1 or touched[0].status != pygit2.GIT_DELTA_MODIFIED:
        return ""
    return touched[0].new_file.path


def gold_functions(repo: pygit2.Repository, commit: pygit2.Commit, path: str) -> list[str]:
    """``path::Qualified.name`` of the innermost def (at ``commit``'s parent) enclosing each
    line ``commit`` removes from ``path``, or each point it inserts lines at (the old line
    before the insertion); sorted, distinct. [] when the old file does not parse."""
    parent = commit.parents[0]
    try:
        tree = ast.parse(repo[parent.tree[path].id].data)
    except (SyntaxError, ValueError):
        return []
    spans: list[tuple[int, int, str]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                    spans.append((start, child.end_lineno or child.lineno, name))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    lines: set[int] = set()
    diff = repo.diff(parent, commit, context_lines=0)
    for patch in diff:
        if patch.delta.old_file.path != path:
            continue
        for hunk in patch.hunks:
            before = hunk.old_start if hunk.old_lines == 0 else hunk.old_start - 1
            for line in hunk.lines:
                if line.origin == "-":
                    lines.add(line.old_lineno)
                    before = line.old_lineno
                elif line.origin == "+":
                    lines.add(max(before, 1))
    names = set()
    for n in lines:
        inside = [(end - start, name) for start, end, name in spans if start <= n <= end]
        if inside:
            names.add(f"{path}::{min(inside)[1]}")
    return sorted(names)


def names_file(note: str, path: str) -> bool:
    """Whether ``note`` names ``path`` by path, file name or dotted module
    (``src/_pytest/python_api.py``: ``python_api.py``, ``_pytest.python_api``)."""
    pure = path.removesuffix(".py")
    module = ".".join(p for p in pure.split("/") if p not in ("src", "lib"))
    module = module.removesuffix(".__init__")
    return any(n and n in note for n in (path, path.rsplit("/", 1)[-1], module))


def build(repo: pygit2.Repository, slug: str, since: datetime, fragments: bool,
          changelog: re.Pattern[str] | None, subjects: bool = False) -> list[dict]:
    """Instances (oldest first) from the commits of the default branch since ``since``."""
    rows = []
    for commit in repo.walk(repo.head.target, pygit2.GIT_SORT_TIME):
        if commit.commit_time < since.timestamp():
            break
        if len(commit.parents) != 1:
            continue
        diff = repo.diff(commit.parents[0], commit)
        gold = source_file(diff)
        if not gold:
            continue
        if subjects:
            note = subject_of(commit)
            if not note or names_file(note, gold):
                continue
        else:
            note = note_of(repo, commit, diff, fragments, changelog)
            if not MIN_CHARS <= len(note) <= MAX_CHARS or names_file(note, gold):
                continue
        rows.append({
            "instance_id": f"{slug.split('/')[1]}-{str(commit.id)[:10]}", "repo": slug,
            "base_commit": str(commit.parents[0].id),
            "created_at": datetime.fromtimestamp(commit.commit_time, timezone.utc).isoformat(),
            "query": note, "gold_nontest_files": [gold],
            "gold_functions": gold_functions(repo, commit, gold),
            "in_balanced_subset": False})
    rows.reverse()
    return rows


def at_snapshot(repo: pygit2.Repository, rows: list[dict]) -> list[dict]:
    """``rows`` (oldest first) whose gold file the last row's base commit still holds, the
    last row last: ``issue_lab.py --snapshot`` indexes a set once, at its last row's base
    commit, and a note whose file has moved since has no right answer there (sphinx's
    autodoc, split into packages in 2025, made notes of 2020-2022 count every right
    answer as a miss)."""
    if not rows:
        return rows
    tree = repo.get(rows[-1]["base_commit"]).peel(pygit2.Tree)

    def present(path: str) -> bool:
        try:
            tree[path]
        except KeyError:
            return False
        return True

    return [r for r in rows[:-1] if present(r["gold_nontest_files"][0])] + rows[-1:]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror", type=Path, required=True, help="a git dir (fetch's .../repo)")
    ap.add_argument("--repo", required=True, help="owner/name, as issue_lab.py finds its mirror")
    ap.add_argument("--since", default="2021-01-01", help="ISO date: commits from then on")
    ap.add_argument("--fragments", action="store_true", help="towncrier fragments are the notes")
    ap.add_argument("--changelog", help="regex of the changelog file's path (whole path)")
    ap.add_argument("--subjects", action="store_true",
                    help="commit subjects are the notes (a task as a developer names it)")
    ap.add_argument("--every", type=int, default=1, help="keep every Nth instance")
    ap.add_argument("--max", type=int, default=0, help="at most this many (0: all)")
    ap.add_argument("--snapshot-at", type=int, default=0,
                    help="keep the first N instances (oldest first) whose gold file is still at "
                         "the Nth's base commit, ordered so that commit is the set's last "
                         "(issue_lab.py --snapshot then asks each of them there: one index, "
                         "with the model, instead of one per note)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if not (args.fragments or args.changelog or args.subjects):
        ap.error("give --fragments, --changelog or --subjects")
    since = datetime.fromisoformat(args.since).replace(tzinfo=timezone.utc)
    rows = build(pygit2.Repository(str(args.mirror)), args.repo, since, args.fragments,
                 re.compile(args.changelog) if args.changelog else None,
                 args.subjects)[::args.every]
    rows = rows[:args.max] if args.max else rows
    if args.snapshot_at:
        rows = at_snapshot(pygit2.Repository(str(args.mirror)), rows[:args.snapshot_at])
    args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{len(rows)} instances -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
