"""Methods called on module-level instances, over the interpreter's own ``json`` package:
``json.loads`` calls ``_default_decoder.decode(s)`` after ``_default_decoder = JSONDecoder(...)``,
so ``JSONDecoder.decode`` has a resolved caller, and the impact of a change to it reaches
whoever calls ``json.loads``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance_cases import Daemon, daemon
from coderecalld.config import RepoConfig
from gitfixtures import GitRepo

JSON_DIR = Path(json.__file__).parent
APP = "import json\n\n\ndef read_config(text):\n    return json.loads(text)\n\n\ndef raw(blob):\n    return blob.decode('utf-8')\n"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("instances")
    stdlib = GitRepo(tmp / "stdlib")
    stdlib.commit({f"json/{p.name}": p.read_text(encoding="utf-8") for p in JSON_DIR.glob("*.py")})
    app = GitRepo(tmp / "app")
    app.commit({"app/config.py": APP})
    with daemon(tmp, RepoConfig("stdlib", str(stdlib.path)), RepoConfig("app", str(app.path))) as d:
        for name in ("stdlib", "app"):
            d.pipeline.index_repo(d.cfg.repo(name), with_dense=False)
        yield d


def _instance_call_lines(name: str, method: str) -> list[int]:
    """Lines of ``json/__init__.py`` that call ``<name>.<method>(`` (the independent reference)."""
    text = (JSON_DIR / "__init__.py").read_text(encoding="utf-8")
    return [i for i, line in enumerate(text.splitlines(), 1) if re.search(rf"\b{name}\.{method}\(", line)]


def test_method_on_a_module_level_instance_is_a_resolved_call(running: Daemon) -> None:
    sites = running.service.find_callers("JSONDecoder.decode", limit=500)
    resolved = [(s.repo, s.path, s.line, s.caller) for s in sites if s.confidence == "resolved"]
    want = _instance_call_lines("_default_decoder", "decode")
    assert want  # the stdlib still has the idiom
    assert resolved == [("stdlib", "json/__init__.py", line, "loads") for line in want]
    # bytes.decode in another repo is not JSONDecoder.decode: at most a name-only match.
    assert all(s.confidence == "name_only" for s in sites if s.repo == "app")
    encode = running.service.find_callers("JSONEncoder.encode", limit=500)
    assert {(s.path, s.line) for s in encode if s.confidence == "resolved"} >= {
        ("json/__init__.py", line) for line in _instance_call_lines("_default_encoder", "encode")}


def test_impact_follows_the_instance_call_across_repos(running: Daemon) -> None:
    impact = running.service.analyze_impact("JSONDecoder.decode", depth=3)

    def walk(nodes, depth=1):
        for n in nodes:
            yield depth, n.site.repo, n.site.caller, n.site.confidence
            yield from walk(n.children, depth + 1)

    chain = [(d, repo, caller) for d, repo, caller, conf in walk(impact.callers) if conf == "resolved"]
    assert (1, "stdlib", "loads") in chain
    assert (2, "app", "read_config") in chain  # app calls json.loads, which calls the decoder


def test_cli_resolved_flags_drop_name_only_matches(running: Daemon, capsys: pytest.CaptureFixture[str]) -> None:
    from coderecall import cli
    from coderecalld.server.app import build_server

    server, port = build_server(running.service, "127.0.0.1:0")
    server.start()
    try:
        def run(*argv: str) -> tuple[int, object]:
            status = cli.main(["--addr", f"127.0.0.1:{port}", *argv, "--json"])
            return status, json.loads(capsys.readouterr().out)

        status, every = run("callers", "JSONDecoder.decode")
        assert status == 0 and {s["confidence"] for s in every} == {"resolved", "name_only"}
        status, resolved = run("callers", "JSONDecoder.decode", "--resolved")
        assert status == 0 and resolved == [s for s in every if s["confidence"] == "resolved"]
        status, tree = run("impact", "JSONDecoder.decode", "--resolved")
        status_all, tree_all = run("impact", "JSONDecoder.decode")
        assert tree_all["nodes"] > tree["nodes"] >= 2  # loads, and read_config above it

        def sites(nodes):
            for n in nodes:
                yield n["site"]
                yield from sites(n["children"])

        kept = list(sites(tree["callers"]))
        assert {s["confidence"] for s in kept} == {"resolved"} and len(kept) == tree["nodes"]
        assert tree["repos_touched"] == len({s["repo"] for s in kept}) == 2
        assert cli.main(["--addr", f"127.0.0.1:{port}", "impact", "NoSuchThing"]) == 1
        assert capsys.readouterr().err == "coderecall: no callers of 'NoSuchThing'\n"
    finally:
        server.stop(0).wait()


def test_symbols_by_module_qualified_name(running: Daemon) -> None:
    """The target a call site prints (``json.decoder.JSONDecoder.decode`` here, the module
    being the repo's ``json/decoder.py``) finds its definition. (A re-exported name such as
    ``json.JSONDecoder`` is not a stored name: FindCallers follows re-exports, FindSymbols
    does not.)"""
    target = next(s.target for s in running.service.find_callers("JSONDecoder.decode", limit=500)
                  if s.confidence == "resolved")
    hits = running.service.find_symbols(target)
    assert [(h.path, h.qualified_name, h.match) for h in hits] == [("json/decoder.py", "JSONDecoder.decode", "exact")]
    assert [h.qualified_name for h in running.service.find_symbols("json.decoder.JSONDecoder")] == ["JSONDecoder"]
    assert running.service.find_symbols("json.decoder.NoSuchThing") == []
