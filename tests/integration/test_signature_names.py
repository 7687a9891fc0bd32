"""A name with the parameter list the tools print for an overload
(``Selector.select(String,Iterable<Element>)``) selects that overload: the suffix was
ignored, and ``callers``, ``card`` and ``symbols`` answered for every ``select`` (a trial).
A list no overload prints is a not-found error naming the overloads. jsoup's
``Selector.select`` shape; live gRPC server on loopback, the real client and CLI."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import livedaemon
from coderecall import cli
from coderecall._errors import NotFoundError
from coderecalld.config import RepoConfig
from coderecalld.errors import InvalidArgument
from coderecalld.query import service
from conformance_cases import config
from gitfixtures import GitRepo

SELECTOR = '''\
package org.jsoup.select;

import java.util.List;

public class Selector {
    public static Elements select(String query, Element root) {
        return select(new Evaluator(query), root);
    }

    public static Elements select(String query, Iterable<Element> roots) {
        return null;
    }

    public static Elements select(Evaluator evaluator, Element root) {
        return null;
    }

    public static Elements select(Evaluator evaluator) {
        return null;
    }
}
'''
USE = '''\
package org.jsoup.select;

public class Use {
    public Elements run(Element root, Evaluator ev) {
        Elements a = Selector.select("p", root);
        return Selector.select(ev);
    }
}
'''
OVERLOADS = ("org.jsoup.select.Selector.select(String,Element), "
             "org.jsoup.select.Selector.select(String,Iterable<Element>), "
             "org.jsoup.select.Selector.select(Evaluator,Element), "
             "org.jsoup.select.Selector.select(Evaluator)")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[livedaemon.Live]:
    tmp = tmp_path_factory.mktemp("signatures")
    repo = GitRepo(tmp / "r")
    repo.commit({"src/main/java/org/jsoup/select/Selector.java": SELECTOR,
                 "src/main/java/org/jsoup/select/Use.java": USE}, "initial")
    served = livedaemon.start(config(tmp, RepoConfig("r", str(repo.path), "main")))
    yield served
    served.close()


def test_symbols_and_card_select_the_overload(live: livedaemon.Live) -> None:
    client = live.client
    assert [h.qualified_name for h in client.find_symbols("Selector.select")] == [
        n for n in OVERLOADS.split(", ")]
    # whitespace aside, generic arguments as printed
    for name in ("Selector.select(String,Iterable<Element>)", "Selector.select( String, Iterable<Element> )",
                 "org.jsoup.select.Selector.select(String,Iterable<Element>)"):
        assert [(h.qualified_name, h.start_line) for h in client.find_symbols(name)] == [
            ("org.jsoup.select.Selector.select(String,Iterable<Element>)", 10)]
        card = client.get_card(name)
        assert (card.qualified_name, card.start_line, card.others) == (
            "org.jsoup.select.Selector.select(String,Iterable<Element>)", 10, ())


def test_callers_of_an_overload_are_the_calls_it_may_run(live: livedaemon.Live) -> None:
    every = [(s.path.rpartition("/")[2], s.line) for s in live.client.find_callers("Selector.select")]
    assert every == [("Selector.java", 7), ("Use.java", 5), ("Use.java", 6)]
    # a one-argument call runs select(Evaluator) alone; two-argument ones any of the others
    assert [(s.path.rpartition("/")[2], s.line) for s in live.client.find_callers("Selector.select(Evaluator)")] == [
        ("Use.java", 6)]
    assert [(s.path.rpartition("/")[2], s.line)
            for s in live.client.find_callers("Selector.select(String, Element)")] == [
        ("Selector.java", 7), ("Use.java", 5)]


def test_a_list_no_overload_prints_is_not_found(live: livedaemon.Live) -> None:
    message = f"no overload of 'Selector.select' takes (int); its overloads: {OVERLOADS}"
    for ask in (live.client.find_symbols, live.client.find_callers, live.client.get_card,
                live.client.analyze_impact):
        with pytest.raises(NotFoundError) as raised:
            ask("Selector.select(int)")
        assert raised.value.details == message


def test_cli_callers_and_card_take_the_printed_name(live: livedaemon.Live, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--addr", live.addr, "callers", "Selector.select(Evaluator)"]) == 0
    out, _ = capsys.readouterr()
    assert [line.split()[1] for line in out.splitlines()] == ["src/main/java/org/jsoup/select/Use.java:6"]
    assert cli.main(["--addr", live.addr, "card", "Selector.select(Evaluator,Element)"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "method org.jsoup.select.Selector.select(Evaluator,Element)   "
        "(r: src/main/java/org/jsoup/select/Selector.java:14-16)")
    assert cli.main(["--addr", live.addr, "callers", "Selector.select(long)"]) == 1
    # the CLI's last line (the in-process server's "rpc.rejected" log may come before it:
    # a logging handler an earlier test left on a closed stream prints its own error there)
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"coderecall: error: no overload of 'Selector.select' takes (long); its overloads: {OVERLOADS}")


def test_a_varargs_list_is_a_list_not_empty_segments(live: livedaemon.Live) -> None:
    """Java prints a varargs overload ``m(int...)``; its dots were read as empty dotted
    segments and the name refused as invalid (a review). It is a parameter list: here one
    no overload prints, so the answer names them."""
    with pytest.raises(NotFoundError) as raised:
        live.client.find_symbols("Selector.select(Evaluator...)")
    assert raised.value.details == (
        f"no overload of 'Selector.select' takes (Evaluator...); its overloads: {OVERLOADS}")
    assert service._symbol_name("Sel.sum(int...)") == "Sel.sum(int...)"
    with pytest.raises(InvalidArgument):
        service._symbol_name("Sel..sum(int)")  # an empty segment before the list still is one
