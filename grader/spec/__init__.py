"""What to test: assignment specs, their checks and call templates."""
