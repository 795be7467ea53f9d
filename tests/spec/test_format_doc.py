"""docs/assignment-format.md is written from the code, and says what the loader does."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import pytest

from grader.checks.registry import CHECK_KINDS
from grader.spec import field_docs, format_doc
from grader.spec.format_doc import ASSIGNMENT_KEYS, DOC_PATH, SpecKey, load_spec, render, spec_text

MINIMAL_CHECK = {"id": "clean", "kind": "runs-cleanly", "points": 1}
REQUIRED = {"id": "minimal", "title": "Minimal", "encoding": "flat-space"}


def test_the_page_in_docs_is_the_one_the_code_writes() -> None:
    assert DOC_PATH.read_text(encoding="utf-8") == render(), (
        "docs/assignment-format.md is stale: run `python -m grader.spec.format_doc`"
    )


def test_the_page_lists_every_kind_and_every_field_of_it() -> None:
    page = render()
    for name, kind in CHECK_KINDS.items():
        section = page.split(f"### `{name}`\n", 1)[1].split("\n### ", 1)[0]
        for f in dataclasses.fields(kind.params):
            assert f"- **`{f.name}`** (" in section, f"{name}.{f.name}"


@pytest.mark.parametrize("key", ASSIGNMENT_KEYS, ids=lambda key: key.name)
def test_each_documented_assignment_key_is_one_the_loader_reads(key: SpecKey) -> None:
    """Loading the key's example changes what it says it sets: a key the loader ignores, or one
    documented under another name, fails here."""
    given = {**REQUIRED, key.name: key.example}
    loaded = load_spec(spec_text(given, MINIMAL_CHECK))
    default = load_spec(spec_text(REQUIRED if key.name not in REQUIRED else given, MINIMAL_CHECK))
    if key.name == "encoding":
        assert loaded.encoding.name == key.example
    elif key.name == "stdin_file":
        assert loaded.stdin == ("3", "n") and default.stdin == ()
    elif key.name == "support":
        assert [module.file_name for module in loaded.support] == key.example and default.support == ()
    else:
        assert key.attribute is not None
        expected = tuple(key.example) if isinstance(key.example, list) else key.example
        assert getattr(loaded, key.attribute) == expected
        if key.name not in REQUIRED:
            assert getattr(default, key.attribute) != expected, "the example must differ from the default"


def test_the_defaults_shown_are_the_loaders() -> None:
    page = render()
    assert "- **`cell_timeout`** (number; default `30`)" in page
    assert "- **`reference_helpers`** (true or false; default `true`)" in page
    assert "- **`title`** (string; default: the `id`)" in page


@dataclass(frozen=True)
class _Base:
    shared: int = 1
    """From the base."""
    plain: str = ""


@dataclass(frozen=True)
class _Derived(_Base):
    """A kind for the test."""

    shared: int = 2
    """From the derived class."""
    extra: bool = False
    """Only here."""


def test_field_docstrings_are_read_from_the_source_and_the_nearest_class_wins() -> None:
    docs = field_docs.field_docs(_Derived)
    assert docs == {"shared": "From the derived class.", "extra": "Only here."}
    assert "plain" not in docs  # a field without a docstring is missing, and render() refuses it
    assert field_docs.class_doc(_Derived) == "A kind for the test."


def test_an_undocumented_field_stops_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    kind = dataclasses.replace(next(iter(CHECK_KINDS.values())), params=_Derived)
    monkeypatch.setattr(format_doc, "CHECK_KINDS", {"test-kind": kind})
    with pytest.raises(LookupError, match="plain"):
        render()


def test_check_mode_reports_a_stale_page(tmp_path: Path) -> None:
    page = tmp_path / "assignment-format.md"
    page.write_text("# an older page\n", encoding="utf-8")
    assert format_doc.main(["--out", str(page), "--check"]) == 1
    assert format_doc.main(["--out", str(page)]) == 0
    assert format_doc.main(["--out", str(page), "--check"]) == 0
    assert page.read_text(encoding="utf-8") == render()
