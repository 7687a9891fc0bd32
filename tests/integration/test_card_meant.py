"""The MCP card of a name that several definitions share, when they are one type and its
own constructors or one method's overloads: the type, or the longest overload, with the
others named (``also_named``), not a list of candidates (jsoup's ``get_card Cleaner`` and
``HtmlTreeBuilder.process`` cost an agent a second call each; a newcomer). Other
namesakes still give candidates. Live gRPC server on a Java fixture, the real client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import livedaemon
from conformance_cases import config
from coderecall import _mcp_results as results
from coderecalld.config import RepoConfig
from gitfixtures import GitRepo

CLEANER = """package org.acme.safety;

public class Cleaner {
    private final Safelist safelist;

    public Cleaner(Safelist safelist) {
        this.safelist = safelist;
    }

    public Cleaner() {
        this(Safelist.basic());
    }

    boolean process(Token token) {
        return process(token, null);
    }

    boolean process(Token token, State state) {
        if (state == null) {
            return false;
        }
        return state.accept(token);
    }
}
"""
OTHER = """package org.acme.other;

public class Sweeper {
    boolean process(Token token) {
        return token != null;
    }
}
"""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[livedaemon.Live]:
    tmp = tmp_path_factory.mktemp("meant")
    repo = GitRepo(tmp / "r")
    repo.commit({"src/org/acme/safety/Cleaner.java": CLEANER, "src/org/acme/other/Sweeper.java": OTHER},
                "initial")
    served = livedaemon.start(config(tmp, RepoConfig("r", str(repo.path), "main")))
    yield served
    served.close()


def test_a_type_and_its_constructors_mean_the_type(live: livedaemon.Live) -> None:
    card = results.card(live.client, "Cleaner")
    assert (card["symbol"]["name"], card["symbol"]["kind"], card["symbol"]["cite"]) == (
        "org.acme.safety.Cleaner", "class", "r:src/org/acme/safety/Cleaner.java:3-24")
    assert card["also_named"] == ["r:src/org/acme/safety/Cleaner.java:6-8 org.acme.safety.Cleaner.Cleaner(Safelist)",
                                  "r:src/org/acme/safety/Cleaner.java:10-12 org.acme.safety.Cleaner.Cleaner()"]


def test_one_methods_overloads_mean_the_longest(live: livedaemon.Live) -> None:
    card = results.card(live.client, "Cleaner.process")
    assert (card["symbol"]["name"], card["symbol"]["cite"]) == (
        "org.acme.safety.Cleaner.process(Token,State)", "r:src/org/acme/safety/Cleaner.java:18-23")
    assert card["also_named"] == ["r:src/org/acme/safety/Cleaner.java:14-16 org.acme.safety.Cleaner.process(Token)"]


def test_namesakes_of_other_types_are_candidates(live: livedaemon.Live) -> None:
    card = results.card(live.client, "process")
    assert sorted(c["name"] for c in card["candidates"]) == [
        "org.acme.other.Sweeper.process(Token)", "org.acme.safety.Cleaner.process(Token)",
        "org.acme.safety.Cleaner.process(Token,State)"]
    assert "also_named" not in card
