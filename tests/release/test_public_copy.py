"""What students get of an assignment.toml: the public checks, none of a hidden check's fields,
and no comment (one may quote a hidden check's positions)."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

from grader.release.public_copy import public_spec

SPEC = """
[assignment]
id = "week5"  # from the folder

[[checks]]
id = "win"
points = 10
# the hidden one below is judged on O.X.X...O
[[checks]]
id = "secret"
title = "The secret positions"
points = 5
visibility = "hidden"
positions = ["O.X.X...O"]

[[checks]]
id = "after"
points = 5
depends_on = ["win", "secret"]
"""


def test_hidden_checks_leave_only_their_names_and_comments_go() -> None:
    public = public_spec(SPEC)
    assert "O.X.X...O" not in public.spec and "#" not in public.spec
    checks = tomllib.loads(public.spec)["checks"]
    assert [c["id"] for c in checks] == ["win", "after"]
    assert checks[1]["depends_on"] == ["win"]
    assert public.hidden_checks is not None
    assert tomllib.loads(public.hidden_checks)["checks"] == [
        {"id": "secret", "title": "The secret positions", "points": 5}
    ]


def test_without_hidden_checks_there_is_nothing_to_name() -> None:
    public = public_spec('[assignment]\nid = "a"\n\n[[checks]]\nid = "win"\npoints = 1\n')
    assert public.hidden_checks is None and tomllib.loads(public.spec)["checks"] == [{"id": "win", "points": 1}]


def test_an_answer_check_is_only_named_even_when_public() -> None:
    spec = (
        '[assignment]\nid = "a"\n\n[[checks]]\nid = "win"\npoints = 1\n\n'
        '[[checks]]\nid = "answer-1"\nkind = "answer"\ntitle = "ANSWER_1"\npoints = 2\n'
        'name = "ANSWER_1"\nexpected = "Zugzwang"\n'
    )
    public = public_spec(spec)
    assert "Zugzwang" not in public.spec and public.hidden_checks is not None
    assert "Zugzwang" not in public.hidden_checks
    assert [c["id"] for c in tomllib.loads(public.spec)["checks"]] == ["win"]
    assert tomllib.loads(public.hidden_checks)["checks"] == [{"id": "answer-1", "title": "ANSWER_1", "points": 2}]
