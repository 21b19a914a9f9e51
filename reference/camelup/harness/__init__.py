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

from camelup.harness.expectations import Expectations, load_expectations
from camelup.harness.protocol import Hello, InProcessReference, SubprocessAdapter
from camelup.harness.reports import FORMATS, render
from camelup.harness.runner import CaseResult, RunReport, run_cases
from camelup.harness.suite import Case, Suite, load_suite, select, suite_directory

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
