"""Auto-grader for adversarial-search notebook assignments."""
