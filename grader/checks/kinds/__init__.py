"""One module per family of check kinds."""
