"""An environment report pasted with an issue (a test runner's session header) locates no
file (``shape._REPORT``), end to end on a real git fixture and the real embedded store
(sparse side: issues are ranked lexical-first). The header's words are a test runner's own
vocabulary (``session``, ``collected``, ``items``, ``plugins``, ``rootdir``): read as code,
they put the module defining ``Session`` in the answer; pytest's notes with such a header
lost locate file@1 61.7 -> 25.8 (docs/retrieval.md "Environment reports in an issue")."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderecalld.query import shape
from conformance_cases import indexed

FILES = {
    "pkg/capture.py": '''\
class LogCapture:
    """Records of the log messages a test emits."""

    def get_records(self, when):
        return self._records[when]

    def clear(self):
        """Drop the captured records."""
        self._records = {}
''',
    "pkg/session.py": '''\
class Session:
    """A test session: the collected items, the plugins, the rootdir and the platform."""

    def collect(self, rootdir, configfile):
        """Collect the items under rootdir with the plugins of configfile."""
        return [item for item in self.plugins.collect(rootdir)]

    def report_header(self, platform, plugins):
        return f"platform {platform} -- plugins: {plugins}"
''',
}

ISSUE = '''get_records and clear disagree
After `clear()` the list `get_records("call")` returns still holds the old records.

```
============================= test session starts ==============================
platform linux -- Python 3.10.12, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/user/project
configfile: pyproject.toml
plugins: cov-4.1.0, xdist-3.3.1
collected 12 items
```
'''


def test_a_pasted_session_header_locates_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with indexed(tmp_path, FILES) as running:
        located = running.service.locate(ISSUE, limit=5, repo="fx")
        assert located.shape == "issue"
        assert [f.path for f in located.files] == ["pkg/capture.py"]
        assert [f.qualified_name for f in located.files[0].functions][:1] == ["LogCapture.get_records"]
        hits = running.service.search(ISSUE, limit=5, repo="fx")
        assert {h.path for h in hits} == {"pkg/capture.py"}
        # read as code, the header's words found the session module
        monkeypatch.setattr(shape, "DROP_REPORTS", False)
        assert [f.path for f in running.service.locate(ISSUE, limit=5, repo="fx").files] == [
            "pkg/capture.py", "pkg/session.py"]
