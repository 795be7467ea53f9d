"""Tools around grading: answer keys and the demo.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
