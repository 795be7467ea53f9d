"""From a file to a notebook: reading submissions and collecting a class."""
