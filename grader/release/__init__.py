"""`grader release`: one master notebook made into the student's version, the grading
assignment and the students' bundle; `grader.cli.release` is its front end.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
