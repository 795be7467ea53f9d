"""From a notebook to a live kernel: the sandbox, execution, and the call channel."""
