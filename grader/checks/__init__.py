"""From calls to verdicts: the check kinds and what they share."""
