"""From calls to verdicts: the check kinds and what they share.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
