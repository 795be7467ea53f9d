"""Naming the mistake behind a failure: the function's shape, a convention followed instead of
the assignment's, a lower-level function's defect, a known mistake, an exploration that parts
from the reference's. Each is named only when it reproduces every answer seen.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
