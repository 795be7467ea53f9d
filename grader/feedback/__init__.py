"""From verdicts to people: HTML reports, text summaries, Gradescope and the gradebook."""
