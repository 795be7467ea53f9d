"""Many submissions: planning, resuming, pools (local and Dask), shards and merging."""
