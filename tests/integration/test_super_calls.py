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
