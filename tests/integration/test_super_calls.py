"""``super().m()`` runs the base class's ``m``, never an override of it: such a call is no
caller of the override (``callgraph._super_call``). marshmallow's ``callers
Integer._validated`` listed the ``super()._validated`` calls of ``Integer``, ``Float`` and
``Decimal``, all of which run ``Number._validated``. Real git fixture, real embedded store."""

from __future__ import annotations

from pathlib import Path

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FIELDS = '''\
class Number:
    def _validated(self, value):
        return value


class Integer(Number):
    def _validated(self, value):
        return int(super()._validated(value))


class Float(Number):
    def _validated(self, value):
        return float(super(Float, self)._validated(value))


def check(field: Number, value):
    return field._validated(value)
'''

JS = '''\
export class Base {
  run() { return 1; }
}

export class Child extends Base {
  run() { return super.run() + 1; }
}

export class Sibling extends Base {
  run() { return super.run() + 2; }
}

export function go(base: Base) {
  return base.run();
}
'''


def test_a_super_call_is_no_caller_of_an_override(tmp_path: Path) -> None:
    with indexed(tmp_path, {"pkg/fields.py": FIELDS, "src/runner.ts": JS}) as d:
        omitted: dict[str, int] = {}
        py = [(s.caller, s.confidence) for s in d.service.find_callers("Integer._validated", repo="fx",
                                                                         omitted=omitted)]
        py_other = omitted.get("other_type", 0)
        base = {(s.caller, s.confidence) for s in d.service.find_callers("Number._validated", repo="fx")}
        js = [(s.caller, s.confidence) for s in d.service.find_callers("Child.run", repo="fx")]
    # the typed call may dispatch to Integer's override; the super() calls may not
    assert py == [("check", "override")]
    assert py_other == 2
    # the base's own callers keep them: super() runs Number._validated
    assert {("Integer._validated", "resolved"), ("Float._validated", "resolved")} <= base
    assert js == [("go", "override")]


RELOADER = '''\
class ReloaderLoop:
    def run(self):
        while True:
            self.run_step()

    def run_step(self):
        pass

    def trigger_reload(self):
        raise SystemExit(3)


class StatReloaderLoop(ReloaderLoop):
    def run_step(self):
        if self.changed():
            self.trigger_reload()

    def changed(self):
        return True


class WatchdogReloaderLoop(ReloaderLoop):
    def trigger_reload(self):
        print("reloading")
        super().trigger_reload()


class NoisyLoop(WatchdogReloaderLoop):
    def run_step(self):
        self.trigger_reload()
'''


def test_a_sibling_class_own_call_is_no_caller_of_an_override(tmp_path: Path) -> None:
    with indexed(tmp_path, {"pkg/reloader.py": RELOADER}) as d:
        omitted: dict[str, int] = {}
        watchdog = sorted((s.caller, s.line, s.confidence) for s in d.service.find_callers(
            "WatchdogReloaderLoop.trigger_reload", repo="fx", omitted=omitted))
        base = sorted((s.caller, s.line, s.confidence) for s in d.service.find_callers(
            "ReloaderLoop.run_step", repo="fx"))
        stat = sorted((s.caller, s.line, s.confidence) for s in d.service.find_callers(
            "StatReloaderLoop.run_step", repo="fx"))
    # StatReloaderLoop's self is never a WatchdogReloaderLoop (werkzeug's sibling loops);
    # a subclass's own call resolves to the override
    assert watchdog == [("NoisyLoop.run_step", 30, "resolved")]
    assert omitted.get("other_type", 0) >= 1
    # the base's own call of its method may run any override: a template method stays
    assert base == [("ReloaderLoop.run", 4, "resolved")]
    assert stat == [("ReloaderLoop.run", 4, "override")]


SPLIT = '''\
from pkg.base import OutputMixin


class GroupsMixin:
    def split(self, X, y=None, groups=None):
        return self._split(X)


class BaseKFold:
    def __init__(self, n_splits, *, shuffle=False):
        self.n_splits = n_splits
        self.shuffle = shuffle


class KFold(GroupsMixin, BaseKFold):
    def __init__(self, n_splits=5):
        super().__init__(n_splits=n_splits)


class Ridge(OutputMixin, BaseKFold):
    def __init__(self):
        super(Ridge, self).__init__(3)

    def fit(self, X):
        return super().fit(X)


class Chained(GroupsMixin, KFold):
    def __init__(self):
        super().__init__()


class Nested(GroupsMixin, BaseKFold):
    def fit(self):
        def inner():
            return super(Nested, self).fit()
        return inner
'''

BASE = '''\
class OutputMixin:
    def _more_tags(self):
        return {"multioutput": True}


class Estimator:
    def fit(self, X):
        return self
'''

RIDGE = '''\
from pkg.base import OutputMixin, Estimator


class BaseRidge(Estimator):
    pass


class RidgeCV(OutputMixin, BaseRidge):
    def fit(self, X):
        return super().fit(X)
'''


def test_a_super_call_reaches_the_first_base_that_has_the_method(tmp_path: Path) -> None:
    """``class KFold(GroupsMixin, BaseKFold)``: ``super().__init__`` runs ``BaseKFold``'s, the
    mixin listed first having none (Python's MRO). scikit-learn lists its mixins first: its
    ``callers _BaseKFold.__init__`` missed KFold's, ``callees KFold.__init__`` named
    ``_UnsupportedGroupCVMixin.__init__``, which does not exist (a newcomer)."""
    files = {"pkg/split.py": SPLIT, "pkg/base.py": BASE, "pkg/ridge.py": RIDGE}
    with indexed(tmp_path, files) as d:
        base = sorted((s.caller, s.line, s.confidence) for s in d.service.find_callers(
            "BaseKFold.__init__", repo="fx"))
        kfold = sorted((s.caller, s.line, s.confidence) for s in d.service.find_callers(
            "KFold.__init__", repo="fx"))
        fit = sorted((s.path, s.caller, s.line, s.confidence) for s in d.service.find_callers(
            "Estimator.fit", repo="fx"))
        callees = {s.callee: s.target for s in d.service.find_callees("KFold.__init__", repo="fx")}
        # a super() call in a function nested in a method: its "class" is the method (a review's crash)
        nested = [s.callee for s in d.service.find_callees("Nested.fit.inner", repo="fx")]
        ridge_callees = {s.callee: s.target for s in d.service.find_callees("RidgeCV.fit", repo="fx")}
    # KFold's (first base GroupsMixin has no __init__) and Ridge's (the imported mixin has
    # none either); Chained's reaches KFold.__init__, which KFold defines
    assert base == [("KFold.__init__", 17, "resolved"), ("Ridge.__init__", 22, "resolved")]
    assert kfold == [("Chained.__init__", 30, "resolved")]
    # RidgeCV's super().fit: OutputMixin has none, BaseRidge inherits Estimator's;
    # Ridge's super().fit reaches no fit at all (BaseKFold has none): not a caller
    assert fit == [("pkg/ridge.py", "RidgeCV.fit", 10, "inherited")]
    assert callees == {"super": "", "__init__": "pkg.split.BaseKFold.__init__"}
    assert sorted(nested) == ["fit", "super"]
    assert ridge_callees == {"super": "", "fit": "pkg.ridge.BaseRidge.fit"}


BUILTIN_BASES = '''\
class QuerySet:
    def __getitem__(self, k):
        return k


class Row(list):
    def __getitem__(self, i):
        return super().__getitem__(i)


class Options(dict):
    def get(self, k):
        return super(Options, self).__getitem__(k)


def first(rows):
    return rows.__getitem__(0)
'''


def test_a_super_call_on_a_builtin_base_is_the_builtins(tmp_path: Path) -> None:
    """``class Row(list)``: ``super().__getitem__(i)`` is ``list``'s, no caller of a
    project's ``QuerySet.__getitem__`` (django's ``datastructures.py``; a newcomer); an
    untyped ``rows.__getitem__(0)`` stays a candidate."""
    with indexed(tmp_path, {"pkg/query.py": BUILTIN_BASES}) as d:
        omitted: dict[str, int] = {}
        found = [(s.caller, s.confidence) for s in d.service.find_callers(
            "QuerySet.__getitem__", repo="fx", omitted=omitted)]
        targets = {s.callee: s.target for s in d.service.find_callees("Row.__getitem__", repo="fx")}
    assert found == [("first", "name_only")]
    assert omitted.get("other_type") == 2
    assert targets == {"super": "", "__getitem__": "builtins.list.__getitem__"}


FIELDS_MRO = {
    "pkg/fields.py": "class Field:\n    def deconstruct(self):\n        return 1\n\n\nclass IntegerField(Field):\n    pass\n",
    "pkg/mixins.py": "class AutoFieldMixin:\n    def deconstruct(self):\n        return 2\n",
    "pkg/auto.py": ("from pkg.fields import IntegerField\nfrom pkg.mixins import AutoFieldMixin\n\n\n"
                    "class AutoField(AutoFieldMixin, IntegerField):\n    pass\n\n\n"
                    "class BigField(IntegerField):\n    pass\n"),
    "pkg/use.py": ("from pkg.auto import AutoField, BigField\n\n\n"
                   "def use():\n    AutoField().deconstruct()\n    BigField().deconstruct()\n"),
}


def test_a_subclass_whose_first_base_has_the_method_does_not_inherit_the_later_ones(tmp_path: Path) -> None:
    """``class AutoField(AutoFieldMixin, IntegerField)`` runs ``AutoFieldMixin.deconstruct``
    (Python's MRO): ``AutoField().deconstruct()`` is no inherited caller of
    ``Field.deconstruct`` (django's field tests; a newcomer), ``BigField``'s is."""
    with indexed(tmp_path, FIELDS_MRO) as d:
        field = [(s.line, s.confidence) for s in d.service.find_callers("Field.deconstruct", repo="fx")]
        mixin = [(s.line, s.confidence) for s in d.service.find_callers("AutoFieldMixin.deconstruct", repo="fx")]
    assert field == [(6, "inherited")]
    assert mixin == [(5, "inherited")]


THREADS = {
    "pkg/base.py": "class Base:\n    def __init__(self):\n        self.ready = True\n",
    "pkg/mixins.py": ("import threading\nfrom abc import ABC\n\n\nclass ThreadMixin(threading.Thread):\n    pass\n\n\n"
                      "class Plain(ABC):\n    pass\n"),
    "pkg/workers.py": ("from pkg.base import Base\nfrom pkg.mixins import Plain, ThreadMixin\n\n\n"
                       "class Worker(ThreadMixin, Base):\n    def __init__(self):\n        super().__init__()\n\n\n"
                       "class Job(Plain, Base):\n    def __init__(self):\n        super().__init__()\n"),
}


def test_a_first_base_of_another_packages_class_may_have_the_method(tmp_path: Path) -> None:
    """``class Worker(ThreadMixin, Base)`` with ``ThreadMixin(threading.Thread)``:
    ``super().__init__()`` runs ``Thread.__init__``, no call of ``Base.__init__`` (a
    review); ``Plain(ABC)`` has none, so ``Job``'s reaches ``Base.__init__``."""
    with indexed(tmp_path, THREADS) as d:
        found = [(s.caller, s.confidence) for s in d.service.find_callers("Base.__init__", repo="fx")]
    assert found == [("Job.__init__", "resolved")]


MIXED_BASES = '''\
class Mixin:
    def extra(self):
        return 1


class Row(dict, Mixin):
    def extra(self):
        return super().extra()
'''


def test_a_builtin_first_base_before_a_mixin_may_reach_the_mixin(tmp_path: Path) -> None:
    """``class Row(dict, Mixin)``: ``dict`` has no ``extra``, so ``super().extra()`` runs the
    mixin's; it is no call on ``builtins.dict`` (a review)."""
    with indexed(tmp_path, {"pkg/rows.py": MIXED_BASES}) as d:
        found = [(s.caller, s.confidence) for s in d.service.find_callers("Mixin.extra", repo="fx")]
    assert found == [("Row.extra", "name_only")]


def test_a_spent_budget_says_nothing_of_what_a_base_has(tmp_path: Path, monkeypatch) -> None:
    """Past the lookup budget no base's methods are read: whether a mixin has ``m`` is not
    known then, and a ``super()`` call stored under it is not moved past it (every facet
    answered nothing, so every base looked as if it had no method; a reread)."""
    from coderecalld.query import callgraph
    with indexed(tmp_path, {"pkg/split.py": SPLIT, "pkg/base.py": BASE, "pkg/ridge.py": RIDGE}) as d:
        with callgraph.budget() as spent:
            spent.left, spent.cut = 0, True
            assert callgraph._reaches(d.service.store, callgraph.StoreFilter(repos=("fx",)),
                                      "pkg.split.GroupsMixin", "__init__") is None
        assert callgraph._reaches(d.service.store, callgraph.StoreFilter(repos=("fx",)),
                                  "pkg.split.GroupsMixin", "__init__") is False
