"""An error line pasted alone locates the file raising the exception, not the file defining
it: requests' ``requests.exceptions.TooManyRedirects: Exceeded 30 redirects.`` (and the line
without its module) located ``exceptions.py`` first, its two-line class the best chunk on
the exception's name and its module named by the qualifier (a newcomer). A real git
fixture and the real embedded store, sparse side only."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance_cases import indexed

FILES = {
    "requests/exceptions.py": '''\
class RequestException(IOError):
    """There was an ambiguous exception that occurred while handling your request."""


class TooManyRedirects(RequestException):
    """Too many redirects."""


class MissingSchema(RequestException, ValueError):
    """The URL scheme (e.g. http or https) is missing."""
''',
    "requests/sessions.py": '''\
from requests.exceptions import TooManyRedirects


class SessionRedirectMixin:
    def resolve_redirects(self, resp, req, max_redirects=30):
        """Receives a Response. Returns a generator of Responses or Requests."""
        hist = []
        while resp.is_redirect:
            hist.append(resp)
            if len(hist) >= max_redirects:
                raise TooManyRedirects(f"Exceeded {max_redirects} redirects.", response=resp)
            resp = self.send(req)
        return hist
''',
}


@pytest.mark.parametrize("line", ["requests.exceptions.TooManyRedirects: Exceeded 30 redirects.",
                                  "TooManyRedirects: Exceeded 30 redirects."])
def test_an_error_line_locates_the_raise_not_the_definition(tmp_path: Path, line: str) -> None:
    with indexed(tmp_path, FILES) as d:
        located = d.service.locate(line, limit=2, repo="fx")
        hits = d.service.search(line, limit=2, repo="fx")
    assert located.files[0].path == "requests/sessions.py"
    assert located.files[0].functions[0].qualified_name == "SessionRedirectMixin.resolve_redirects"
    assert hits[0].qualified_name == "SessionRedirectMixin.resolve_redirects"
    # the demoted class is no rival of the first hit for the answer's confidence: it
    # scored the best on the exception's name and flagged right answers "none stands out"
    assert hits.low_confidence is False, hits.confidence_reason
