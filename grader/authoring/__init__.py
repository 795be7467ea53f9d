"""`grader init`: an assignment made from an instructor's solution, by asking its functions.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
