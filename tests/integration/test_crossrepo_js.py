"""Cross-repo call resolution for JavaScript/TypeScript through package.json names: a
library repo (``@acme/util``, entry ``lib/index.js``) and an app repo importing it by its
package name and a subpath (``@acme/util/str`` is ``lib/str.js``), plus default imports,
indexed together without embeddings; exact call sites through ``find_callers``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, daemon
from coderecalld.config import RepoConfig
from gitfixtures import GitRepo

UTIL = {
    "package.json": '{"name": "@acme/util", "main": "lib/index.js"}\n',
    "lib/index.js": """import { trim } from './str';

export function pad(s, n) {
  return trim(s).padEnd(n);
}
""",
    "lib/str.js": """export function trim(s) {
  return s.trim();
}

export default function shout(s) {
  return trim(s).toUpperCase();
}
""",
}

APP = {
    "package.json": '{"name": "app", "private": true}\n',
    "src/main.ts": """import { pad } from '@acme/util';
import { trim } from '@acme/util/str';
import loud from '@acme/util/str';
import Banner from './banner';

export function main(name: string): string {
  const s = pad(trim(name), 8);
  return new Banner(loud(s)).render();
}
""",
    "src/banner.ts": """export default class Banner {
  constructor(private text: string) {}

  render(): string {
    return this.frame(this.text);
  }

  frame(s: string): string {
    return `[${s}]`;
  }
}
""",
    "src/store.ts": """export interface Repo {
  save(): void;
}

export class Base {
  describe(): string {
    return "base";
  }
}

export class Store extends Base implements Repo {
  save(): void {}
}
""",
    "src/service.ts": """import { Store, Repo } from './store';
import Banner from './banner';

class Other {
  save(): void {}
}

export class Service {
  constructor(private store: Store, private other: Other) {}

  run(repo: Repo): string {
    const s = new Store();
    s.save();
    repo.save();
    this.store.save();
    this.other.save();
    const b = new Banner("x");
    return s.describe() + b.render();
  }
}
""",
    "src/local.ts": """function trim(s: string): string {
  return s;
}

export function tidy(s: string): string {
  return trim(s);
}
""",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("js")
    configs = []
    for name, files in {"util": UTIL, "app": APP}.items():
        repo = GitRepo(tmp / "src" / name)
        repo.commit(files, "import")
        configs.append(RepoConfig(name, str(repo.path)))
    with daemon(tmp, *configs) as d:
        for cfg in configs:
            d.pipeline.index_repo(d.cfg.repo(cfg.name), with_dense=False)
        yield d


def sites(running: Daemon, name: str) -> list[tuple[str, str, int, str, str, str]]:
    return sorted((h.repo, h.path, h.line, h.caller, h.target, h.confidence)
                  for h in running.service.find_callers(name, limit=100))


def test_package_entry_and_subpath_imports_reach_the_library(running: Daemon) -> None:
    pad = [("app", "src/main.ts", 7, "main", "@acme/util.pad", "resolved")]
    assert sites(running, "lib.pad") == pad  # the path-based name of lib/index.js's pad
    assert sites(running, "@acme/util.pad") == pad  # the package specifier's name
    assert sites(running, "pad") == pad
    trim = [
        ("app", "src/main.ts", 7, "main", "@acme/util/str.trim", "resolved"),  # N/str is lib/str.js
        ("util", "lib/index.js", 4, "pad", "lib/str.trim", "resolved"),  # relative import, as before
        ("util", "lib/str.js", 2, "trim", "", "name_only"),  # s.trim(): a method of a variable
        ("util", "lib/str.js", 6, "shout", "lib/str.trim", "resolved"),  # same module
    ]
    assert sites(running, "lib/str.trim") == trim
    assert sites(running, "@acme/util/str.trim") == trim
    # The app's own trim (src/local.ts) is another definition: never the library's; and
    # the library never requires the app (package "app"), so its untyped `s.trim()` is no
    # candidate caller of the app's (callgraph._unimporting)
    assert sites(running, "src/local.trim") == [
        ("app", "src/local.ts", 6, "tidy", "src/local.trim", "resolved")]


def test_default_imports_reach_the_default_export(running: Daemon) -> None:
    assert sites(running, "lib/str.shout") == [
        ("app", "src/main.ts", 8, "main", "@acme/util/str.default", "resolved")]  # across repos
    assert sites(running, "shout") == sites(running, "lib/str.shout")
    assert sites(running, "src/banner.Banner") == [  # a default class, new
        ("app", "src/main.ts", 8, "main", "src/banner.default", "resolved"),
        ("app", "src/service.ts", 17, "Service.run", "src/banner.default", "resolved")]
    assert sites(running, "src/banner.Banner.frame") == [
        ("app", "src/banner.ts", 5, "Banner.render", "src/banner.Banner.frame", "resolved")]


def test_typed_receivers_interfaces_and_inherited_methods(running: Daemon) -> None:
    omitted: dict[str, int] = {}
    found = sorted((h.path, h.line, h.caller, h.target, h.confidence)
                   for h in running.service.find_callers("src/store.Store.save", limit=100, omitted=omitted))
    assert found == [
        ("src/service.ts", 13, "Service.run", "src/store.Store.save", "resolved"),  # const s = new Store()
        ("src/service.ts", 14, "Service.run", "src/store.Repo.save", "override"),  # an interface it implements
        ("src/service.ts", 15, "Service.run", "src/store.Store.save", "resolved"),  # a parameter property
    ]
    assert omitted == {"other_type": 1}  # this.other.save() on the file's own Other
    assert sites(running, "src/store.Base.describe") == [
        ("app", "src/service.ts", 18, "Service.run", "src/store.Store.describe", "inherited")]
    # A default-imported class: its target goes through the default export.
    assert sites(running, "src/banner.Banner.render") == [
        ("app", "src/main.ts", 8, "main", "src/banner.default.render", "resolved"),  # new Banner(..).render()
        ("app", "src/service.ts", 18, "Service.run", "src/banner.default.render", "resolved")]
