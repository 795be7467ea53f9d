"""Check your work from inside the notebook you are writing.

In a cell of Jupyter, JupyterLab, VS Code or Colab::

    from grader import notebook
    notebook.check("lab05")                    # every public check
    notebook.check("lab05", "minimax-value")   # one check, by id

or ``%load_ext grader`` and then ``%check lab05``. The functions your session defines right
now are checked, with the checks and feedback of grading; hidden checks run only when the
assignment is graded.

This package is part of the public surface: ``check`` and ``NotebookCheck`` (its ``__all__``)
are stable. Internal to the grader are its modules (``self_check``, ``result_view``, ...).
"""

from grader.notebook.result_view import NotebookCheck
from grader.notebook.self_check import check

__all__ = ["NotebookCheck", "check"]
