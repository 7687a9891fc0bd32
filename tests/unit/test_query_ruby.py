"""query/ruby.py: the constant a Ruby call is made on (rack's ``Rack::Utils.parse_query``)."""

from __future__ import annotations

import pytest

from coderecalld.query import ruby


@pytest.mark.parametrize(("written", "expected"), [
    ("Rack.Utils.parse_query", "Rack.Utils"),  # Rack::Utils.parse_query(..)
    ("MediaType.params", "MediaType"),
    ("CGI.escape", "CGI"),  # a module named in capitals
    ("URI_PARSER.escape", ""),  # a constant holding an object: its class is unknown
    ("query_parser.parse_query", ""),
    ("self.parse", ""),
    ("escape", ""),
])
def test_the_constant_a_call_is_made_on(written: str, expected: str) -> None:
    assert ruby.constant("ruby", written) == expected
    assert ruby.constant("python", written) == ""


@pytest.mark.parametrize(("name", "instance"), [
    ("Rack::Multipart::Parser#parse", True), ("Parser#parse", True), ("Parser.parse", False),
    ("Rack::Multipart::Parser.parse", False), ("Context.#newResponse", False),
])
def test_the_instance_spelling(name: str, instance: bool) -> None:
    assert ruby.instance_spelling(name) is instance
