"""A long function is cut into part chunks (``index/chunk.py``: ``name``, ``name#part2``,
...) for the model's window; answers name the function once: ``search`` collapses the
parts after a chunk of the same function (``service._collapse_parts``), ``symbols`` lists
no part. Real git fixture, real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.store import StoreFilter
from conformance_cases import indexed

# 3 x 150 lines: a function of three parts, each holding the words of a route lookup.
_BODY = "\n".join(f"    route_value_{i} = lookup_route_value(path, {i})  # route value lookup {i}"
                  for i in range(450))
FILES = {
    "router/tree.py": f'''\
def get_route_value(path):
    """Look up the route value of a path in the route tree."""
{_BODY}
    return normalise_route(route_value_449)


def normalise_route(value):
    """A route value, normalised."""
    return value.strip("/")
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("parts"), FILES) as running:
        yield running


def test_the_index_cuts_the_long_function_into_parts(daemon: Daemon) -> None:
    names = {h.payload["qualified_name"] for h in daemon.store.find(
        StoreFilter(repos=("fx",)), "path", "router/tree.py", limit=100)}
    assert {"get_route_value", "get_route_value#part2", "get_route_value#part3"} <= names


@pytest.mark.parametrize("query", ["get_route_value", "route value lookup of a path"])
def test_search_answers_a_long_function_once(daemon: Daemon, query: str) -> None:
    hits = daemon.service.search(query, limit=5, repo="fx")
    functions = [h.qualified_name.split("#")[0] for h in hits if h.kind == "function"]
    assert functions.count("get_route_value") == 1
    assert "normalise_route" in functions  # the page is filled past the collapsed parts


def test_symbols_list_no_part(daemon: Daemon) -> None:
    """Not by name, nor by prefix (``get_route_value#part2`` starts with it)."""
    for prefix in (False, True):
        found = [(h.qualified_name, h.start_line) for h in daemon.service.find_symbols(
            "get_route", repo="fx", prefix=True)] if prefix else [
            (h.qualified_name, h.start_line) for h in daemon.service.find_symbols("get_route_value", repo="fx")]
        assert found == [("get_route_value", 1)]


JS_FILES = {
    "lib/request.js": '''\
var req = exports = module.exports = {};

/**
 * Return the value of a request header field.
 */
req.get =
req.header = function header(name) {
  var lc = name.toLowerCase();
  return this.headers[lc];
};

/**
 * Check whether the request header content type matches the types.
 */
req.is = function is(types) {
  return typeis(this, types);
};
''',
}


def test_a_parts_name_from_a_hit_names_its_function(daemon: Daemon) -> None:
    """A search hit may be a part (``plot_violins#part2``): `card`, `symbols` and
    `callees` on that name answer the function (`card` said no symbol had it; a newcomer)."""
    assert daemon.service.get_card("get_route_value#part2", repo="fx").qualified_name == "get_route_value"
    assert [h.qualified_name for h in daemon.service.find_symbols("get_route_value#part3", repo="fx")] == [
        "get_route_value"]
    assert daemon.service.find_callees("get_route_value#part2", repo="fx", limit=500)[-1].callee == "normalise_route"


@pytest.fixture(scope="module")
def chained(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("chain"), JS_FILES) as running:
        yield running


def test_search_answers_the_names_of_an_assignment_chain_once(chained: Daemon) -> None:
    """``req.get = req.header = function header``: two symbols of one function; a page
    lists it once, an exact name still finds either, and both are symbols."""
    hits = chained.service.search("value of a request header field", limit=5, repo="fx")
    names = [h.qualified_name for h in hits if h.kind == "method"]
    assert len({"req.get", "req.header"} & set(names)) == 1
    assert "req.is" in names
    for name in ("req.get", "req.header"):
        assert chained.service.search(name, limit=3, repo="fx")[0].qualified_name == name
        assert [h.qualified_name for h in chained.service.find_symbols(name, repo="fx")] == [name]


def test_a_ruby_method_named_like_a_part_is_found_as_written(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Ruby's ``Day1#part2`` is a method (Advent of Code's names), not a long function's
    part: found as written, the part rule only when nothing is (a review)."""
    files = {"rb/day1.rb": "class Day1\n  def part1\n    1\n  end\n\n  def part2\n    part1 + 1\n  end\nend\n"}
    with indexed(tmp_path_factory.mktemp("ruby"), files) as d:
        found = [(h.qualified_name, h.start_line) for h in d.service.find_symbols("Day1#part2", repo="fx")]
        callees = [(c.callee, c.target) for c in d.service.find_callees("Day1#part2", repo="fx")]
    assert found == [("Day1.part2", 6)]
    assert callees == [("part1", "Day1.part1")]
