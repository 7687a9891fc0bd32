"""Which paths of a repo are indexed (issue 4 item 2): per-repo ``include``/``exclude`` globs,
the default skip of vendored trees, and submodules recorded but never followed."""

from __future__ import annotations

from pathlib import Path

from conformance_cases import daemon, indexed_paths, stored_paths
from gitfixtures import GitRepo

from coderecalld.config import IndexConfig, RepoConfig
from coderecalld.records import FileState

FILES = {
    "src/app.py": "def handler():\n    return 1\n",
    "docs/conf.py": "project = 'x'\n",
    "tools/build.py": "def main():\n    pass\n",
    "node_modules/left-pad/index.js": "module.exports = function leftPad() {}\n",
    "web/node_modules/react/index.js": "export function render() {}\n",
    "third_party/zlib/z.py": "def deflate():\n    pass\n",
    "pkg/vendor/github.com/x/y.go": "package y\nfunc Y() {}\n",
    ".venv/lib/site.py": "def site():\n    pass\n",
}
OWN = {"src/app.py", "docs/conf.py", "tools/build.py"}
SUB_A = "a" * 40
SUB_B = "b" * 40


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "src-repo")
    repo.commit(FILES)
    return repo


def test_vendored_trees_are_skipped_by_default_and_per_repo_globs_apply(tmp_path: Path) -> None:
    src = _repo(tmp_path)
    repos = (RepoConfig("all", str(src.path)),
             RepoConfig("only-src", str(src.path), include=("src/**",)),
             RepoConfig("no-docs", str(src.path), exclude=("docs/**",)),
             RepoConfig("vendor-too", str(src.path), include=("**/node_modules/**",)))
    with daemon(tmp_path, *repos, skip_vendored=True) as running:
        for r in repos:
            running.jobs.run_now(r.name)
        assert indexed_paths(running, "all") == OWN
        assert indexed_paths(running, "only-src") == {"src/app.py"}
        assert indexed_paths(running, "no-docs") == OWN - {"docs/conf.py"}
        # include narrows; it never brings back what the vendored default skips
        assert indexed_paths(running, "vendor-too") == set()
        assert stored_paths(running, "all") == OWN
        assert [h.repo for h in running.service.find_symbols("handler")] == ["all", "no-docs", "only-src"]
        assert running.service.find_symbols("leftPad") == []


def test_vendored_default_can_be_turned_off(tmp_path: Path) -> None:
    src = _repo(tmp_path)
    with daemon(tmp_path, RepoConfig("all", str(src.path)), skip_vendored=False) as running:
        running.jobs.run_now("all")
        assert indexed_paths(running, "all") == set(FILES)


def test_a_file_moved_into_a_vendored_tree_leaves_no_point(tmp_path: Path) -> None:
    src = _repo(tmp_path)
    with daemon(tmp_path, RepoConfig("r", str(src.path)), skip_vendored=True) as running:
        running.jobs.run_now("r")
        src.commit({"src/app.py": None, "third_party/app/app.py": FILES["src/app.py"]})
        report = running.jobs.run_now("r")
        assert report.files_deleted == 1
        assert stored_paths(running, "r") == {"docs/conf.py", "tools/build.py"}
        assert running.service.find_symbols("handler") == []


def test_submodules_are_recorded_not_followed(tmp_path: Path) -> None:
    src = GitRepo(tmp_path / "with-subs")
    src.link_submodule("libs/core", SUB_A)       # configured in .gitmodules
    src.link_submodule("libs/orphan", SUB_B)     # .gitmodules has no entry: still not fatal
    src.commit({"main.py": "def run():\n    pass\n",
                ".gitmodules": '[submodule "core"]\n\tpath = libs/core\n\turl = https://example.invalid/core.git\n'})
    with daemon(tmp_path, RepoConfig("r", str(src.path))) as running:
        report = running.jobs.run_now("r")
        assert report.state == "ready" and report.skipped_reasons["submodule"] == 2
        rows = {row.path: row for row in running.ledger.files("r", FileState.SKIPPED)}
        assert {(p, r.blob_id, r.reason, r.detail) for p, r in rows.items() if r.reason == "submodule"} == {
            ("libs/core", SUB_A, "submodule", "url=https://example.invalid/core.git"),
            ("libs/orphan", SUB_B, "submodule", "no .gitmodules entry"),
        }
        assert stored_paths(running, "r") == {"main.py"}  # .gitmodules is not code
        # A re-run with nothing changed does nothing; moving the pin updates the record.
        assert running.jobs.run_now("r").files_changed == 0
        src.link_submodule("libs/core", SUB_B)
        src.commit({})
        again = running.jobs.run_now("r")
        assert (again.files_changed, again.skipped_reasons["submodule"]) == (0, 1)
        assert running.ledger.file("r", "libs/core").blob_id == SUB_B
