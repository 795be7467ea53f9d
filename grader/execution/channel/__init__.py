"""Calls across the kernel boundary: the protocol, its wire format, the shim and the grader side.

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
