"""A daemon served in-process the way ``coderecalld serve`` wires it: gRPC on a free
loopback port, ``/metrics`` and webhooks through ``httpserve.start``, jobs optionally
started. Plus a Prometheus text scraper."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from coderecall import Client
from coderecalld.config import Config
from coderecalld.daemon import Daemon
from coderecalld.ops import httpserve
from coderecalld.server.app import build_server
from prometheus_client.parser import text_string_to_metric_families


@dataclass
class Live:
    daemon: Daemon
    server: object
    addr: str
    ops: httpserve.Ops
    client: Client

    def close(self) -> None:
        self.client.close()
        self.daemon.progress.close()
        self.server.stop(0).wait()  # type: ignore[attr-defined]
        self.daemon.close()  # closes ops too


def start(cfg: Config, trigger: Callable[[Daemon], Callable[[str], bool]] | None = None,
          index_first: bool = True, start_jobs: bool = False, authenticator: object = None) -> Live:
    """Open ``cfg``'s daemon, bind gRPC and the HTTP doors, index every repo (lexical), serve."""
    daemon = Daemon.open(cfg)
    try:
        server, port = build_server(daemon.service, "127.0.0.1:0", authenticator=authenticator)
        daemon.ops = httpserve.start(cfg, trigger(daemon) if trigger else daemon.jobs.trigger)
        if index_first:
            for repo in cfg.repos:
                daemon.jobs.run_now(repo.name, with_dense=False)
        server.start()
        if start_jobs:
            daemon.jobs.start()
    except BaseException:
        daemon.close()
        raise
    addr = f"127.0.0.1:{port}"
    return Live(daemon, server, addr, daemon.ops, Client(addr, timeout_s=30))


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(port: int) -> Samples:
    """``GET /metrics`` on loopback: ``{(sample name, sorted labels): value}``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        assert response.status == 200
        text = response.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value; 0.0 when the series is absent (a counter not yet incremented)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)
