"""Callers of JavaScript functions named by where they are stored
(``parse/queries/javascript/stored.scm``), end to end on a real git fixture shaped like axios's
``lib/``: an anonymous default-exported arrow function (``lib/helpers/resolveConfig.js``),
a default-exported object's method (``adapters.getAdapter``) and a property assignment
(``AxiosError.from``), each imported by default and called from another file. Before, none
was a symbol: a default import resolved to a module lacking it, and the call was left out
as a call on another type."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from coderecalld.daemon import Daemon
from conformance_cases import indexed, symbols

FILES = {
    "lib/helpers/resolveConfig.js": """import mergeConfig from '../core/mergeConfig.js';

export default (config) => {
  const merged = mergeConfig({}, config);
  return merged;
};
""",
    "lib/core/mergeConfig.js": """export default function mergeConfig(a, b) {
  return Object.assign({}, a, b);
}
""",
    "lib/adapters/xhr.js": """import resolveConfig from './../helpers/resolveConfig.js';

export default function xhrAdapter(config) {
  const own = resolveConfig(config);
  return own.url;
}
""",
    "lib/adapters/adapters.js": """import AxiosError from '../core/AxiosError.js';

export default {
  getAdapter: (names) => {
    if (!names) {
      throw new AxiosError('no adapter');
    }
    return names[0];
  },
};
""",
    "lib/core/AxiosError.js": """function AxiosError(message) {
  this.message = message;
}

AxiosError.from = (error) => {
  return new AxiosError(error.message);
};

export default AxiosError;
""",
    "lib/core/dispatchRequest.js": """import adapters from '../adapters/adapters.js';
import AxiosError from './AxiosError.js';

export default function dispatchRequest(config) {
  try {
    const adapter = adapters.getAdapter(config.adapter);
    return adapter(config);
  } catch (err) {
    throw AxiosError.from(err);
  }
}
""",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("jsstored"), FILES) as d:
        yield d


def sites(running: Daemon, name: str) -> list[tuple[str, int, str, str, str]]:
    omitted: dict[str, int] = {}
    found = sorted((h.path, h.line, h.caller, h.target, h.confidence)
                   for h in running.service.find_callers(name, limit=100, omitted=omitted))
    assert not omitted.get("other_type")
    return found


def test_an_anonymous_default_export_is_a_symbol_named_after_its_file(daemon: Daemon) -> None:
    assert symbols(daemon, "fx", "resolveConfig") == [
        ("lib/helpers/resolveConfig.js", "resolveConfig", "function", 3, 6)]
    assert symbols(daemon, "fx", "adapters.getAdapter") == [
        ("lib/adapters/adapters.js", "adapters.getAdapter", "method", 4, 9)]
    assert symbols(daemon, "fx", "AxiosError.from") == [
        ("lib/core/AxiosError.js", "AxiosError.from", "method", 5, 7)]


def test_a_default_import_call_reaches_the_anonymous_default_export(daemon: Daemon) -> None:
    xhr = [("lib/adapters/xhr.js", 4, "xhrAdapter", "lib/helpers/resolveConfig.default", "resolved")]
    assert sites(daemon, "lib/helpers/resolveConfig.resolveConfig") == xhr
    assert sites(daemon, "resolveConfig") == xhr
    # and its own calls are callees like any function's
    callees = [(h.callee, h.target, h.confidence)
               for h in daemon.service.find_callees("lib/helpers/resolveConfig.resolveConfig", limit=10)]
    assert callees == [("mergeConfig", "lib/core/mergeConfig.default", "resolved")]


def test_object_members_and_property_assignments_have_their_callers(daemon: Daemon) -> None:
    assert sites(daemon, "adapters.getAdapter") == [
        ("lib/core/dispatchRequest.js", 6, "dispatchRequest", "lib/adapters/adapters.default.getAdapter",
         "resolved")]
    assert sites(daemon, "lib/core/AxiosError.AxiosError.from") == [
        ("lib/core/dispatchRequest.js", 9, "dispatchRequest", "lib/core/AxiosError.default.from", "resolved")]
