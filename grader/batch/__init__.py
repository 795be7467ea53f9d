"""Many submissions: planning, resuming, pools (local and Dask), shards and merging.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
