"""A JavaScript function a chained assignment binds to two names is one function:
express's ``res.set = res.header = function header(field, val)`` made two symbols, and
``callers res.set`` left out the five ``res.header(..)`` calls of its tests (a newcomer).
Each name's callers are the calls written with either (``resolve.js_chained_aliases``); a
function that only ends on the same line is not another name. Real git fixture, real
daemon; each site asserted by (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "lib/response.js": """var res = Object.create(null);

res.set =
res.header = function header(field, val) {
  return this;
};

res.contentType =
  res.type = function contentType(type) {
  return this.set('Content-Type', type);
};

res.json = function json(obj) {
  this.header('X-Json', '1');
  return this.type('application/json');
};

res.vary = function vary(field) { return field; }; res.append = function append(f) { return f; };

module.exports = res;
""",
    "lib/helpers.js": """var util = require('util');

exports.pick = exports.choose = function pick(list) {
  return list[0];
};
""",
    "lib/render.js": """export default function render(x) {
  return x;
}

export function helper(y) {
  return y;
}

export { helper as bar };
""",
    "lib/use.js": """function go(thing, o) {
  thing.default(1);
  return o.bar(2);
}
""",
    "test/res.set.js": """var res = require('../lib/response');
var helpers = require('../lib/helpers');
var app = require('../lib/app');

app.get('/', function handler(req, reply) {
  reply.set('a', 'b');
  reply.header('c', 'd');
  reply.vary('e');
  return helpers.choose([1]);
});
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("chained"), FILES) as d:
        yield d


def test_either_name_of_a_chained_assignment_has_the_calls_of_both(running: Daemon) -> None:
    both = [("lib/response.js", 10, "res.type", "resolved"),  # this.set(..)
            ("lib/response.js", 14, "res.json", "resolved"),  # this.header(..)
            ("test/res.set.js", 6, "handler", "name_only"),  # reply.set(..): an untyped parameter
            ("test/res.set.js", 7, "handler", "name_only")]  # reply.header(..)
    assert caller_rows(running, "res.set") == both
    assert caller_rows(running, "res.header") == both
    assert caller_rows(running, "res.type") == [("lib/response.js", 15, "res.json", "resolved")]
    assert caller_rows(running, "res.contentType") == [("lib/response.js", 15, "res.json", "resolved")]
    # exported under two names, called through the required module under the second
    assert caller_rows(running, "pick") == [("test/res.set.js", 9, "handler", "resolved")]
    assert caller_rows(running, "choose") == [("test/res.set.js", 9, "handler", "resolved")]


def test_functions_ending_on_one_line_are_not_aliases(running: Daemon) -> None:
    assert caller_rows(running, "res.vary") == [("test/res.set.js", 8, "handler", "name_only")]
    assert caller_rows(running, "res.append") == []


def test_a_modules_own_reexport_names_are_no_other_names_of_a_function(running: Daemon) -> None:
    """A review: ``export default render`` and ``export { helper as bar }`` made every
    untyped ``thing.default(..)`` and ``o.bar(..)`` a candidate caller: only a member's
    chained names are other names its untyped calls may be written with."""
    assert caller_rows(running, "render") == []
    assert caller_rows(running, "helper") == []
