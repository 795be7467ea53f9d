"""The README is a landing page: short, with the two set-up commands, and links that resolve.
(The manual in docs/ is checked by `make docs`: MkDocs in strict mode fails on a broken link.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


def test_the_readme_fits_on_a_few_screens() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150


def test_the_readme_gives_the_two_setup_commands() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert "make demo" in text and "make test" in text


@pytest.mark.parametrize("name", ["README.md", "CHANGELOG.md"])
def test_every_relative_link_names_a_file_that_exists(name: str) -> None:
    text = (REPO / name).read_text(encoding="utf-8")
    targets = [m.group(1) for m in LINK.finditer(text) if "://" not in m.group(1)]
    assert targets, "no links found: the pattern no longer matches"
    missing = [t for t in targets if not (REPO / t).exists()]
    assert not missing
