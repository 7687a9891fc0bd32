"""What ``serve`` answers before its daemon is open (``server/starting.py``): progress and
repos from the config within the caller's scope, UNAVAILABLE for the rest, then the daemon."""

from __future__ import annotations

from pathlib import Path

import pytest
from coderecalld.auth import Principal
from coderecalld.config import Config, RepoConfig
from coderecalld.errors import NotFound, StoreUnavailable
from coderecalld.server.starting import Starting, starting_registry


def _starting() -> Starting:
    cfg = Config(data_dir=Path("/nonexistent"),
                 repos=(RepoConfig("acme/api", "https://user:pw@git.example.com/acme/api.git"),
                        RepoConfig("acme/web", "/srv/web")))
    return Starting(cfg, starting_registry(cfg))


def test_before_open_progress_and_repos_answer_in_scope_and_the_rest_is_unavailable():
    api = _starting()
    web_only = Principal("bot", ("acme/web",))
    assert [(p.repo, p.phase, p.settled) for p in api.watch_progress(once=True)] == [
        ("acme/api", "starting", False), ("acme/web", "starting", False)]
    assert [p.repo for p in api.watch_progress(once=True, principal=web_only)] == ["acme/web"]
    with pytest.raises(NotFound):
        api.watch_progress("acme/api", once=True, principal=web_only)
    repos = api.list_repos()
    assert [(r.name, r.state, r.url) for r in repos] == [
        ("acme/api", "pending", "https://git.example.com/acme/api.git"), ("acme/web", "pending", "/srv/web")]
    with pytest.raises(StoreUnavailable, match="the daemon is starting"):
        api.search("anything", principal=web_only)


def test_ready_hands_every_call_to_the_daemon():
    api = _starting()

    class Open:
        def search(self, query, **kw):
            return [query]

        def list_repos(self, **kw):
            return ["from the daemon"]

    api.ready(Open())
    assert api.search("q", principal=None) == ["q"]
    assert api.list_repos(principal=None) == ["from the daemon"]
