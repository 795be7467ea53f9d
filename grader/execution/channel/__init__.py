"""Calls across the kernel boundary: the protocol, its wire format, the shim and the grader side."""
