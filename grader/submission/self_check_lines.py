"""The in-notebook check's own lines are not run when a notebook is graded.

A student checks their work with a cell such as ``from grader import notebook`` then
``notebook.check("lab05")`` (or ``%load_ext grader`` and ``%check lab05``, after ``%pip
install`` of the grader or of a course's bundle: `grader.release.bundle`), and hands the
notebook in with that cell. In the grading kernel the grader's packages cannot be imported
and there is no network, so those lines would only fail, and cost the student "the notebook
runs top to bottom". Each such line becomes ``pass`` (or ``name = None`` for ``name =
notebook.check(...)``) with the original kept after a ``#``, so the report shows what was set
aside and why.
"""

from __future__ import annotations

import re

_SELF_CHECK = re.compile(
    r"""^(?P<indent>[ \t]*)(?P<statement>
        from\s+grader\s+import\s+notebook\s*
      | import\s+grader\.notebook(\s+as\s+\w+)?\s*
      | (?P<target>[A-Za-z_]\w*\s*=\s*)?(grader\.)?notebook\.check\s*\(.*\)\s*;?\s*
      | [%!]\s*pip\s+install\s.*\bgamesearch[-_](grader|assignment)\b.*
      | %load_ext\s+grader\s*
      | %check(\s.*)?
    )$""",
    re.VERBOSE,
)
NOTE = "not run when graded: "


def without_self_check(source: str) -> str:
    """``source`` with each line of the in-notebook check set aside."""
    return "\n".join(_set_aside(line) for line in source.split("\n"))


def _set_aside(line: str) -> str:
    found = _SELF_CHECK.match(line)
    if found is None or found["statement"].count("(") != found["statement"].count(")"):
        return line  # a call that goes on over the next lines is left as it is
    target = found["target"]
    replacement = f"{target}None" if target else "pass"
    return f"{found['indent']}{replacement}  # {NOTE}{found['statement'].strip()}"
