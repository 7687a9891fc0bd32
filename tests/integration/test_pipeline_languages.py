"""Language selection through the real index path: a script that no file name places is
parsed by the interpreter on its ``#!`` line (the pipeline hands ``language_for`` the blob's
first line)."""

from __future__ import annotations

from pathlib import Path

from conformance_cases import daemon, symbols
from gitfixtures import GitRepo

from coderecalld.config import RepoConfig
from coderecalld.records import FileState, RepoState


def test_shebang_scripts_are_parsed_as_their_interpreter(git_repo: GitRepo, tmp_path: Path) -> None:
    commit = git_repo.commit({
        "bin/deploy": "#!/usr/bin/env bash\n# Ship it.\nship_all() {\n    rsync -a build/ \"$1\"\n}\n",
        "bin/report": "#!/usr/bin/env python3\ndef summarize(rows):\n    return len(rows)\n",
        "bin/notes": "ship_all is not code here\n",
    })
    with daemon(tmp_path, RepoConfig("scripts", str(git_repo.path))) as running:
        report = running.jobs.run_now("scripts")
        assert (report.state, report.commit, report.error) == (RepoState.READY, commit, "")
        assert symbols(running, "scripts", "ship_all") == [("bin/deploy", "ship_all", "function", 3, 5)]
        assert symbols(running, "scripts", "summarize") == [("bin/report", "summarize", "function", 2, 3)]
        (hit,) = running.service.find_symbols("ship_all", repo="scripts")
        assert (hit.language, hit.docstring) == ("bash", "Ship it.")
        rows = {row.path: row for row in running.ledger.files("scripts")}
        assert (rows["bin/notes"].state, rows["bin/notes"].reason) == (FileState.SKIPPED, "unsupported")
