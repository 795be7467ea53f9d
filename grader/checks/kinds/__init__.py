"""One module per family of check kinds.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
