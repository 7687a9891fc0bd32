"""Method call sites typed by their receivers (index/receivers_java, _js, _go, resolve_kotlin) on real repos.

    python tests/bench/bench_receivers.py <git dir> [<git dir> ...] --out after.json
    python tests/bench/bench_receivers.py <git dir> ... --out after.json --before before.json

Every file of the resolver languages at HEAD of each bare git dir (e.g. the ``fetch`` tool's
github:gin-gonic/gin, github:google/gson, github:sindresorhus/got) goes through the index
stages up to resolve (layout, parse, chunk, resolve; no store, no model); every dotted call
site (``x.m()``, ``this.f.m()``, ``pkg.F()``) is written to ``--out`` as
``"repo path:line name" -> target``. For the figure before a change, run it with that
checkout's ``daemon/`` first on ``PYTHONPATH`` and pass its output as ``--before``: the
report then counts, per language, dotted sites, those with a target before and after, those
newly resolved (no target before: ``name_only`` at query time), and those whose target
changed; and prints ``--sample`` newly resolved sites (seeded) with their source line, to
check by reading.

With ``--callers NAME ...`` it also indexes the repos (each HEAD tree committed to a fresh
git repo: a ``fetch`` snapshot may lack objects the mirror needs; dense vectors off) in a
real daemon and prints, per name, ``find_callers``' sites by label (at most 500, the
request's limit) and ``omitted_other_type``; run it under both checkouts to compare.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]

from coderecalld import parse
from coderecalld.index import chunk, layout, resolve

LANGUAGES = ("java", "javascript", "typescript", "tsx", "go", "kotlin")


def files(git_dir: str) -> dict[str, bytes]:
    """Path -> bytes of every file at HEAD of a bare repo that a resolver language reads
    (``go.mod`` and ``package.json`` too: they name modules)."""
    names = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", "HEAD"],
                           capture_output=True, text=True, check=True).stdout.split("\n")
    keep = [n for n in names if n and (parse.language_for(n) in LANGUAGES or n.endswith(("go.mod", "package.json")))]
    return {n: subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:{n}"], capture_output=True,
                              check=True).stdout for n in keep}


def sites(repo: str, blobs: dict[str, bytes]) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(site key -> target, site key -> language, site key -> source line) of every dotted call."""
    shape = layout.layout(blobs, blobs.__getitem__, lambda p: parse.language_for(p))
    targets, languages, text = {}, {}, {}
    for path, blob in sorted(blobs.items()):
        language = parse.language_for(path)
        if language not in LANGUAGES:
            continue
        parsed = parse.symbols(blob, language)
        found = resolve.chunks(chunk.chunks(repo, path, blob, parsed), parsed, path, shape.module(path),
                               shape.java_dirs, shape.js_aliases(path))
        lines = blob.decode("utf-8", "replace").split("\n")
        for c in found:
            for s in c.call_sites:
                if "." in s.name:
                    key = f"{repo} {path}:{s.line} {s.name}"
                    targets[key], languages[key] = s.target, language
                    text[key] = lines[s.line - 1].strip()[:120] if 0 < s.line <= len(lines) else ""
    return targets, languages, text


def callers(git_dirs: dict[str, str], names: list[str]) -> dict[str, dict[str, int]]:
    """name -> {label: sites, "omitted": calls on another type} over the repos at HEAD."""
    from conformance_cases import daemon
    from coderecalld.config import RepoConfig
    from gitfixtures import GitRepo

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        configs = []
        for repo, git_dir in git_dirs.items():
            blobs = files(git_dir)
            git = GitRepo(Path(tmp) / "git" / repo)
            git.commit(blobs, "import")
            configs.append(RepoConfig(repo, str(git.path)))
        with daemon(Path(tmp), *configs) as d:
            for cfg in configs:
                d.pipeline.index_repo(d.cfg.repo(cfg.name), with_dense=False)
            for name in names:
                omitted: dict[str, int] = {}
                found = d.service.find_callers(name, limit=500, omitted=omitted)
                out[name] = {**Counter(h.confidence for h in found), "omitted": omitted.get("other_type", 0)}
    return out


def _repo_name(git_dir: str) -> str:
    return Path(git_dir).resolve().parent.name if Path(git_dir).name == "repo" else Path(git_dir).name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("git_dirs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--before", help="--out of the same repos under the code before the change")
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--callers", nargs="*", default=[], help="definitions to ask find_callers for")
    args = ap.parse_args()
    if args.callers:
        print(json.dumps(callers({_repo_name(g): g for g in args.git_dirs}, args.callers), indent=1))
    targets, languages, text = {}, {}, {}
    for git_dir in args.git_dirs:
        t, lang, tx = sites(_repo_name(git_dir), files(git_dir))
        targets |= t
        languages |= lang
        text |= tx
    Path(args.out).write_text(json.dumps({"targets": targets, "languages": languages}, indent=0))
    if not args.before:
        print(json.dumps(Counter(languages.values())))
        return
    before = json.loads(Path(args.before).read_text())["targets"]
    report: dict[str, Counter] = {}
    new = []
    for key, target in targets.items():
        row = report.setdefault(languages[key], Counter())
        old = before.get(key, "")
        row["dotted_sites"] += 1
        row["targeted_before"] += bool(old)
        row["targeted_after"] += bool(target)
        row["newly_resolved"] += bool(target and not old)
        row["target_changed"] += bool(target and old and target != old)
        row["target_lost"] += bool(old and not target)
        if target and not old:
            new.append(key)
    print(json.dumps({lang: dict(row) for lang, row in sorted(report.items())}, indent=1))
    for key in sorted(random.Random(20).sample(new, min(args.sample, len(new)))):
        print(f"{key}\n    {text[key]}\n    -> {targets[key]}")
    changed = [k for k, t in targets.items() if t and before.get(k) and t != before[k]]
    for key in changed[: args.sample]:
        print(f"CHANGED {key}: {before[key]} -> {targets[key]}")


if __name__ == "__main__":
    sys.exit(main())
