"""From a file to a notebook: reading submissions and collecting a class.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
