"""What to test: assignment specs, their checks and call templates.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
