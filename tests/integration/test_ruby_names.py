"""Ruby names as a Ruby developer writes them, end to end on a real git fixture and the
real embedded store: a method of ``class << self`` is its class's (``Sinatra.Base.compile!``,
not ``Sinatra.Base.self.compile!``), ``class Sinatra::Extra`` is ``Sinatra.Extra``, and
``Sinatra::Helpers#send_file`` (the docs' instance-method form) and ``Base.compile!`` name
the methods in ``symbols``, ``card`` and a search's pinned first hit.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import shape
from coderecalld.query.shape import Shape
from conformance_cases import indexed

FILES = {
    "lib/sinatra/base.rb": '''\
module Sinatra
  module Helpers
    # Sends a file to the client.
    def send_file(path, opts = {})
      path
    end
  end

  class Base
    class << self
      # Compiles a route's path into a pattern.
      def compile!(verb, path, block)
        [verb, path, block]
      end
    end

    def route!(base = settings)
      base
    end
  end
end
''',
    "lib/sinatra/extra.rb": '''\
class Sinatra::Extra < Sinatra::Base
  def route!(base)
    super
  end
end
''',
    # Words of the names, in docs: a README holding "send file" was first for the name.
    "README.md": "# Sinatra\n\nSend a file with `send_file`; routes compile with `compile!`.\n",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("ruby"), FILES) as running:
        yield running


@pytest.mark.parametrize(("name", "found"), [
    ("Base.compile!", ["Sinatra.Base.compile!"]),
    ("Sinatra::Base.compile!", ["Sinatra.Base.compile!"]),
    ("Sinatra::Helpers#send_file", ["Sinatra.Helpers.send_file"]),
    ("Sinatra::Extra#route!", ["Sinatra.Extra.route!"]),
    ("Sinatra::Extra", ["Sinatra.Extra"]),
])
def test_ruby_names_find_their_definitions(daemon: Daemon, name: str, found: list[str]) -> None:
    assert [h.qualified_name for h in daemon.service.find_symbols(name, repo="fx")] == found
    assert daemon.service.get_card(name, repo="fx").qualified_name == found[0]


def test_an_instance_method_written_with_a_hash_is_pinned(daemon: Daemon) -> None:
    assert shape.analyze("Sinatra::Helpers#send_file").shape is Shape.IDENTIFIER
    hits = daemon.service.search("Sinatra::Helpers#send_file", limit=3, repo="fx")
    assert (hits[0].path, hits[0].qualified_name, hits[0].match) == (
        "lib/sinatra/base.rb", "Sinatra.Helpers.send_file", "exact")


def test_a_ruby_name_in_a_question_is_looked_up(daemon: Daemon) -> None:
    question = "how does `Sinatra::Helpers#send_file` pick the content type of a file"
    assert shape.analyze(question).symbols == ("Sinatra.Helpers.send_file",)
    hits = daemon.service.search(question, limit=3, repo="fx")
    assert "Sinatra.Helpers.send_file" in [h.qualified_name for h in hits]


@pytest.mark.parametrize("prefix", ["Sinatra::Helpers.", "Sinatra.Helpers.", "Helpers.", "Sinatra::Base#"])
def test_a_members_prefix_in_rubys_forms(daemon: Daemon, prefix: str) -> None:
    found = [h.qualified_name for h in daemon.service.find_symbols(prefix, repo="fx", prefix=True)]
    expected = (["Sinatra.Base.compile!", "Sinatra.Base.route!"] if "Base" in prefix
                else ["Sinatra.Helpers.send_file"])
    assert sorted(found) == expected
