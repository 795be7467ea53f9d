"""Similar submissions: fingerprints of the code a class handed in, compared pair by pair, and their view.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
