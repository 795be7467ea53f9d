"""The instructor's word: manual marks, overridden points, comments and whole-score
adjustments, kept in ``OUT/overrides.toml`` and applied whenever a class's outputs are written.

- `grader.overrides.model`: the decisions as typed values, read from the file's TOML tables;
- `grader.overrides.store`: reading and writing the file (hand edits and their comments kept);
- `grader.overrides.apply`: which decisions fit the class and its spec, and the final result
  of a submission with them applied (the stored automatic record is never changed).

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
