"""File roles by path convention and per-repo override (``files.classify.role``)."""

from __future__ import annotations

import pytest

from coderecalld import config
from coderecalld.config import ConfigError
from coderecalld.files import classify


@pytest.mark.parametrize(("path", "role"), [
    ("src/flask/app.py", "source"),
    ("sympy/printing/latex.py", "source"),
    ("tests/test_basic.py", "test"),
    ("sympy/printing/tests/test_latex.py", "test"),
    ("pkg/conftest.py", "test"),
    ("web/handler_test.go", "test"),
    ("ui/src/button.spec.ts", "test"),
    ("ui/src/__tests__/button.js", "test"),
    ("src/main/java/FooTest.java", "test"),
    # C and C++ test programs, .NET test projects and classes by their case; no test of a
    # name merely ending in "test" (hiredis's test.c was source, Polly's Latest.cs would be)
    ("test.c", "test"),
    ("tests/foo.c", "test"),
    ("net_test.c", "test"),
    ("base/strings/split_unittest.cc", "test"),
    ("src/Polly.Core/Latest.cs", "source"),
    ("src/main/java/Contest.java", "source"),
    ("test/Polly.Core.Tests/Retry/RetryHelperTests.cs", "test"),
    ("src/Polly.Specs/Helpers.cs", "test"),
    ("JsonParserTests.cs", "test"),
    ("src/it/java/ServerIT.java", "test"),
    ("src/main/java/SPLIT.java", "source"),
    ("Tests/AppTests/RouterTests.swift", "test"),
    ("tests/Handler/MockHandlerTest.php", "test"),
    ("src/Handler/CurlHandler.php", "source"),
    ("CMakeLists.txt", "config"),
    # a JavaScript build's and test runner's configuration, by name though its suffix is
    # code; a place to try the library by hand and directories named as examples (axios's
    # gulpfile, karma.conf.cjs, rollup.config.js and sandbox/, Alamofire's "watchOS
    # Example/" were source: a newcomer); a module named config, sandbox or example stays
    ("gulpfile.js", "config"),
    ("karma.conf.cjs", "config"),
    ("rollup.config.js", "config"),
    ("web/vite.config.ts", "config"),
    ("build.gradle.kts", "config"),
    ("Package.swift", "config"),
    ("sandbox/server.js", "example"),
    ("sandbox/server.test.js", "test"),
    ("watchOS Example/Source/ExtensionDelegate.swift", "example"),
    ("lib/config.js", "source"),
    ("jinja2/sandbox.py", "source"),
    ("src/exampleparser.py", "source"),
    ("Source/Core/Session.swift", "source"),
    # deeper, a sandbox is a library's module and a config file an application's code; a
    # directory named with example in it may be code (a review)
    ("runsc/sandbox/sandbox.go", "source"),
    ("core/sandbox/controller.go", "source"),
    ("packages/playground/src/index.ts", "source"),
    ("src/app/app.config.ts", "source"),
    ("src/config/database.config.ts", "source"),
    ("src/counter_example/mod.rs", "source"),
    ("tools/example-generator/main.go", "source"),
    ("src/examples_parser/mod.rs", "source"),
    # a framework's own Test type, a Scala class named Spec, a directory merely ending in
    # "tests" are no tests (a review)
    ("src/xunit.v3.core/Test.cs", "source"),
    ("src/xunit.abstractions/ITest.cs", "source"),
    ("src/Framework/Test.php", "source"),
    ("Sources/XCTest/Public/XCTest.swift", "source"),
    ("sql/core/src/main/scala/org/apache/spark/sql/expressions/WindowSpec.scala", "source"),
    ("src/foo.latests/Thing.cs", "source"),
    ("test/Polly.Core.UnitTests/Thing.cs", "test"),
    ("src/CMakeLists.txt", "config"),
    ("docs/deploying/nginx.rst", "docs"),
    ("README.md", "docs"),
    ("docs/conf.py", "docs"),
    ("docs/conftest.py", "test"),       # a test inside docs/ is a test
    ("IPython/core/history.py", "source"),  # named like docs, but code: not docs
    ("pkg/license.py", "source"),
    ("lib/changes.js", "source"),
    ("HISTORY.md", "docs"),
    ("LICENSE-MIT", "docs"),
    ("LICENSE.APACHE", "docs"),     # cryptography's: a suffix of no code language
    ("README.html", "docs"),
    ("doc/man_docs.go", "source"),      # cobra's package doc: a Go directory is a package
    ("go/doc/comment.go", "source"),
    ("doc/man_docs_test.go", "test"),
    ("doc/README.md", "docs"),
    ("examples/tutorial/flaskr/__init__.py", "example"),
    # a docs site's included code (typer's, FastAPI's docs_src/), its tests stay tests
    ("docs_src/parameter_types/enum/tutorial002.py", "example"),
    ("docs_src/testing/app01/test_main.py", "test"),
    ("examples/tutorial/tests/test_auth.py", "test"),
    # a convention's directory behind underscores (Go's tool skips `_`-named ones: chi's
    # examples); other underscored directories keep no role of their own
    ("_examples/todos-resource/main.go", "example"),
    ("_examples/rest/main_test.go", "test"),
    ("pkg/_testdata/cases.go", "test"),
    ("docs/_static/app.js", "docs"),
    ("_build/helpers.py", "source"),
    ("src/_pytest/python.py", "source"),
    ("galleries/users_explain/axes/axes_intro.py", "example"),  # matplotlib >= 3.8
    ("tutorials/intermediate/legend_guide.py", "example"),       # sphinx-gallery
    ("lib/matplotlib/legend.py", "source"),
    ("docs/tutorial/views.rst", "docs"),                         # a docs page stays docs
    ("galleries/tests/test_gallery.py", "test"),
    ("benchmarks/bench_isolation_forest.py", "test"),           # scikit-learn: exercises, not source
    ("performance/benchmark.py", "test"),                       # marshmallow's, by its name
    ("scripts/bench_parser.py", "test"),
    ("src/pkg/benchmarking.py", "source"),                      # a module about benchmarks
    ("asv_bench/benchmarks/dataset.py", "test"),                 # xarray's asv suite
    ("sympy/core/benchmarks/bench_basic.py", "test"),
    ("benches/parse.rs", "test"),                                # cargo bench targets
    ("bench/Polly.Core.Benchmarks/RetryBenchmark.cs", "test"),    # Polly's BenchmarkDotNet suite
    ("src/Polly.Core/Retry/RetryHelper.cs", "source"),
    ("astropy/extern/ply/lex.py", "vendored"),
    ("pip/_vendor/requests/api.py", "vendored"),
    ("third_party/tests/test_x.py", "vendored"),  # a vendored library's tests are vendored
    ("api/v1/service_pb2.py", "generated"),
    ("sphinx/locale/de/LC_MESSAGES/sphinx.js", "generated"),    # a compiled message catalog
    ("sphinx/themes/basic/static/jquery-3.5.1.js", "vendored"),  # a library's release, by name
    ("web/static/bootstrap-5.3.2.css", "vendored"),
    ("web/static/app.js", "source"),
    ("src/release-2.py", "source"),
    ("pyproject.toml", "config"),
    # a package's testing library is source; the project's tests stay tests
    ("django/test/testcases.py", "source"),
    ("xarray/testing/assertions.py", "source"),
    ("sympy/testing/pytest.py", "source"),
    ("sympy/testing/tests/test_pytest.py", "test"),
    ("sympy/testing/tests/diagnose_imports.py", "test"),
    ("tornado/test/httpclient_test.py", "test"),
    ("django/test/conftest.py", "test"),
    ("testing/python/approx.py", "test"),                       # pytest's suite, top level
    ("test/helpers.py", "test"),
    ("tests/testing/helpers.py", "test"),
    ("project/src/test/python/helpers.py", "test"),            # Maven layout
    ("pkg/testing/fixtures.js", "test"),                        # Python packages only
    # a page under docs/ is docs, whatever its directories say
    ("docs/topics/testing/overview.txt", "docs"),
    ("docs/topics/db/examples/many_to_one.txt", "docs"),
    ("docs/examples/plot.py", "example"),
    ("docs/tests/test_docs.py", "test"),
    ("docs/testing/guide.md", "docs"),
    ("docs/topics/testing/_images/hierarchy.svg", "docs"),      # docs/ encloses testing/
    ("tests/staticfiles_tests/apps/static/vendor/module.js", "test"),  # tests/ encloses vendor/
    ("django/contrib/auth/templates/registration/password_reset_subject.txt", "source"),
    ("django/views/templates/technical_500.txt", "source"),     # a template, not a page
    ("docs/templates/readme.txt", "docs"),
    # ... but the outer convention still wins over a page: a vendored library's docs,
    # a test suite's fixture pages, an example project's readme
    ("third_party/lib/docs/guide.md", "vendored"),
    ("tests/roots/docs/index.rst", "test"),
    ("examples/app/docs/readme.md", "example"),
    (".github/workflows/ci.yaml", "config"),
    # a JavaScript package's built bundles
    ("dist/axios.js", "generated"),
    ("dist/esm/axios.js", "generated"),
    ("packages/ui/dist/index.cjs", "generated"),
    ("lib/core/Axios.js", "source"),
    ("distributions/normal.py", "source"),
    # dependency manifests are configuration wherever they are, unless a test or vendored
    # tree holds them
    ("requirements-dev.txt", "config"),
    ("requirements.txt", "config"),
    ("dev-requirements.txt", "config"),
    ("docs/requirements.txt", "config"),
    ("constraints.txt", "config"),
    ("Pipfile", "config"),
    ("poetry.lock", "config"),
    ("go.sum", "config"),
    ("tests/requirements.txt", "test"),
    ("vendor/lib/requirements.txt", "vendored"),
    ("docs/requirements-guide.md", "docs"),
    ("NOTES.txt", "docs"),
    # a directory named as one kind of tests holds tests (attrs' typing_tests/); a word
    # merely containing "test" does not, nor a package's test_utils/
    ("typing_tests/baseline_use.py", "test"),
    ("integration_tests/conftest_helpers.py", "test"),
    ("tests_unit/helpers.py", "test"),
    ("e2e-tests/app.js", "test"),
    # a test suite's data (mypy's test cases), as Go's testdata/; a package's test-utils/ is code
    ("test-data/unit/check-dataclasses.test", "test"),
    ("mypyc/test-data/fixtures/ir.py", "test"),
    ("packages/test-utils/src/mount.ts", "source"),
    ("docs/typing_tests/notes.md", "docs"),
    ("contest/main.py", "source"),
    ("attestation/verify.py", "source"),
    ("src/pkg/test_utils/helpers.py", "source"),
    ("packages/playwright-test/src/runner.ts", "source"),
    ("crates/ui_test/src/lib.rs", "source"),
    ("vendor/x/unit_tests/a.py", "vendored"),
    # a JMH benchmark by its name (gson's metrics/ module); an annotation named Benchmark is not
    ("metrics/src/main/java/com/google/gson/metrics/ParseBenchmark.java", "test"),
    ("jmh-core/src/main/java/org/openjdk/jmh/annotations/Benchmark.java", "source"),
])
def test_role_by_convention(path: str, role: str) -> None:
    assert classify.role(path) == role


def test_overrides_come_first_in_order() -> None:
    overrides = ("source:src/testing/**", "docs:site/**", "test:src/testing/x.py")
    assert classify.role("src/testing/helpers.py", overrides) == "source"
    assert classify.role("src/testing/x.py", overrides) == "source"  # first match wins
    assert classify.role("site/index.py", overrides) == "docs"
    assert classify.role("tests/test_a.py", overrides) == "test"


def test_config_roles_validate_and_name_the_bad_entry(tmp_path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[[repos]]\nurl = "/x/r"\nroles = ["source:tools/**"]\n')
    assert config.load(path).repos[0].roles == ("source:tools/**",)
    path.write_text('[[repos]]\nurl = "/x/r"\nroles = ["tests:tools/**"]\n')
    with pytest.raises(ConfigError, match=r"repos\[0\]\.roles.*'tests:tools/\*\*'"):
        config.load(path)


def test_config_role_names_are_the_classifier_roles() -> None:
    assert config.ROLE_NAMES == classify.ROLES


@pytest.mark.parametrize(("path", "sources"), [
    ("sympy/utilities/tests/test_lambdify.py",
     ("sympy/utilities/tests/lambdify.py", "sympy/utilities/lambdify.py")),
    ("pkg/foo_test.go", ("pkg/foo.go",)),
    ("src/test/java/a/FooTest.java",
     ("src/test/java/a/Foo.java", "src/java/a/Foo.java", "src/main/java/a/Foo.java")),
    ("web/__tests__/x.test.ts", ("web/__tests__/x.ts", "web/x.ts")),
    ("web/__tests__/x.js", ("web/x.js",)),
    ("lib/x.spec.js", ("lib/x.js",)),
    ("tests/test_api.py", ("tests/api.py", "api.py")),
    ("crates/io/src/codec_tests.rs", ("crates/io/src/codec.rs",)),
    ("conftest.py", ()),
    ("pkg/tests.py", ()),
    ("pkg/latest.py", ()),
    ("pkg/test_.py", ()),
])
def test_tested_sources_by_convention(path: str, sources: tuple[str, ...]) -> None:
    assert classify.tested_sources(path) == sources


@pytest.mark.parametrize(("path", "imports", "role"), [
    ("src/jinja2/tests.py", ("operator", "typing", "collections.abc", ".runtime"), "source"),
    ("src/jinja2/tests.py", None, "test"),              # imports unknown: by its name
    ("polls/tests.py", ("datetime", "django.test", ".models"), "test"),  # Django's per-app tests
    ("pkg/tests.py", ("unittest.mock",), "test"),
    ("pkg/tests.py", ("pytest", "pkg"), "test"),
    ("tests/unit/tests.py", ("operator",), "test"),     # in a test directory: a test
    ("pkg/test_x.py", ("operator",), "test"),           # test_*.py: pytest collects it
    ("api/tests.py", ("rest_framework.test", ".models"), "test"),   # DRF's test client
    ("api/tests.py", ("pytest_django.asserts",), "test"),
    ("api/tests.py", ("api.tests.factories",), "test"),
])
def test_a_tests_module_importing_no_test_framework_is_source(
        path: str, imports: tuple[str, ...] | None, role: str) -> None:
    assert classify.role(path, imports=imports) == role



TREE = ("tornado/test/util.py", "tornado/test/web_test.py", "tornado/test/gen_test.py",
        "tornado/test/ioloop_test.py", "tornado/test/static/sample.py",
        "tornado/web.py", "django/test/client.py", "django/test/utils.py",
        "Lib/test/support/__init__.py", "Lib/test/test_os.py", "Lib/test/test_re.py", "Lib/test/test_io.py",
        "maint/test/mypy/good.py", "src/Polly.Core.Tests/RetryTests.cs", "src/Polly.Core.Tests/PoolTests.cs",
        "src/Polly.Core.Tests/TimeoutTests.cs", "pkg/testing/__init__.py",
        # a testing library with a test of its own beside it: no suite (a review)
        "pkg/testing/test_helpers.py", "pkg/testing/helpers.py")


def test_test_suites_are_the_directories_of_files_named_as_tests() -> None:
    assert classify.test_suites(TREE) == {"tornado/test", "Lib/test", "src/Polly.Core.Tests"}


@pytest.mark.parametrize(("path", "alone", "in_tree"), [
    # tornado's suite keeps its helpers beside its *_test.py: a newcomer saw util.py's
    # `_detect_ipv6` (role source) above the answer to an IPv6 question
    ("tornado/test/util.py", "source", "test"),
    ("tornado/test/static/sample.py", "source", "test"),        # under the suite's directory
    ("Lib/test/support/__init__.py", "source", "test"),
    # a package's testing library holds no tests: source either way
    ("django/test/client.py", "source", "source"),
    ("pkg/testing/__init__.py", "source", "source"),
    ("pkg/testing/helpers.py", "source", "source"),
    ("maint/test/mypy/good.py", "source", "source"),
    ("tornado/web.py", "source", "source"),
])
def test_a_testing_library_directory_holding_tests_is_a_test_suite(path: str, alone: str, in_tree: str) -> None:
    assert classify.role(path) == alone
    assert classify.role(path, suites=classify.test_suites(TREE)) == in_tree


DOCS_TREE = ("docs/en/docs/tutorial/cors.md", "docs/de/docs/tutorial/cors.md", "docs/zh/docs/tutorial/cors.md",
             "docs/pt-BR/docs/tutorial/cors.md", "docs/em/docs/tutorial/cors.md", "docs/en/mkdocs.yml",
             "site/en/index.md", "site/ui/index.md", "site/io/index.md",  # two-letter folders, no languages
             "guide/en/a.md", "guide/fr/a.md",  # one translation: too few to tell
             "fastapi/routing.py")


def test_translated_copies_are_the_language_folders_beside_an_english_one() -> None:
    """FastAPI's ``docs/{de,zh,pt-BR,..}/`` beside ``docs/en/``; ``em`` is no language."""
    assert classify.translation_dirs(DOCS_TREE) == {"docs/de", "docs/zh", "docs/pt-BR"}


def test_translations_are_excluded_unless_asked_for() -> None:
    from coderecalld.config import IndexConfig
    found = classify.translation_dirs(DOCS_TREE)
    kept = [p for p in DOCS_TREE if not classify.path_excluded(p, IndexConfig(), None, found)]
    assert kept == [p for p in DOCS_TREE if not p.startswith(("docs/de/", "docs/zh/", "docs/pt-BR/"))]
    everything = IndexConfig(skip_translations=False)
    assert all(not classify.path_excluded(p, everything, None, found) for p in DOCS_TREE)


#: requests 2.x: urllib3 and chardet bundled under ``requests/packages/``; urllib3's own
#: ``packages/six.py``; a package's own ``packages/`` subpackage (poetry-core's models) and
#: a JS monorepo's top-level ``packages/``; a project's own versioned subpackages under its
#: ``packages/`` (mytool's), which import the project beyond themselves, absolutely or
#: relatively, as a bundled copy never does.
BUNDLED = {
    "requests/__init__.py": b"__version__ = '2.7.0'\n",
    "requests/packages/__init__.py": b"from __future__ import absolute_import\n",
    "requests/packages/urllib3/__init__.py": b'"""urllib3"""\n__author__ = "x"\n__version__ = "1.10.4"\n',
    "requests/packages/urllib3/poolmanager.py": (
        b'"""\n>>> import requests\n"""\nfrom .connectionpool import HTTPConnectionPool\n'
        b"from requests.packages.urllib3.util import parse_url\nfrom ..urllib3 import exceptions\n"
        b"import urllib3.fields, os\nclass PoolManager: pass\n"),
    "requests/packages/chardet/__init__.py": b"__version__: str = '2.3.0'\n",
    "requests/packages/chardet/compat.py": b"",
    "urllib3/__init__.py": b"",
    "urllib3/packages/__init__.py": b"",
    "urllib3/packages/six.py": b'"""six"""\n__version__ = "1.9.0"\n',
    "urllib3/packages/ordered_dict.py": b"class OrderedDict(dict): pass\n",
    "poetry/__init__.py": b"",
    "poetry/core/__init__.py": b"__version__ = '1.0'\n",
    "poetry/core/packages/__init__.py": b"",
    "poetry/core/packages/package.py": b"class Package: pass\n",
    "poetry/core/packages/constraints/__init__.py": b"from .x import y\n",
    # no Python package encloses it: a top-level or a loose packages/ directory
    "packages/core/__init__.py": b"__version__ = '3.0'\n",
    "tools/packages/lib/__init__.py": b"__version__ = '0.1'\n",
    "src/mytool/__init__.py": b"__version__ = '1.2'\n",
    "src/mytool/util.py": b"def helper(): pass\n",
    "src/mytool/packages/__init__.py": b"",
    "src/mytool/packages/core/__init__.py": b"__version__ = '1.2'\nfrom .engine import run\n",
    "src/mytool/packages/core/engine.py": b"from ...util import helper\n",
    "src/mytool/packages/cli/__init__.py": b"__version__ = '0.3'\n",
    "src/mytool/packages/cli/main.py": b"import os, mytool.util as u\n",
    "src/mytool/packages/plugin.py": b"__version__ = '0.1'\nfrom . import cli\n",
}


def test_bundled_copies_are_the_versioned_packages_of_a_packages_subpackage() -> None:
    read_paths = []

    def read(path: str) -> bytes:
        read_paths.append(path)
        return BUNDLED[path]

    assert classify.vendored_packages(BUNDLED, read) == {
        "requests/packages/urllib3", "requests/packages/chardet", "urllib3/packages/six.py"}
    # only the candidates' own files are read
    assert sorted(read_paths) == sorted([
        "requests/packages/urllib3/__init__.py", "requests/packages/chardet/__init__.py",
        "urllib3/packages/six.py", "urllib3/packages/ordered_dict.py",
        "poetry/core/packages/package.py", "poetry/core/packages/constraints/__init__.py",
        "src/mytool/packages/core/__init__.py", "src/mytool/packages/cli/__init__.py",
        "src/mytool/packages/plugin.py",
        # then each .py file of a versioned candidate, for its imports
        "requests/packages/urllib3/__init__.py", "requests/packages/urllib3/poolmanager.py",
        "requests/packages/chardet/__init__.py", "requests/packages/chardet/compat.py",
        "urllib3/packages/six.py", "src/mytool/packages/core/__init__.py",
        "src/mytool/packages/core/engine.py", "src/mytool/packages/cli/__init__.py",
        "src/mytool/packages/cli/main.py", "src/mytool/packages/plugin.py"])


@pytest.mark.parametrize(("path", "role"), [
    ("requests/packages/urllib3/poolmanager.py", "vendored"),
    ("requests/packages/urllib3/__init__.py", "vendored"),
    ("requests/packages/chardet/compat.py", "vendored"),
    ("urllib3/packages/six.py", "vendored"),
    ("urllib3/packages/ordered_dict.py", "source"),
    ("requests/packages/__init__.py", "source"),
    ("poetry/core/packages/package.py", "source"),
    ("packages/core/__init__.py", "source"),
    ("src/mytool/packages/core/__init__.py", "source"),
    ("src/mytool/packages/core/engine.py", "source"),
    ("src/mytool/packages/cli/__init__.py", "source"),
    ("src/mytool/packages/plugin.py", "source"),
])
def test_a_file_of_a_bundled_copy_is_vendored(path: str, role: str) -> None:
    vendored = classify.vendored_packages(BUNDLED, BUNDLED.__getitem__)
    assert classify.role(path, vendored=vendored) == role
    assert classify.role(path) == "source"
    # a repo's own override still wins
    assert classify.role(path, ("source:requests/**",), vendored=vendored) == (
        "source" if path.startswith("requests/") else role)


@pytest.mark.parametrize(("path", "role"), [
    (".github/actions/comment-docs-preview-in-pr/app/main.py", "config"),
    (".github/scripts/notify.js", "config"),
    (".github/workflows/test.yml", "config"),
    (".circleci/config.yml", "config"),
    (".github/CONTRIBUTING.md", "docs"),
    (".github/scripts/test_notify.py", "test"),
    ("src/github/client.py", "source"),
    # a CI directory at the top, and a Cargo build script (ripgrep's ci/build-deb and
    # build.rs led issues by their forms' version words: a newcomer)
    ("ci/build-deb", "config"),
    ("ci/before_deploy.sh", "config"),
    (".ci/run", "config"),
    ("ci/README.md", "docs"),
    ("build.rs", "config"),
    ("crates/cli/build.rs", "config"),
    ("pkg/ci/runner.go", "source"),  # deeper, a package's own module
    ("src/build.rs", "source"),  # a module named build
    ("crates/core/src/build.rs", "source"),
    ("scripts/ci/prepare.py", "config"),  # airflow's, numpy's tools/ci/ (a review)
    ("tools/ci/push_docs.sh", "config"),
    ("scripts/release.py", "source"),
    (".jenkins/build.sh", "config"),
    ("libsqlite3-sys/build.rs", "source"),  # a -sys crate's build script links its library
    ("lib/build.rs", "source"),
    # a build's copy of the source for Deno (zod's deno/lib/, denoify's deno_dist/: a newcomer)
    ("deno/lib/types.ts", "generated"),
    ("deno_dist/hono.ts", "generated"),
    ("packages/x/deno_dist/mod.ts", "generated"),
    ("src/adapter/deno/serve-static.ts", "source"),
    ("deno/mod.ts", "source"),
])
def test_a_forge_or_ci_directory_or_a_build_copy_has_its_role(path: str, role: str) -> None:
    assert classify.role(path) == role
