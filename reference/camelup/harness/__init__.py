"""The conformance runner: runs the language-neutral suite of ``conformance/`` against the
bundled reference engine or any implementation that speaks the adapter protocol
(``docs/adapter-protocol.md``), and checks the suite itself.

This is the package's top layer: it imports the engine, the codec and the spec registry, and
nothing below it imports it. The command line is ``camelup conformance ...``.

>>> from camelup.harness import InProcessReference, load_suite, run_cases
>>> suite = load_suite()
>>> report = run_cases(suite.cases, InProcessReference())
>>> len(report.results) == len(suite.cases)
True
>>> report.summary_line()  # doctest: +ELLIPSIS
'... passed, ... failed, 0 errored, 0 skipped'

"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from camelup.harness.expectations import Expectations, load_expectations
    from camelup.harness.protocol import Hello, InProcessReference, SubprocessAdapter
    from camelup.harness.reports import FORMATS, render
    from camelup.harness.runner import CaseResult, RunReport, run_cases
    from camelup.harness.suite import Case, Suite, load_suite, select, suite_directory

# Each name is imported from its module when first asked for (PEP 562): a command that needs
# one module of the package (``conformance list``: the suite) is not made to import them all,
# the runner, the protocol and the reports among them (a fifth of such a command's start).
_MODULES = {
    "expectations": ("Expectations", "load_expectations"),
    "protocol": ("Hello", "InProcessReference", "SubprocessAdapter"),
    "reports": ("FORMATS", "render"),
    "runner": ("CaseResult", "RunReport", "run_cases"),
    "suite": ("Case", "Suite", "load_suite", "select", "suite_directory"),
}
_HOMES = {name: home for home, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


__all__ = [
    "FORMATS",
    "Case",
    "CaseResult",
    "Expectations",
    "Hello",
    "InProcessReference",
    "RunReport",
    "SubprocessAdapter",
    "Suite",
    "load_expectations",
    "load_suite",
    "render",
    "run_cases",
    "select",
    "suite_directory",
]
