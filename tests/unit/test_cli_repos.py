"""``coderecalld serve|index --repo``: a repo is named after its path's last part, or as
given (``NAME=PATH_OR_URL``); two of one name say how to name them (a newcomer serving two
mirrors, ``.../psf+requests/repo`` and ``.../pallets+flask/repo``, got "'repo' is
configured twice" and had to write a config file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderecalld import cli
from coderecalld import config as config_mod
from coderecalld.config import ConfigError


def test_repos_are_named_after_their_paths_or_as_given(tmp_path: Path) -> None:
    repos = cli._cli_repos([str(tmp_path / "a" / "repo"), f"flask={tmp_path / 'b' / 'repo'}",
                            "https://github.com/psf/requests.git"])
    assert config_mod.repo_name_from_url("C:\\Users\\me\\chi") == "chi"  # a Windows path (a review)
    assert [(r.name, r.url) for r in repos] == [
        ("repo", str(tmp_path / "a" / "repo")), ("flask", str(tmp_path / "b" / "repo")),
        ("requests", "https://github.com/psf/requests.git")]


def test_two_repos_of_one_name_say_how_to_name_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a" / "repo", tmp_path / "b" / "repo"
    with pytest.raises(ConfigError) as raised:
        cli._cli_repos([str(first), str(second)])
    assert str(raised.value) == (f"--repo: {str(first)!r} and {str(second)!r} are both named 'repo' (a repo is "
                                 f"named after its path's last part); name each: --repo NAME=PATH_OR_URL")
    # the command fails with a usage error, saying so
    assert cli.main(["index", "--repo", str(first), "--repo", str(second), "--data-dir", str(tmp_path / "d")]) == 2
    assert "name each: --repo NAME=PATH_OR_URL" in capsys.readouterr().err


def test_a_name_must_be_one_the_config_accepts_and_an_existing_path_wins(tmp_path: Path) -> None:
    """A review: ``"my repo=PATH"`` became a path named ``repo``; ``org/chi=PATH`` (a name a
    config file accepts) was refused; ``eq=dir/chi``, an existing directory, was split."""
    with pytest.raises(ConfigError) as raised:
        cli._cli_repos([f"my repo={tmp_path}"])
    assert str(raised.value).startswith("--repo: 'my repo' is no repo name")
    assert [(r.name, r.url) for r in cli._cli_repos([f"org/chi={tmp_path}"])] == [("org/chi", str(tmp_path))]
    odd = tmp_path / "eq=dir"
    odd.mkdir()
    assert [(r.name, r.url) for r in cli._cli_repos([str(odd)])] == [("eq-dir", str(odd))]
    with pytest.raises(ConfigError) as raised:  # two names given: no word of last parts
        cli._cli_repos([f"a={tmp_path}", f"a={odd}"])
    assert "(a repo is named" not in str(raised.value)
