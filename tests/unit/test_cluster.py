"""Replica sharding (DESIGN.md decision 9): which replica owns which repo, the ordinal from
the host name, the ``[cluster]`` config, and the scheduler only syncing owned repos."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from coderecalld import config
from coderecalld.errors import ConfigError, InvalidArgument
from coderecalld.index.pipeline import IndexReport
from coderecalld.ops import cluster
from coderecalld.ops.jobs import Jobs
from coderecalld.store.base import Settled

NAMES = ("acme/api", "acme/web", "tools", "stdlib", "acme/billing", "infra/terraform", "docs",
         "coderecall")
#: Owner of each of NAMES for 2, 3 and 5 replicas, written down from
#: ``int(sha256(name).hexdigest(), 16) % replicas`` (a salted ``hash()`` would not give these).
EXPECTED = {
    2: (0, 1, 1, 0, 1, 1, 1, 1),
    3: (1, 1, 0, 1, 1, 1, 0, 0),
    5: (4, 2, 0, 1, 2, 0, 2, 1),
}


@pytest.mark.parametrize("replicas", sorted(EXPECTED))
def test_shard_of_is_sha256_mod_replicas(replicas: int) -> None:
    assert tuple(cluster.shard_of(n, replicas) for n in NAMES) == EXPECTED[replicas]
    assert tuple(int(hashlib.sha256(n.encode()).hexdigest(), 16) % replicas
                 for n in NAMES) == EXPECTED[replicas]


@pytest.mark.parametrize("replicas", [1, 2, 3, 4, 5])
def test_every_repo_has_exactly_one_owner(replicas: int) -> None:
    names = [f"org/repo-{i}" for i in range(200)] + list(NAMES)
    for name in names:
        owners = [o for o in range(replicas) if cluster.owns(name, replicas, o)]
        assert len(owners) == 1, (name, owners)
    per_replica = [sum(cluster.owns(n, replicas, o) for n in names) for o in range(replicas)]
    assert sum(per_replica) == len(names)
    assert min(per_replica) > 0  # 208 names spread over at most 5 replicas: none left idle


def test_shard_of_rejects_zero_replicas() -> None:
    with pytest.raises(ValueError, match="replicas must be >= 1, got 0"):
        cluster.shard_of("x", 0)


@pytest.mark.parametrize(("hostname", "ordinal"), [
    ("coderecall-2", 2), ("coderecall-0", 0), ("my-release-coderecall-11", 11),
    ("coderecall-2.coderecall-headless.default.svc.cluster.local", 2),
    ("foo", 0), ("coderecall-", 0), ("web-1a", 0), ("", 0),
])
def test_ordinal_from_hostname(hostname: str, ordinal: int) -> None:
    assert cluster.ordinal_from_hostname(hostname) == ordinal


def test_resolve_derives_the_ordinal_from_the_hostname() -> None:
    assert cluster.Shard.resolve(3, -1, hostname="coderecall-2") == cluster.Shard(3, 2)
    assert cluster.Shard.resolve(3, -1, hostname="foo") == cluster.Shard(3, 0)
    assert cluster.Shard.resolve(3, 1, hostname="coderecall-2") == cluster.Shard(3, 1)  # explicit wins
    # One replica owns everything; the host name is not even read.
    assert cluster.Shard.resolve(1, -1, hostname="runner-7") == cluster.Shard(1, 0)


def test_resolve_rejects_a_hostname_ordinal_outside_the_replicas() -> None:
    with pytest.raises(ConfigError, match=r"cluster\.ordinal: host name 'coderecall-3' gives "
                                          r"ordinal 3, but cluster\.replicas is 3"):
        cluster.Shard.resolve(3, -1, hostname="coderecall-3")


def test_shard_owns_matches_the_table() -> None:
    shard = cluster.Shard(3, 0)
    assert [n for n in NAMES if shard.owns(n)] == ["tools", "docs", "coderecall"]


# --- [cluster] config ----------------------------------------------------------------------

def _load(tmp_path: Path, env: dict[str, str] | None = None, body: str = "") -> config.Config:
    path = tmp_path / "c.toml"
    path.write_text(f'data_dir = "{tmp_path}"\n{body}')
    return config.load(path, env=env or {})


def test_cluster_defaults(tmp_path: Path) -> None:
    assert _load(tmp_path).cluster == config.ClusterConfig(replicas=1, ordinal=-1)


def test_cluster_from_file_and_env(tmp_path: Path) -> None:
    cfg = _load(tmp_path, body="[cluster]\nreplicas = 4\nordinal = 1\n")
    assert (cfg.cluster.replicas, cfg.cluster.ordinal) == (4, 1)
    env = {"CODERECALL_CLUSTER__REPLICAS": "3", "CODERECALL_CLUSTER__ORDINAL": "2"}
    assert _load(tmp_path, env).cluster == config.ClusterConfig(replicas=3, ordinal=2)


def test_empty_env_ordinal_means_derive_from_hostname(tmp_path: Path) -> None:
    env = {"CODERECALL_CLUSTER__REPLICAS": "3", "CODERECALL_CLUSTER__ORDINAL": ""}
    assert _load(tmp_path, env).cluster == config.ClusterConfig(replicas=3, ordinal=-1)


@pytest.mark.parametrize(("body", "message"), [
    ("replicas = 0", "cluster.replicas: must be >= 1, got 0"),
    ("replicas = -2", "cluster.replicas: must be >= 1, got -2"),
    ("replicas = 3\nordinal = 3", "cluster.ordinal: must be < cluster.replicas (3), got 3"),
    ("ordinal = 1", "cluster.ordinal: must be < cluster.replicas (1), got 1"),
    ("replicas = 3\nordinal = -2", "cluster.ordinal: must be >= 0, or -1 for the host name's, got -2"),
    ("replicas = 'three'", "cluster.replicas: expected int, got 'three'"),
    ("shards = 2", "cluster.shards: unknown configuration key"),
])
def test_bad_cluster_config_names_the_key(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, body=f"[cluster]\n{body}\n")
    assert str(info.value) == message


# --- the scheduler syncs only owned repos ------------------------------------------------

class _SettledStore:
    def __init__(self) -> None:
        self.settled = 0

    def settle(self, now: bool = False) -> Settled:
        assert now  # after a sync, while serving
        self.settled += 1
        return Settled()


class _FakePipeline:
    embedder = None  # embeddings off: no dense backlog to report

    def __init__(self) -> None:
        self.indexed: list[str] = []
        self.store = _SettledStore()

    def index_repo(self, repo: config.RepoConfig, with_dense: bool) -> IndexReport:
        self.indexed.append(repo.name)
        return IndexReport(repo=repo.name)

    def embed_backlog(self, max_points: int = 1_000_000) -> int:
        return 0

    def stop(self) -> None:
        pass


def _jobs(tmp_path: Path, ordinal: int) -> tuple[Jobs, _FakePipeline]:
    repos = "".join(f'[[repos]]\nname = "{n}"\nurl = "/nowhere/{i}"\n' for i, n in enumerate(NAMES))
    cfg = _load(tmp_path, body=f"[cluster]\nreplicas = 3\nordinal = {ordinal}\n{repos}")
    pipeline = _FakePipeline()
    return Jobs(cfg, pipeline), pipeline  # type: ignore[arg-type]


def test_jobs_schedule_only_owned_repos(tmp_path: Path) -> None:
    jobs, _ = _jobs(tmp_path, ordinal=0)
    jobs.start()
    try:
        scheduled = sorted(j.id for j in jobs._scheduler.get_jobs())
    finally:
        jobs.shutdown()
    assert scheduled == ["optimize", "sync:coderecall", "sync:docs", "sync:tools", "verify"]


def test_dense_backlog_is_limited_to_owned_repos(tmp_path: Path) -> None:
    jobs, pipeline = _jobs(tmp_path, ordinal=0)
    assert pipeline.backlog_repos == ("tools", "docs", "coderecall")  # replica 0's, in config order
    single = Jobs(_load(tmp_path, body='[[repos]]\nname = "a"\nurl = "/nowhere/a"\n'), _FakePipeline())
    assert getattr(single.pipeline, "backlog_repos", ()) == ()  # one replica: left as the pipeline set it


def test_run_now_skips_and_sync_refuses_a_repo_of_another_replica(tmp_path: Path) -> None:
    jobs, pipeline = _jobs(tmp_path, ordinal=0)
    assert jobs.run_now("acme/api") is None  # replica 1's
    assert jobs.run_now("tools").repo == "tools"
    with pytest.raises(InvalidArgument, match="sync: repo 'stdlib' is indexed by replica 1, "
                                              "this is replica 0"):
        jobs.sync("stdlib")
    assert pipeline.indexed == ["tools"]
    assert pipeline.store.settled == 1  # after its one sync, not for the skipped repos


def test_sync_failures_gauge_counts_consecutive_failures_of_owned_repos(tmp_path: Path) -> None:
    from coderecalld import metrics
    from coderecalld.records import RepoState
    from prometheus_client import REGISTRY

    metrics.SYNC_FAILURES.clear()  # process-wide: other tests' daemons set their repos' series
    jobs, pipeline = _jobs(tmp_path, ordinal=0)
    states = iter([RepoState.ERROR, RepoState.ERROR, RepoState.READY])

    def index_repo(repo: config.RepoConfig, with_dense: bool) -> IndexReport:
        return IndexReport(repo=repo.name, state=next(states))

    pipeline.index_repo = index_repo  # type: ignore[method-assign]
    seen = []
    for _ in range(3):
        jobs.run_now("docs", with_dense=False)
        seen.append(REGISTRY.get_sample_value("coderecall_repo_sync_failures", {"repo": "docs"}))
    assert seen == [1.0, 2.0, 0.0]
    jobs.run_now("acme/web", with_dense=False)  # replica 1's: never run, never reported here
    assert REGISTRY.get_sample_value("coderecall_repo_sync_failures", {"repo": "acme/web"}) is None


def test_start_reports_every_owned_repo_at_zero_and_only_those(tmp_path: Path) -> None:
    from coderecalld import metrics
    from prometheus_client import REGISTRY

    metrics.sync_failures("left-over", 4)  # a series from an earlier daemon in this process
    jobs, _ = _jobs(tmp_path, ordinal=0)
    jobs.start()
    jobs.shutdown()
    values = {name: REGISTRY.get_sample_value("coderecall_repo_sync_failures", {"repo": name})
              for name in (*NAMES, "left-over")}
    assert values == {n: (0.0 if n in ("tools", "docs", "coderecall") else None)
                      for n in (*NAMES, "left-over")}
