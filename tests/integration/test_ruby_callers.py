"""Ruby's constant receivers, modules and singleton methods through the daemon, from rack:
``Rack::Utils.parse_query(..)`` in its specs was a name-only caller (none resolved) of
``Utils.parse_query`` and of every other ``parse_query``; ``MediaType.params(..)`` and
``CGI.escape(..)`` were callers of ``Helpers#params`` and ``Utils.escape``;
``symbols Rack::Utils`` and ``card Rack.Utils`` found no module; ``def self.parse`` and
``def parse`` of ``Multipart::Parser`` were both the answer for either spelling.

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, caller_rows, indexed

FILES = {
    "lib/rack/utils.rb": """\
module Rack
  module Utils
    def parse_query(qs)
      qs
    end

    def escape(s)
      Regexp.escape(s)
    end

    module_function :parse_query, :escape
  end
end
""",
    "lib/rack/query_parser.rb": """\
module Rack
  class QueryParser
    def parse_query(qs)
      qs
    end
  end
end
""",
    "lib/rack/request.rb": """\
module Rack
  class Request
    module Helpers
      def parse_query(qs)
        query_parser.parse_query(qs)
      end

      def params
        MediaType.params(content_type)
      end

      def GET
        params
      end
    end
  end
end
""",
    "lib/rack/multipart/parser.rb": """\
module Rack
  module Multipart
    class Parser
      def self.parse(io)
        parser = new
        parser.parse(io)
      end

      def parse(io)
        io
      end
    end
  end
end
""",
    "lib/rack/multipart.rb": """\
module Rack
  module Multipart
    def self.extract(io)
      Parser.parse(io)
    end
  end
end
""",
    "test/spec_utils.rb": """\
describe Rack::Utils do
  it "parses" do
    Rack::Utils.parse_query("a=b")
    Utils.parse_query("c")
    CGI.escape("x")
    Rack::Utils.escape("y")
  end
end
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("rubycallers"), FILES) as d:
        yield d


def test_a_call_on_a_constant_is_its_modules(running: Daemon) -> None:
    spec = "test/spec_utils.rb"
    assert caller_rows(running, "Rack::Utils.parse_query") == [
        ("lib/rack/request.rb", 5, "Rack.Request.Helpers.parse_query", "name_only"),  # on a value
        (spec, 3, "", "resolved"), (spec, 4, "", "resolved")]
    assert caller_rows(running, "Rack::QueryParser#parse_query") == [
        ("lib/rack/request.rb", 5, "Rack.Request.Helpers.parse_query", "name_only")]
    assert caller_rows(running, "Rack::Utils.escape") == [(spec, 6, "", "resolved")]  # not CGI's, Regexp's
    assert caller_rows(running, "Rack::Request::Helpers#params") == [
        ("lib/rack/request.rb", 13, "Rack.Request.Helpers.GET", "resolved")]  # not MediaType.params


def test_a_module_is_found_as_a_class_is(running: Daemon) -> None:
    for name in ("Rack::Utils", "Rack.Utils", "Utils"):
        found = [(h.qualified_name, h.kind) for h in running.service.find_symbols(name)]
        assert found == [("Rack.Utils", "module")], name
    card = running.service.get_card("Rack::Utils")
    assert (card.qualified_name, card.methods) == ("Rack.Utils", ("def parse_query(qs)", "def escape(s)"))


def test_the_spelling_picks_the_singleton_or_the_instance_method(running: Daemon) -> None:
    path = "lib/rack/multipart/parser.rb"
    for name, line in (("Rack::Multipart::Parser.parse", 4), ("Parser::parse", 4),
                       ("Rack::Multipart::Parser#parse", 9), ("Parser#parse", 9)):
        assert [(h.path, h.start_line) for h in running.service.find_symbols(name)] == [(path, line)], name
        assert running.service.get_card(name).start_line == line, name
    assert caller_rows(running, "Rack::Multipart::Parser.parse") == [
        ("lib/rack/multipart.rb", 4, "Rack.Multipart.extract", "resolved"),
        (path, 6, "Rack.Multipart.Parser.parse", "name_only")]
    assert caller_rows(running, "Rack::Multipart::Parser#parse") == [
        (path, 6, "Rack.Multipart.Parser.parse", "name_only")]  # `Parser.parse(io)` is the other's
    callees = [s.callee for s in running.service.find_callees("Rack::Multipart::Parser#parse")]
    assert callees == []  # its own body only (`io`: a parameter)
    callees = [s.callee for s in running.service.find_callees("Parser.parse")]
    assert callees == ["new", "parse"]
