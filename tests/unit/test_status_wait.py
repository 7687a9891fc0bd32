"""``coderecall status --watch`` waits for a daemon that is starting (cli.repos_when_up)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from coderecall._errors import UnavailableError
from coderecall.cli import repos_when_up


@dataclass
class Repo:
    name: str


class StartingDaemon:
    """Unreachable for its first ``down`` calls, then lists two repos."""

    def __init__(self, down: int) -> None:
        self.down = down
        self.calls = 0

    def list_repos(self) -> list[Repo]:
        self.calls += 1
        if self.calls <= self.down:
            raise UnavailableError("UNAVAILABLE", "connection refused", "127.0.0.1:1")
        return [Repo("flask"), Repo("requests")]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def sleep(self, s: float) -> None:
        self.slept.append(s)
        self.now += s


def test_waits_while_the_port_is_closed_then_lists_the_repos() -> None:
    clock, daemon = Clock(), StartingDaemon(down=3)
    assert repos_when_up(daemon, 10.0, clock.sleep, lambda: clock.now) == ["flask", "requests"]
    assert (daemon.calls, clock.slept) == (4, [0.2, 0.2, 0.2])


def test_gives_up_after_the_wait_naming_the_address() -> None:
    clock, daemon = Clock(), StartingDaemon(down=1000)
    with pytest.raises(UnavailableError) as info:
        repos_when_up(daemon, 1.0, clock.sleep, lambda: clock.now)
    assert "127.0.0.1:1" in str(info.value)
    assert daemon.calls == 6 and clock.now == pytest.approx(101.0)  # 5 sleeps of 0.2 s, then it gives up
