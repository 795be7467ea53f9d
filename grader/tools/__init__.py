"""Tools around grading: answer keys and the demo."""
