"""Reference game-search engine: games, board codecs, search algorithms."""
