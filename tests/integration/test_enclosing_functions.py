"""A question's page names the function enclosing a nested one it holds (``service.
_with_enclosing``): axios's 136-line ``Axios._request`` chains its interceptors in two
nested callbacks at its end, past the source the model reads of it; the callbacks ranked
1 and 2 for "how are the request and response interceptors chained", ``_request`` not
in the first 60. Real git fixture, real embedded store (lexical: the rule is the same)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import service
from conformance_cases import indexed

# Setup code long enough that the nested callbacks start past the 2,000 characters of
# ``_request`` an embedding reads (``service.EMBED_TEXT_CHARS``).
_SETUP = "".join(f"    config.option{i} = merge(defaults.option{i}, config.option{i}, 'setting {i}');\n"
                 for i in range(40))

AXIOS = f'''\
export class Axios {{
  constructor(instanceConfig) {{
    this.defaults = instanceConfig;
  }}

  _request(configOrUrl, config) {{
{_SETUP}
    const requestInterceptorChain = [];
    this.interceptors.request.forEach(function unshiftRequestInterceptors(interceptor) {{
      requestInterceptorChain.unshift(interceptor.fulfilled, interceptor.rejected);
    }});
    const responseInterceptorChain = [];
    this.interceptors.response.forEach(function pushResponseInterceptors(interceptor) {{
      responseInterceptorChain.push(interceptor.fulfilled, interceptor.rejected);
    }});
    return dispatch(requestInterceptorChain, responseInterceptorChain);
  }}
}}
'''

# A short function: its nested callback lies within the source the model read of it.
SHORT = '''\
export function register(app, name) {
  app.blueprints.forEach(function checkUniqueName(blueprint) {
    if (blueprint.name === name) throw new Error('a blueprint with this unique name is registered');
  });
}
'''

# An overload's stub shares the implementation's name; the nested function is the
# implementation's.
PROMPT = '''\
import typing as t


@t.overload
def prompt(text: str) -> str: ...


@t.overload
def prompt(text: str, hide: bool) -> str: ...


def prompt(text, hide=False):
''' + "".join(f"    option_{i} = read_setting('prompt option {i}', text, hide)\n" for i in range(40)) + '''
    def prompt_func(text):
        """Read the hidden password input from the terminal, masked, never echoed."""
        return getpass_masked_password_terminal(text)

    return prompt_func(text)
'''

FILES = {"lib/core/Axios.js": AXIOS, "lib/register.js": SHORT, "src/termui.py": PROMPT,
         "lib/interceptors.js": '''\
export function interceptorsOf(manager) {
  return manager.handlers;
}
'''}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("enclosing"), FILES) as running:
        yield running


def _page(daemon: Daemon, query: str) -> list[tuple[str, str]]:
    return [(h.qualified_name, h.match) for h in daemon.service.search(query, limit=6, repo="fx")]


def test_the_enclosing_function_follows_its_nested_callback(daemon: Daemon) -> None:
    page = _page(daemon, "how are the request and response interceptor chains built with unshift and push")
    names = [n for n, _ in page]
    first = min(names.index("Axios._request.pushResponseInterceptors"),
                names.index("Axios._request.unshiftRequestInterceptors"))
    assert page[first + 1] == ("Axios._request", "enclosing")
    assert names.count("Axios._request") == 1
    hit = next(h for h in daemon.service.search("how are the request and response interceptor "
                                                "chains built with unshift and push", limit=6, repo="fx")
               if h.qualified_name == "Axios._request")
    assert (hit.start_line, hit.end_line) == (6, 57)


def test_without_the_rule_the_enclosing_function_ranks_below(daemon: Daemon,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The fault the rule mends: lexically too, the long function falls below its callbacks
    and the other file's function."""
    monkeypatch.setattr(service, "ENCLOSING_SHAPES", frozenset())
    page = _page(daemon, "how are the request and response interceptor chains built with unshift and push")
    names = [n for n, _ in page]
    assert names[:2] in (["Axios._request.pushResponseInterceptors", "Axios._request.unshiftRequestInterceptors"],
                         ["Axios._request.unshiftRequestInterceptors", "Axios._request.pushResponseInterceptors"])
    assert "enclosing" not in {m for _, m in page}


def test_a_short_enclosing_function_is_not_placed(daemon: Daemon) -> None:
    """The model read all of ``register``: its own rank stands."""
    page = _page(daemon, "what happens when a blueprint with the same unique name is registered")
    assert page[0][0] == "register.checkUniqueName"
    assert "enclosing" not in {m for _, m in page}


def test_the_implementation_encloses_not_an_overloads_stub(daemon: Daemon) -> None:
    hits = daemon.service.search("how is the hidden password input read masked from the terminal",
                                 limit=6, repo="fx")
    at = [h.qualified_name for h in hits].index("prompt.prompt_func")
    outer = hits[at + 1]
    assert (outer.qualified_name, outer.match, outer.start_line) == ("prompt", "enclosing", 12)
    assert outer.end_line == 58


def test_an_identifier_query_places_no_enclosing_function(daemon: Daemon) -> None:
    page = _page(daemon, "pushResponseInterceptors")
    assert page[0] == ("Axios._request.pushResponseInterceptors", "exact")
    assert "enclosing" not in {m for _, m in page}


def test_locate_lists_the_enclosing_function_after_its_callback(daemon: Daemon) -> None:
    """``locate`` read no parent or byte range of its candidates, and looked the enclosing
    function up among them only: it never listed it."""
    files = daemon.service.locate("how are the request and response interceptor chains built with unshift and push",
                                  limit=2, repo="fx").files
    assert files[0].path == "lib/core/Axios.js"
    names = [f.qualified_name for f in files[0].functions]
    first = min(names.index("Axios._request.pushResponseInterceptors"),
                names.index("Axios._request.unshiftRequestInterceptors"))
    assert names[first + 1] == "Axios._request"
    assert (files[0].functions[first + 1].start_line, files[0].functions[first + 1].end_line) == (6, 57)
