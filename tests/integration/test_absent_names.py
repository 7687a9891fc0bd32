"""A short text naming code that no indexed chunk holds says so: "FluxCapacitor no longer
works" (a report, ranked by its words alone on a scale no score floor judges) answered
flask's ``AppGroup.group`` at 0.13 with no note, and "FLUX_CAPACITOR_MODE no longer works"
likewise (two newcomers). A name the code holds, or a dotted one (its parts are terms of
their own), raises no such note. A real git fixture and the real embedded store, sparse
side only."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderecalld.query import service
from conformance_cases import indexed

FILES = {
    "app/cli.py": '''\
class AppGroup:
    """A group of commands that work with the application."""

    def group(self, *args, **kwargs):
        """Make a group of commands; each works with the app."""
        return args, kwargs

    def command(self, *args, **kwargs):
        """A command that works with the app, no longer without it."""
        return args, kwargs
''',
}


def test_a_report_naming_code_that_is_not_indexed_is_low(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with indexed(tmp_path, FILES) as d:
        missing = d.service.search("FluxCapacitor no longer works", limit=3, repo="fx")
        shouting = d.service.search("FLUX_CAPACITOR_MODE no longer works with groups", limit=3, repo="fx")
        held = d.service.search("AppGroup no longer works", limit=3, repo="fx")
        dotted = d.service.search("app.flux_capacitor no longer works", limit=3, repo="fx")
        acronym = d.service.search("how do the app's URLs work with groups", limit=3, repo="fx")
        plural = d.service.search("how do AppGroups make a group", limit=3, repo="fx")
        monkeypatch.setattr(service, "ABSENT_TEXT_NAMES", False)
        before = d.service.search("FluxCapacitor no longer works", limit=3, repo="fx")
    assert missing and missing[0].qualified_name.startswith("AppGroup")
    assert (missing.low_confidence, missing.confidence_reason) == (
        True, "no indexed chunk holds 'FluxCapacitor': these hits match the query's other words")
    assert shouting.confidence_reason == (
        "no indexed chunk holds 'FLUX_CAPACITOR_MODE': these hits match the query's other words")
    # a plural of a held name is no absent one (a review: "how are InvalidSpecifiers reported")
    assert all("holds" not in page.confidence_reason for page in (held, dotted, acronym, plural))
    assert before.low_confidence is False  # the report's scale: no floor judged it
