"""A Go method asked as ``Type.method`` when the package has the type's name in lower case:
``symbols Viper.AllKeys`` answered only the package's one-line wrapper ``viper.AllKeys``
(a case-insensitive match of its qualified name) and hid the method ``viper.Viper.AllKeys``
whose tail the name spells exactly (a newcomer on spf13/viper). Real git fixture, real
embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "go.mod": "module example.com/viper\n\ngo 1.21\n",
    "viper.go": """package viper

var v *Viper

// Viper is a configuration registry.
type Viper struct {
\tkeys map[string]any
}

// AllKeys returns all keys of the global registry.
func AllKeys() []string { return v.AllKeys() }

// AllKeys returns all keys holding a value.
func (v *Viper) AllKeys() []string {
\tout := []string{}
\tfor k := range v.keys {
\t\tout = append(out, k)
\t}
\treturn out
}

// WriteConfig writes the current configuration.
func WriteConfig() error { return v.WriteConfig() }

// WriteConfig writes the current configuration to its file.
func (v *Viper) WriteConfig() error { return v.writeConfig("", true) }

func (v *Viper) writeConfig(filename string, force bool) error {
\treturn nil
}
""",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("gopkg"), FILES) as running:
        yield running


def _found(daemon: Daemon, name: str) -> list[tuple[str, str, int, str]]:
    return [(h.qualified_name, h.kind, h.start_line, h.match) for h in daemon.service.find_symbols(name, repo="fx")]


def test_the_method_the_name_spells_comes_before_the_package_function_of_another_case(daemon: Daemon) -> None:
    assert _found(daemon, "Viper.AllKeys") == [("viper.Viper.AllKeys", "method", 14, "exact"),
                                               ("viper.AllKeys", "function", 11, "case_insensitive")]


def test_a_pointer_receiver_spelling_finds_the_method(daemon: Daemon) -> None:
    assert _found(daemon, "(*Viper).AllKeys")[0] == ("viper.Viper.AllKeys", "method", 14, "exact")


def test_an_unexported_method_is_not_answered_by_an_exported_function(daemon: Daemon) -> None:
    assert _found(daemon, "Viper.writeConfig")[0] == ("viper.Viper.writeConfig", "method", 28, "exact")


def test_the_package_function_asked_in_its_own_case_is_the_answer(daemon: Daemon) -> None:
    assert _found(daemon, "viper.AllKeys") == [("viper.AllKeys", "function", 11, "exact")]
