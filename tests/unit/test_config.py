from pathlib import Path

import pytest
from coderecalld import config
from coderecalld.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "coderecall.toml"
    path.write_text(text)
    return path


def test_file_values_and_env_override(tmp_path: Path) -> None:
    path = write(tmp_path, f'''
data_dir = "{tmp_path}/data"
[server]
listen = "127.0.0.1:6000"
[[repos]]
name = "stdlib"
url = "/src/lib"
branch = "main"
''')
    cfg = config.load(path, env={"CODERECALL_SERVER__LISTEN": "0.0.0.0:7000",
                                 "CODERECALL_EMBEDDING__BATCH_SIZE": "8",
                                 "CODERECALL_INDEX__EXCLUDE": "vendor/**, build/**"})
    assert cfg.data_dir == tmp_path / "data"
    assert cfg.server.listen == "0.0.0.0:7000"
    assert cfg.embedding.batch_size == 8
    assert cfg.index.exclude == ("vendor/**", "build/**")
    assert cfg.repos == (config.RepoConfig("stdlib", "/src/lib", "main"),)
    assert cfg.repo("stdlib").url == "/src/lib"
    assert cfg.repo("other") is None


@pytest.mark.parametrize("text, env, key", [
    ('[server]\nlisten = "nohost"', {}, "server.listen"),
    ('[server]\nlisten = "127.0.0.1:99999"', {}, "server.listen"),
    ('', {"CODERECALL_EMBEDDING__BATCH_SIZE": "many"}, "embedding.batch_size"),
    ('', {"CODERECALL_EMBEDDING__BATCH_SIZE": "0"}, "embedding.batch_size"),
    ('[index]\nmax_file_bytes = -1', {}, "index.max_file_bytes"),
    ('colour = "blue"', {}, "colour"),
    ('[server]\nport = 1', {}, "server.port"),
    ('[[repos]]\nname = "x"', {}, "repos[0].url"),
    ('[[repos]]\nurl = "/a"\n[[repos]]\nurl = "/b/a"', {}, "repos.name"),
    ('log_format = "xml"', {}, "log_format"),
    ('', {"CODERECALL_EMBEDDING__ENABLED": "perhaps"}, "embedding.enabled"),
])
def test_bad_values_name_the_key(tmp_path: Path, text: str, env: dict, key: str) -> None:
    with pytest.raises(ConfigError) as err:
        config.load(write(tmp_path, text), env=env)
    assert str(err.value).startswith(key)


def test_missing_file_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        config.load(tmp_path / "nope.toml", env={})
    with pytest.raises(ConfigError, match="not valid TOML"):
        config.load(write(tmp_path, "data_dir = "), env={})


def test_defaults_without_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    cfg = config.load(None, env={}, extra_repos=(config.RepoConfig("r", "/x"),))
    assert cfg.data_dir == tmp_path / "coderecall"
    assert cfg.server.listen == "127.0.0.1:50551"
    assert cfg.embedding.max_tokens == 256
    assert [r.name for r in cfg.repos] == ["r"]


@pytest.mark.parametrize("url, name", [
    ("https://github.com/org/widgets.git", "widgets"),
    ("/home/me/src/lib/", "lib"),
    ("file:///srv/git/my repo", "my-repo"),
])
def test_repo_name_from_url(url: str, name: str) -> None:
    assert config.repo_name_from_url(url) == name


def test_repo_include_exclude_globs(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[index]\nskip_vendored = false\n[[repos]]\nname = "a"\nurl = "/x"\n'
                    'include = ["src/**", "lib/**"]\nexclude = ["**/test_*.py"]\n')
    cfg = config.load(path, env={})
    assert (cfg.repos[0].include, cfg.repos[0].exclude, cfg.index.skip_vendored) == (
        ("src/**", "lib/**"), ("**/test_*.py",), False)
    path.write_text('[[repos]]\nurl = "/x"\ninclude = "src/**"\nexclude = [1]\n')
    with pytest.raises(ConfigError, match=r"repos\[0\]\.exclude: expected tuple, got \[1\]"):
        config.load(path, env={})


@pytest.mark.parametrize(("path", "excluded"), [
    ("src/a.py", False), ("node_modules/x/i.js", True), ("web/node_modules/r/i.js", True),
    ("pkg/vendor/y.go", True), ("vendored/y.go", False), ("third_party/z/z.c", True),
    (".venv/lib/site.py", True), ("src/venv_utils.py", False),
])
def test_vendored_default(path: str, excluded: bool) -> None:
    from coderecalld.files import classify

    assert classify.path_excluded(path, config.IndexConfig()) is excluded
    assert classify.path_excluded(path, config.IndexConfig(skip_vendored=False)) is False
