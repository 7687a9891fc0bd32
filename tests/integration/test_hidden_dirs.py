"""Definitions under a hidden directory (``.github/``) never break the callers graph:
pydantic's ``.github/actions/people/people.py`` was module ``.github.actions.people.people``,
and ``impact model_validate`` failed whole ("find fq_name: empty value"), as did ``card`` of
its functions (a newcomer). A Python file there is named with an underscore for the leading dots (``_github..``); a JS
module keeps its path (what relative imports resolve to) and is a leaf of an impact tree
when its name cannot be asked by. Real git fixture, real daemon."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": '''def model_validate(data):
    return dict(data)


def run(data):
    return model_validate(data)
''',
    ".github/actions/people/people.py": '''from pkg.core import model_validate


def get_edges(data):
    return model_validate(data)


def main():
    return get_edges({})
''',
    "lib/merge.js": """function merge(a, b) {
  return Object.assign({}, a, b);
}

module.exports = merge;
""",
    ".github/scripts/notify.js": """const merge = require('../../lib/merge');

function notify(config) {
  return merge({}, config);
}

module.exports = notify;
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("hidden"), FILES) as d:
        yield d


def test_impact_and_card_reach_a_hidden_directorys_python(running: Daemon) -> None:
    tree = running.service.analyze_impact("model_validate", depth=3)
    rows = sorted((n.site.path, n.site.caller, [c.site.caller for c in n.children]) for n in tree.callers)
    assert rows == [(".github/actions/people/people.py", "get_edges", ["main"]), ("pkg/core.py", "run", [])]
    card = running.service.get_card("get_edges")
    assert (card.path, card.module, card.callers_total) == (".github/actions/people/people.py",
                                                           "_github.actions.people.people", 1)
    assert caller_rows(running, "_github.actions.people.people.get_edges") == [
        (".github/actions/people/people.py", 9, "main", "resolved")]


def test_a_hidden_directorys_js_caller_is_a_leaf(running: Daemon) -> None:
    tree = running.service.analyze_impact("merge", depth=3)
    assert [(n.site.path, n.site.caller, n.children) for n in tree.callers] == [
        (".github/scripts/notify.js", "notify", ())]
    card = running.service.get_card("notify")
    assert card.path == ".github/scripts/notify.js"
