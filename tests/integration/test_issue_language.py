"""An issue pasted without a repository filter, into an index of repositories in several
languages, is answered from code in the language its own code shows
(``service.LANGUAGE_PENALTY``, ``dialect.families``): a Go panic drew flask's files and a
PHP trace Polly's C# ones (newcomer trials on flask and viper, guzzle and Polly, unscoped).
Real git fixtures (a Python repository and a Go one), the real embedded store, sparse side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.config import RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.query import anchors, dialect, service
from conformance_cases import daemon as running_daemon
from gitfixtures import GitRepo

PYTHON = {
    "settings/keys.py": '''\
class Viper:
    """A Python port of viper's configuration registry."""

    def AllKeys(self, nested=True):
        """All keys of the config: nested keys are flattened, every nested key of a nested
        map joined with a dot, so all keys of nested maps are listed with their parent keys."""
        keys = []
        for key, value in self.config.items():
            if nested and isinstance(value, dict):
                keys += [key + "." + sub for sub in value]
            else:
                keys.append(key)
        return keys
''',
    "settings/loader.py": '''\
def load(path):
    """Load a config file."""
    with open(path) as handle:
        return handle.read()
''',
}

GO = {
    "viper.go": '''\
package viper

// AllKeys returns all keys holding a value.
func (v *Viper) AllKeys() []string {
	m := map[string]bool{}
	m = v.flattenAndMergeMap(m, v.config, "")
	return keys(m)
}

func (v *Viper) flattenAndMergeMap(shadow map[string]bool, m map[string]interface{}, prefix string) map[string]bool {
	for k, val := range m {
		shadow[prefix+k] = true
	}
	return shadow
}
''',
    "util.go": '''\
package viper

func keys(m map[string]bool) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	return out
}
''',
}

ISSUE = '''\
AllKeys does not list nested keys of a nested map

With a config holding a nested map, all keys of the nested map are missing from AllKeys:

```go
v := viper.New()
v.Set("a", map[string]interface{}{"b": 1})
fmt.Println(v.AllKeys())
```

I expected the nested keys ("a.b") to be listed with their parent keys, every nested key
joined with a dot. Nested keys are flattened nowhere.
'''


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    root = tmp_path_factory.mktemp("tongues")
    repos = []
    for name, files in (("web", PYTHON), ("conf", GO)):
        repo = GitRepo(root / name)
        repo.commit(files, "initial")
        repos.append(RepoConfig(name, str(repo.path), "main"))
    with running_daemon(root, *repos) as running:
        for repo in repos:
            running.jobs.run_now(repo.name)
        yield running


def _located(daemon: Daemon) -> list[tuple[str, str]]:
    return [(f.repo, f.path) for f in daemon.service.locate(ISSUE, limit=4).files]


def _page(daemon: Daemon) -> list[tuple[str, str]]:
    return [(h.repo, h.qualified_name) for h in daemon.service.search(ISSUE, limit=4)]


def test_an_unscoped_issue_is_answered_in_its_own_language(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(service, "LANGUAGE_PENALTY", 0.0)
        m.setattr(anchors, "FOREIGN_DEFINITIONS_SKIPPED", False)
        assert _located(daemon)[0] == ("web", "settings/keys.py")  # the fault: the Python file first
        assert _page(daemon)[0] == ("web", "Viper.AllKeys")
    located = _located(daemon)
    assert located[0] == ("conf", "viper.go")
    assert [repo for repo, _ in located] == sorted((repo for repo, _ in located), key=lambda r: r != "conf")
    assert _page(daemon)[0] == ("conf", "viper.Viper.AllKeys")
    # scoped to one repository, nothing else moves: every candidate is Go
    assert [f.path for f in daemon.service.locate(ISSUE, limit=4, repo="conf").files][0] == "viper.go"


def test_the_code_an_issue_shows_names_its_language_families() -> None:
    assert dialect.families(ISSUE) == {"go"}
    # a JavaScript snippet is about a TypeScript library too; a console block says nothing
    assert dialect.families("```js\nky.get(url)\n```\n```console\n$ npm test\n```") == {"js"}
    assert dialect.families("```\nplain\n```\n```json\n{}\n```") == frozenset()
    # frames' and prose's paths, by extension; a Windows path too
    assert dialect.families("", ["C:\\src\\Polly\\Policy.cs", "src/Client.php"]) == {"dotnet", "php"}
    assert dialect.families("", ["lib/httparty/request.rb", "README.md"]) == {"ruby"}
    # a repository holding code of the issue's family is the issue's whatever else it holds
    # (a Python repro about a Rust library with Python bindings): only the others' is foreign
    candidates = [{"repo": "web", "language": "python"}, {"repo": "web", "language": "markdown"},
                  {"repo": "bindings", "language": "python"}, {"repo": "bindings", "language": "rust"},
                  {"repo": "ui", "language": "typescript"}]
    tongue = dialect.scope(frozenset({"rust", "js"}), candidates)
    assert tongue.repos == {"web"}
    assert tongue.foreign({"repo": "web", "language": "python"})
    assert not tongue.foreign({"repo": "web", "language": "markdown"})  # docs are no code
    assert not tongue.foreign({"repo": "web", "language": "bash"})
    assert not tongue.foreign({"repo": "bindings", "language": "python"})
    assert not tongue.foreign({"repo": "ui", "language": "typescript"})  # same family
    assert not dialect.scope(frozenset(), candidates).foreign({"repo": "web", "language": "python"})
    # one repository, or none speaking the family (a Python client's repro against a Go
    # server): nothing is foreign, its docs never go above its code
    assert dialect.scope(frozenset({"go"}), candidates[:2]) == dialect.Scope()
    assert dialect.scope(frozenset({"go"}), candidates) == dialect.Scope()
    # a C header names no family (a Swift library's generated header, Python.h)
    assert dialect.families("", ["Alamofire-Swift.h", "src/foo.c"]) == {"c"}
    assert dialect.families("", ["include/Python.h"]) == frozenset()
