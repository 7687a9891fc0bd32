"""The name match of natural-language search (query/service.py ``_name_match``)."""

from __future__ import annotations

from coderecalld.query.service import _name_match, _question_words


def test_a_whole_name_in_the_question_matches() -> None:
    words = _question_words("where are blueprints registered on the app")
    assert _name_match({"kind": "method", "name": "register_blueprint"}, words) == 1.0
    assert _name_match({"kind": "method", "name": "registerBlueprint"}, words) == 1.0


def test_part_of_a_name_one_word_names_and_sections_do_not() -> None:
    words = _question_words("implementation of the flask run command")
    assert _name_match({"kind": "function", "name": "run_command"}, words) == 1.0
    assert _name_match({"kind": "function", "name": "shell_command"}, words) == 0.0  # shell missing
    assert _name_match({"kind": "method", "name": "run"}, words) == 0.0  # one word: too weak
    assert _name_match({"kind": "section", "name": "run_command"}, words) == 0.0
    assert _name_match({"kind": "module", "name": "run_command"}, words) == 0.0


def test_inflections_match_but_short_or_distant_words_do_not() -> None:
    words = _question_words("constructing apps")
    assert _name_match({"kind": "function", "name": "construct_app"}, words) == 0.0  # app < 4 letters
    assert _name_match({"kind": "function", "name": "construct_apps"}, words) == 1.0  # 3 letters off
    assert _name_match({"kind": "function", "name": "construction_apps"}, words) == 0.0  # not a prefix
