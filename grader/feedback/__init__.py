"""From verdicts to people: HTML reports, text summaries, Gradescope and the gradebook.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
