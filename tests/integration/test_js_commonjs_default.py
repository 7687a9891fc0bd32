"""CommonJS's default export, as express writes it: ``exports = module.exports =
createApplication`` in ``lib/express.js``, ``module.exports = require('./lib/express')`` in
the root ``index.js``, and tests calling ``var express = require('../'); express()``:
``callers createApplication`` answered none of its 653 calls (a newcomer). Each site is
asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "package.json": '{"name": "express", "main": "index.js"}\n',
    "index.js": "'use strict';\n\nmodule.exports = require('./lib/express');\n",
    "lib/express.js": """'use strict';

var proto = require('./application');

exports = module.exports = createApplication;

function createApplication() {
  var app = function (req, res, next) {};
  return app;
}
""",
    "lib/application.js": """var app = exports = module.exports = {};

app.set = function set(setting, val) {
  return this;
};

app.enable = function enable(setting) {
  return this.set(setting, true);
};
""",
    "lib/response.js": """var res = Object.create(http.ServerResponse.prototype);
module.exports = res;

res.set = function set(field, val) {
  return this;
};

res.type = function type(t) {
  return this.set('Content-Type', t);
};
""",
    "test/app.js": """var express = require('../');

describe('app', function () {
  it('should inherit from event emitter', function () {
    var app = express();
    app.set('x', 1);
  })
})
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("commonjs"), FILES) as d:
        yield d


def test_calling_a_required_module_calls_its_commonjs_default(running: Daemon) -> None:
    assert caller_rows(running, "createApplication") == [
        ("test/app.js", 5, "app.should inherit from event emitter", "resolved")]


def test_this_calls_of_an_objects_methods_are_that_objects_and_no_others(running: Daemon) -> None:
    """express: ``this.set(..)`` in ``app`` methods is ``app.set``'s, in ``res`` methods
    ``res.set``'s; the ``res`` ones were name-only callers of ``app.set`` too (``res`` is a
    module's value of no stated type) though resolved to another definition."""
    assert caller_rows(running, "app.set") == [
        ("lib/application.js", 8, "app.enable", "resolved"),
        ("test/app.js", 6, "app.should inherit from event emitter", "name_only")]
    assert caller_rows(running, "res.set") == [
        ("lib/response.js", 9, "res.type", "resolved"),
        ("test/app.js", 6, "app.should inherit from event emitter", "name_only")]  # an unknown `app`
