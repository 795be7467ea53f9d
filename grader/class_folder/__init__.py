"""The output folder of a graded class: its layout, its stored records and the files written into it.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
