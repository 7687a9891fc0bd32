"""Ruby's bare method calls and the blocks that keep ``self`` (parse/ruby_calls.py), from
rack's ``Multipart::Parser`` and ``Request::Helpers``."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, resolve

PARSER = """\
class Parser
  def on_read(content)
    tok = consume_boundary
    case consume_boundary
    when :BOUNDARY then handle
    end
    scheme = forwarded_scheme || default_scheme
    "#{host_with_port}/#{scheme}"
  end

  def consume_boundary; end
  def handle; end
end
"""

LOCALS = """\
def f(a, b = default_b, k: kw_default, &blk)
  x = 1
  y
  y = 2
  items.each { |i; j| i + j + z = 3 }
  z
  [a, b, k, blk, x, y, tok]
  foo(key: value)
  alias n o
  [__FILE__, __dir__, defined?(bar), [1].map { _1 }]
end
"""


def _calls(source: str) -> list[tuple[str, int]]:
    parsed = parse.symbols(source.encode(), "ruby")
    return [(c.name, c.line) for s in parsed.symbols for c in s.call_sites]


def test_a_bare_name_in_an_expression_is_a_call() -> None:
    """rack's ``tok = consume_boundary``, ``case consume_boundary``, ``forwarded_scheme ||``
    and ``"#{host_with_port}"`` had no call site: only a bare name standing alone was one."""
    assert _calls(PARSER) == [("consume_boundary", 3), ("consume_boundary", 4), ("handle", 5),
                              ("forwarded_scheme", 7), ("default_scheme", 7), ("host_with_port", 8)]


def test_a_local_is_one_where_ruby_binds_it() -> None:
    """Parameters, an assignment above, a block's parameters and block-locals are locals; a
    name read before its assignment (``y`` on line 3), or after a block that alone assigns
    it (``z`` on line 6), calls a method, as Ruby's parser decides; a default's expression
    is a call, its method's (rack's ``query_parser = query_parser()`` had no caller), a
    keyword label, an alias's names, a call's method name, ``__FILE__``, what ``defined?``
    asks and a numbered block parameter (``_1``) are no bare call."""
    assert _calls(LOCALS) == [("default_b", 1), ("kw_default", 1), ("y", 3), ("items", 5), ("each", 5),
                              ("z", 6), ("tok", 7), ("foo", 8), ("value", 8), ("__dir__", 10), ("map", 10)]


UTILS = """\
module Utils
  def build_query(params)
    params.map { |k, v|
      if v.class == Array
        build_query(v.map { |x| [k, x] })
      else
        v.nil? ? escape(k) : "#{escape(k)}=#{escape(v)}"
      end
    }.join("&")
  end

  def get
    if form_data?
      self.GET[1] = 2
    end
    loop { escape(1) }
    instance_eval { escape(2) }
    mock_app { escape(3) }
    Class.new do
      escape(4)
    end
  end

  def escape(s); end
  def GET; end
  def form_data?; end
end
"""


def test_a_block_on_a_value_keeps_self_a_dsl_block_may_not() -> None:
    """rack's ``Utils.build_query`` calls itself and ``escape`` in ``if``/``else`` inside
    ``params.map { }`` and ``Helpers#GET`` writes ``self.GET[k] = v`` inside an ``if``: all
    were left unresolved (judged by indentation). A block on a bare call, a constant or
    ``instance_eval`` may run with another ``self`` (sinatra's ``mock_app { .. }``)."""
    blob = UTILS.encode()
    parsed = parse.symbols(blob, "ruby", "lib/utils.rb")
    found = resolve.chunks(chunk.chunks("r", "lib/utils.rb", blob, parsed), parsed, "lib/utils.rb", "")
    got = [(s.name, s.line, s.target) for c in found for s in c.call_sites
           if s.name in ("build_query", "escape", "GET", "form_data?")]
    assert got == [("build_query", 5, "Utils.build_query"), ("escape", 7, "Utils.escape"),
                   ("escape", 7, "Utils.escape"), ("escape", 7, "Utils.escape"),
                   ("form_data?", 13, "Utils.form_data?"), ("GET", 14, "Utils.GET"),
                   ("escape", 16, "Utils.escape"), ("escape", 17, ""), ("escape", 18, ""), ("escape", 20, "")]


def test_a_rackup_file_is_ruby() -> None:
    """rack's nine ``config.ru`` files were not indexed."""
    assert parse.language_for("test/rackup/config.ru") == "ruby"
