"""Similar submissions: fingerprints of the code a class handed in, compared pair by pair, and their view."""
