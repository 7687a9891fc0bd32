"""``[logging]``: a real ``coderecalld index`` run's stderr in JSON mode is one object per
line, the run's end event carries repo, commit and duration_s; ``level = "warning"`` (or
``CODERECALL_LOGGING__LEVEL``) keeps only warnings and errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gitfixtures import GitRepo


def run_index(cfg: Path, **env: str) -> tuple[int, list[dict]]:
    proc = subprocess.run([sys.executable, "-m", "coderecalld.cli", "index", "--config", str(cfg), "--no-embed"],
                          capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **env})
    return proc.returncode, [json.loads(line) for line in proc.stderr.decode().splitlines()]


def write(tmp_path: Path, src: Path, logging: str) -> Path:
    cfg = tmp_path / "coderecall.toml"
    cfg.write_text(f'data_dir = "{tmp_path / "data"}"\n[logging]\n{logging}\n'
                   f'[[repos]]\nname = "app"\nurl = "{src}"\n'
                   f'[[repos]]\nname = "gone"\nurl = "{tmp_path / "missing"}"\n', encoding="utf-8")
    return cfg


def test_json_lines_with_fixed_keys(tmp_path: Path) -> None:
    git = GitRepo(tmp_path / "src")
    commit = git.commit({"app.py": "def main():\n    return 0\n"})
    status, records = run_index(write(tmp_path, git.path, 'format = "json"'))
    assert status == 1  # "gone" failed
    assert all({"ts", "level", "event"} <= set(r) for r in records)
    (done,) = [r for r in records if r["event"] == "index.repo_done"]
    assert (done["repo"], done["commit"], done["state"], done["files"], done["level"]) == (
        "app", commit, "ready", 1, "info")
    assert isinstance(done["duration_s"], float) and done["duration_s"] > 0
    (failed,) = [r for r in records if r["event"] == "index.repo_failed"]
    assert (failed["repo"], failed["level"]) == ("gone", "error")


def test_skipped_text_files_are_named_with_their_reason(tmp_path: Path) -> None:
    """A Python file that is not UTF-8 (a latin-1 coding line) is skipped, and the log says
    which and why; a binary file is only counted."""
    git = GitRepo(tmp_path / "src")
    git.commit({"app.py": "def main():\n    return 0\n",
                "legacy.py": "# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n".encode("latin-1"),
                "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64)})
    _, records = run_index(write(tmp_path, git.path, 'format = "json"'))
    skipped = [(r["repo"], r["path"], r["reason"], r["detail"]) for r in records if r["event"] == "index.file_skipped"]
    offset = len("# -*- coding: latin-1 -*-\nname = 'caf")  # the é, 0-based
    assert skipped == [("app", "legacy.py", "encoding", f"not UTF-8 at byte {offset}")]


def test_level_warning_keeps_only_warnings_and_errors(tmp_path: Path) -> None:
    git = GitRepo(tmp_path / "src")
    git.commit({"app.py": "def main():\n    return 0\n"})
    cfg = write(tmp_path, git.path, 'format = "json"\nlevel = "warning"')
    status, records = run_index(cfg)
    assert [(r["event"], r["level"]) for r in records] == [("index.repo_failed", "error")]
    cfg = write(tmp_path, git.path, 'format = "json"')
    _, records = run_index(cfg, CODERECALL_LOGGING__LEVEL="error")
    assert [r["event"] for r in records] == ["index.repo_failed"]
    _, records = run_index(cfg, CODERECALL_LOGGING__LEVEL="debug")
    assert "daemon.opened" in [r["event"] for r in records]
