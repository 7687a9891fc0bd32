"""Cross-repo call resolution for Kotlin (index/resolve_kotlin): a library repo and an app
repo importing it, indexed together without embeddings; exact call sites and labels through
``find_callers``, a call on a known other type left out and counted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance_cases import Daemon, daemon
from coderecalld.config import RepoConfig
from gitfixtures import GitRepo

CORE = {
    "src/main/kotlin/com/acme/core/Shapes.kt": """package com.acme.core

interface Shape {
    fun area(): Double
}

open class Base {
    fun describe(): String = "base"
}

class Circle : Base(), Shape {
    override fun area(): Double = 3.0
}
""",
}

APP = {
    "src/main/kotlin/com/acme/app/Geometry.kt": """package com.acme.app

import com.acme.core.Circle
import com.acme.core.Shape

class Geometry(private val circle: Circle) {
    fun total(shape: Shape, plot: Plot): Double {
        val c = Circle()
        val a = c.area() + shape.area()
        plot.area()
        this.circle.describe()
        return a + circle.area()
    }
}

class Plot {
    fun area(): Double = 1.0
}
""",
}
GEOMETRY = "src/main/kotlin/com/acme/app/Geometry.kt"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("kotlin")
    configs = []
    for name, files in {"kcore": CORE, "kapp": APP}.items():
        repo = GitRepo(tmp / "src" / name)
        repo.commit(files, "import")
        configs.append(RepoConfig(name, str(repo.path)))
    with daemon(tmp, *configs) as d:
        for cfg in configs:
            d.pipeline.index_repo(d.cfg.repo(cfg.name), with_dense=False)
        yield d


def sites(running: Daemon, name: str, omitted: dict[str, int] | None = None) -> list[tuple]:
    return sorted((h.repo, h.path, h.line, h.caller, h.target, h.confidence)
                  for h in running.service.find_callers(name, limit=100, omitted=omitted))


def test_kotlin_typed_receivers_interfaces_and_inherited_methods(running: Daemon) -> None:
    omitted: dict[str, int] = {}
    assert sites(running, "com.acme.core.Circle.area", omitted) == [
        ("kapp", GEOMETRY, 9, "Geometry.total", "com.acme.core.Circle.area", "resolved"),  # val c = Circle()
        ("kapp", GEOMETRY, 9, "Geometry.total", "com.acme.core.Shape.area", "override"),  # a Shape parameter
        ("kapp", GEOMETRY, 12, "Geometry.total", "com.acme.core.Circle.area", "resolved"),  # a property
    ]
    assert omitted == {"other_type": 1}  # plot.area() on the app's own Plot
    assert sites(running, "Plot.area") == [
        ("kapp", GEOMETRY, 10, "Geometry.total", "com.acme.app.Plot.area", "resolved")]
    # this.circle.describe(): Circle inherits Base.describe.
    assert sites(running, "com.acme.core.Base.describe") == [
        ("kapp", GEOMETRY, 11, "Geometry.total", "com.acme.core.Circle.describe", "inherited")]
    # Circle() is the class.
    assert sites(running, "com.acme.core.Circle") == [
        ("kapp", GEOMETRY, 8, "Geometry.total", "com.acme.core.Circle", "resolved")]
