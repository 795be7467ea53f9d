"""`grader review`: the class served on this machine for the instructor to mark manual items,
override checks and comment, all written to ``OUT/overrides.toml`` (`grader.overrides`).

- `grader.review.answers`: what a student wrote for a manual item (the cells it names);
- `grader.review.pages`: the class and a student as the pages show them;
- `grader.review.server`: the web application (tornado) and who may use it.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
