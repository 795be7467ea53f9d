"""From a notebook to a live kernel: the sandbox, execution, and the call channel.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
