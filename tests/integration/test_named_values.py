"""Constants are symbols (``records.VALUE_KINDS``): ``symbols``, ``card`` and a query naming
one find its definition, and nothing else changes (its line stays in its module's chunk,
which search still reads; it has no embed text of its own). marshmallow's
``VALIDATES_SCHEMA``, its ``DateTime.DESERIALIZATION_FUNCS`` and ky's ``maxSafeTimeout``
were no symbols: ``symbols`` answered nothing and search only the file. Also: a call is
a candidate caller only in a language that can call the definition (a PHP ``new
Stream(..)`` was listed as the caller of Ruby's ``Sinatra::Helpers::Stream``), and a
Ruby name ending in ``!`` is no other name (``start!`` answered ``start``). Real git
fixture, real embedded store."""

from __future__ import annotations

from pathlib import Path

import pytest
from coderecalld.errors import NotFound

from conformance_cases import indexed, symbols

DECORATORS = '''\
"""Decorators for registering schema hooks."""

PRE_DUMP = "pre_dump"
VALIDATES_SCHEMA = "validates_schema"
_ignored = "lowercase names are variables, not constants"


def validates_schema(fn=None, pass_many=False):
    """Register a schema-level validator."""
    return tag(fn, VALIDATES_SCHEMA, pass_many)


class DateTime:
    DESERIALIZATION_FUNCS = {
        "iso": "from_iso_datetime",
        "timestamp": "from_timestamp",
    }

    def _deserialize(self, value):
        return self.DESERIALIZATION_FUNCS["iso"]
'''

CONSTANTS_TS = '''\
export const maxSafeTimeout = 2_147_483_647;
export const supportedMethods = ['get', 'post'] as const;
export const stop = Symbol('stop');
export const api = {get() { return 1; }};
'''

SERVER_GO = '''\
package server

import "errors"

// ErrClosed is returned after Close.
var ErrClosed = errors.New("server closed")

const (
\tDefaultPort = 8080
)

func Close() error { return ErrClosed }
'''

STREAM_RB = '''\
module Sinatra
  module Helpers
    class Stream
      def initialize(app)
        @app = app
      end

      def start!
        run
      end
    end

    def stream(keep_open = false)
      body Stream.new(self)
    end
  end

  class Runner
    def start
      1
    end

    def halt
      2
    end
  end

  class IndifferentHash < Hash
    def [](key)
      super(convert_key(key))
    end

    def []=(key, value)
      super(convert_key(key), value)
    end
  end
end
'''

STREAM_PHP = '''\
<?php
namespace GuzzleHttp\\Tests;

class MockTest
{
    public function testStream()
    {
        return new Stream(\\tmpfile());
    }
}
'''


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory):
    files = {"src/pkg/decorators.py": DECORATORS, "source/core/constants.ts": CONSTANTS_TS,
             "server/server.go": SERVER_GO, "lib/sinatra/base.rb": STREAM_RB,
             "tests/MockTest.php": STREAM_PHP}
    with indexed(tmp_path_factory.mktemp("values"), files) as d:
        yield d


def test_constants_are_symbols_with_their_own_lines(daemon) -> None:
    assert symbols(daemon, "fx", "VALIDATES_SCHEMA") == [
        ("src/pkg/decorators.py", "VALIDATES_SCHEMA", "constant", 4, 4),
        ("src/pkg/decorators.py", "validates_schema", "function", 8, 10)]  # case-insensitive second
    assert symbols(daemon, "fx", "DateTime.DESERIALIZATION_FUNCS") == [
        ("src/pkg/decorators.py", "DateTime.DESERIALIZATION_FUNCS", "constant", 14, 17)]
    assert symbols(daemon, "fx", "maxSafeTimeout") == [
        ("source/core/constants.ts", "maxSafeTimeout", "constant", 1, 1)]
    assert symbols(daemon, "fx", "supportedMethods") == [
        ("source/core/constants.ts", "supportedMethods", "constant", 2, 2)]
    # Go: a package's var and const; the doc comment above is the docstring
    (closed,) = daemon.service.find_symbols("ErrClosed", repo="fx")
    assert (closed.qualified_name, closed.kind, closed.start_line, closed.docstring) == (
        "server.ErrClosed", "variable", 6, "ErrClosed is returned after Close.")
    assert symbols(daemon, "fx", "DefaultPort") == [("server/server.go", "server.DefaultPort", "constant", 9, 9)]
    # a top-level const of a call's result is one too (ky's public `ky.stop` was no symbol)
    assert symbols(daemon, "fx", "stop") == [("source/core/constants.ts", "stop", "constant", 3, 3)]
    # not constants: a lowercase Python name, an object of methods (its members are the symbols)
    assert symbols(daemon, "fx", "_ignored") == []
    assert [s[1] for s in symbols(daemon, "fx", "api")] == []
    assert [s[1] for s in symbols(daemon, "fx", "api.get")] == ["api.get"]


def test_a_constants_card_shows_its_declaration(daemon) -> None:
    card = daemon.service.get_card("DateTime.DESERIALIZATION_FUNCS", repo="fx")
    assert (card.kind, card.path, card.start_line, card.end_line) == (
        "constant", "src/pkg/decorators.py", 14, 17)
    assert card.signature.startswith('DESERIALIZATION_FUNCS = { "iso": "from_iso_datetime",')


def test_search_for_a_constant_answers_its_definition_and_still_reads_its_module(daemon) -> None:
    hits = daemon.service.search("VALIDATES_SCHEMA", repo="fx", limit=5)
    assert (hits[0].qualified_name, hits[0].kind, hits[0].start_line) == ("VALIDATES_SCHEMA", "constant", 4)
    # the module's chunk keeps its constants' lines: a query for a value finds the module
    hits = daemon.service.search('"pre_dump"', repo="fx", limit=5)
    assert any(h.kind in {"module", "constant"} and h.path == "src/pkg/decorators.py" for h in hits)
    # no constant is searched on its own: a query with no name of one never lists one
    hits = daemon.service.search("register a schema level validator", repo="fx", limit=10)
    assert hits and all(h.kind != "constant" for h in hits)


def test_a_lowercase_name_is_not_answered_by_a_constant_of_its_letters(daemon) -> None:
    """guzzle's ``force_ip_resolve`` (an option key, read where it is used) answered the
    constant ``FORCE_IP_RESOLVE`` first: a case-insensitive match is no constant's name."""
    hits = daemon.service.search("validates_schema", repo="fx", limit=3)
    assert (hits[0].qualified_name, hits[0].kind) == ("validates_schema", "function")
    assert all(h.kind != "constant" or h.qualified_name == "VALIDATES_SCHEMA" for h in hits)
    assert [h.match for h in hits if h.qualified_name == "VALIDATES_SCHEMA"] != ["exact"]


def test_callers_are_written_in_a_language_that_can_call_the_definition(daemon) -> None:
    omitted: dict[str, int] = {}
    found = daemon.service.find_callers("Sinatra.Helpers.Stream", repo="fx", omitted=omitted)
    assert [(s.path, s.line, s.caller) for s in found] == [
        ("lib/sinatra/base.rb", 14, "Sinatra.Helpers.stream")]
    assert omitted.get("other_type") == 1  # the PHP test's `new Stream(...)`


def test_a_ruby_operator_method_is_found_by_its_name(daemon) -> None:
    """``Sinatra::IndifferentHash#[]`` answered the whole class: ``[]`` was read as a .NET
    generic's empty type arguments and dropped."""
    assert symbols(daemon, "fx", "Sinatra::IndifferentHash#[]") == [
        ("lib/sinatra/base.rb", "Sinatra.IndifferentHash.[]", "method", 29, 31)]
    assert symbols(daemon, "fx", "IndifferentHash#[]=") == [
        ("lib/sinatra/base.rb", "Sinatra.IndifferentHash.[]=", "method", 33, 35)]


def test_a_ruby_bang_name_is_no_other_name(daemon) -> None:
    assert symbols(daemon, "fx", "start!") == [
        ("lib/sinatra/base.rb", "Sinatra.Helpers.Stream.start!", "method", 8, 10)]
    assert [s[1] for s in symbols(daemon, "fx", "Runner.start!")] == []
    assert symbols(daemon, "fx", "halt!") == []  # only `halt` is defined (a Rust macro's `!` aside)
    assert [s[1] for s in symbols(daemon, "fx", "halt")] == ["Sinatra.Runner.halt"]
    with pytest.raises(NotFound):
        daemon.service.get_card("Runner.start!", repo="fx")


REQUEST_EXCEPTION_PHP = '''\
<?php
namespace GuzzleHttp\\Exception;

class RequestException extends \\Exception
{
    public static function create($request, $response = null)
    {
        return new self('x', $request, $response);
    }

    public function rethrow()
    {
        throw static::create($this->request);
    }
}
'''

BUILDER_PHP = '''\
<?php
namespace GuzzleHttp;

class Builder
{
    public function withName(string $name): static
    {
        return $this;
    }
}
'''

FACTORY_PHP = '''\
<?php
namespace GuzzleHttp\\Handler;

use GuzzleHttp\\Exception\\RequestException;

class CurlHandler
{
    public function __invoke($request)
    {
        $easy = $this->factory->create($request);
        $this->builder->withName('curl');
        if (!$easy) {
            throw RequestException::create($request);
        }
        return $easy;
    }
}
'''


def test_a_php_static_method_is_called_on_a_class_not_on_an_object(tmp_path: Path) -> None:
    """guzzle's ``callers RequestException::create`` listed 40 ``$this->factory->create()``
    calls of CurlFactory's instance method among its 52 sites."""
    with indexed(tmp_path, {"src/Exception/RequestException.php": REQUEST_EXCEPTION_PHP,
                            "src/Handler/CurlHandler.php": FACTORY_PHP, "src/Builder.php": BUILDER_PHP}) as d:
        omitted: dict[str, int] = {}
        found = d.service.find_callers("GuzzleHttp\\Exception\\RequestException::create", repo="fx",
                                       omitted=omitted)
        fluent = d.service.find_callers("GuzzleHttp\\Builder::withName", repo="fx")
    assert sorted((s.path, s.line) for s in found) == [
        ("src/Exception/RequestException.php", 13), ("src/Handler/CurlHandler.php", 13)]
    assert omitted.get("other_type") == 1  # $this->factory->create($request), line 10
    # a return type `: static` is an instance method's (a review: its callers were dropped)
    assert [(s.path, s.line) for s in fluent] == [("src/Handler/CurlHandler.php", 11)]


ADD_C = '''\
int add_ints(int a, int b) { return a + b; }
'''

CGO = '''\
package main

// #include "add.h"
import "C"

func Sum() int {
\treturn int(C.add_ints(1, 2))
}
'''


def test_cgo_calls_of_c_functions_are_callers(tmp_path: Path) -> None:
    """Go calls C through cgo (``C.add_ints(..)``): the language filter kept it out (a review)."""
    with indexed(tmp_path, {"csrc/add.c": ADD_C, "main.go": CGO}) as d:
        found = d.service.find_callers("add_ints", repo="fx")
    assert [(s.path, s.line, s.caller) for s in found] == [("main.go", 7, "main.Sum")]


PIPELINE_CS = '''\
namespace Polly;

public sealed partial class ResiliencePipeline
{
    public void Execute(System.Action callback) => callback();
}
'''

PIPELINE_T_CS = '''\
namespace Polly;

public sealed partial class ResiliencePipeline<T>
{
    public T Execute(System.Func<T> callback) => callback();
}
'''


def test_a_generic_type_as_written_is_the_generic_one(tmp_path: Path) -> None:
    """The index names ``class ResiliencePipeline<T>`` and ``class ResiliencePipeline`` alike;
    Polly's ``symbols "ResiliencePipeline<T>"`` and its card answered the plain class first."""
    with indexed(tmp_path, {"src/Polly.Core/ResiliencePipeline.cs": PIPELINE_CS,
                            "src/Polly.Core/ResiliencePipeline.TResult.cs": PIPELINE_T_CS}) as d:
        generic = [h.path for h in d.service.find_symbols("ResiliencePipeline<T>", repo="fx")]
        arity = [h.path for h in d.service.find_symbols("ResiliencePipeline`1", repo="fx")]
        plain = [h.path for h in d.service.find_symbols("ResiliencePipeline", repo="fx") if h.kind == "class"]
        card = d.service.get_card("ResiliencePipeline<T>", repo="fx")
    assert generic[0] == arity[0] == "src/Polly.Core/ResiliencePipeline.TResult.cs"
    assert plain[0] == "src/Polly.Core/ResiliencePipeline.cs"
    assert (card.path, card.signature) == ("src/Polly.Core/ResiliencePipeline.TResult.cs",
                                           "public sealed partial class ResiliencePipeline<T>")


def test_a_plain_name_means_the_source_generic_type_before_tests_named_so(tmp_path: Path) -> None:
    """hono's ``class Hono<E, S, ..>`` came after two benchmark callbacks named by their
    title (``suite.add('Hono', () => ..)``), and ``card Hono`` answered one: a plain name's
    preference for a plain definition comes after source first. The plain source type
    still comes before a generic one of its role (``ResiliencePipeline``)."""
    files = {
        "benchmarks/jsx/src/benchmark.ts": "suite\n  .add('Hono', () => {\n    render(app)\n  })\n",
        "src/hono.ts": "export class Hono<E extends Env = Env> {\n  fetch(request: Request) {\n"
                       "    return request\n  }\n}\n",
        "src/Polly.Core/ResiliencePipeline.cs": PIPELINE_CS,
        "src/Polly.Core/ResiliencePipeline.TResult.cs": PIPELINE_T_CS,
    }
    with indexed(tmp_path, files) as d:
        hono = [(h.path, h.kind) for h in d.service.find_symbols("Hono", repo="fx")]
        card = d.service.get_card("Hono", repo="fx")
        plain = [h.path for h in d.service.find_symbols("ResiliencePipeline", repo="fx")]
    assert hono == [("src/hono.ts", "class"), ("benchmarks/jsx/src/benchmark.ts", "function")]
    assert (card.path, card.kind) == ("src/hono.ts", "class")
    assert plain == ["src/Polly.Core/ResiliencePipeline.cs", "src/Polly.Core/ResiliencePipeline.TResult.cs"]
