"""The program that starts a sandboxed kernel: limits, privileges, then ipykernel.

Nothing imports this module: :mod:`grader.execution.sandbox` passes its source to
``python -S -s -c`` with a JSON configuration as the only argument, so it runs before
``site`` and sees only the standard library until it extends ``sys.path`` itself.
"""

import json
import os
import resource
import sys
import types

config = json.loads(sys.argv[1])
for name, value in config["rlimits"]:
    resource.setrlimit(getattr(resource, name), (value, value))
if config["uid"] is not None:
    os.setgroups([])
    os.setgid(config["uid"])
    os.setuid(config["uid"])
if config["forget_parent_pid"]:
    os.environ.pop("JPY_PARENT_PID", None)
sys.path.extend(config["site_packages"])
if config["support_dir"] is not None:
    # First, ahead of the working directory: the course's modules win over a student's copy.
    support_dir = config["support_dir"]
    sys.path.insert(0, support_dir)
    import importlib.machinery

    course_modules = frozenset(name[:-3] for name in os.listdir(support_dir) if name.endswith(".py"))

    def find_course_module(name, path=None, target=None):
        """A support module from the course's folder, whatever ``sys.path`` says later: a
        notebook that puts its own folder first and imports again gets the course's."""
        if name not in course_modules:
            return None
        return importlib.machinery.PathFinder.find_spec(name, [support_dir])

    # A finder without a class of its own: this program defines none (tests/test_errors.py).
    sys.meta_path.insert(0, types.SimpleNamespace(find_spec=find_course_module))
sys.argv = ["ipykernel_launcher", *config["kernel_args"]]


def no_debugger(name, path=None, target=None):
    """ipykernel imports debugpy at its start, for a debugger no grading uses: a fifth of the
    kernel's start-up imports. Refused while ipykernel loads (it then runs without one), and
    importable again once it has, for a notebook that imports it itself."""
    if name == "debugpy" or name.startswith("debugpy."):
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)


blocker = types.SimpleNamespace(find_spec=no_debugger)
sys.meta_path.insert(0, blocker)
try:
    import ipykernel.debugger  # noqa: E402, F401  (the one module that imports debugpy)
finally:
    sys.meta_path.remove(blocker)

from ipykernel import kernelapp  # noqa: E402  (importable only once sys.path is extended)

kernelapp.launch_new_instance()
