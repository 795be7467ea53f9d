"""The code that runs inside the student's kernel.

These modules are not imported there: :mod:`grader.execution.channel.link` sends their source
text, after :mod:`grader.errors`, :mod:`~grader.execution.channel.protocol` and
:mod:`~grader.execution.channel.wire_format`, and executes it in one private namespace. So they
use only the standard library and the names the sources sent before them define; the grader
imports them as ordinary modules too (to test them in process, and to share their types).

Internal to the grader: the stable names are those that `grader` and `grader.checks.api` re-export.
"""
