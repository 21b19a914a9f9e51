"""``camelup conformance``: run, list, show, explain, validate, coverage, generate, fuzz,
report, export, mutants."""

from __future__ import annotations

from typing import Any

from camelup.cli.common import Verb
from camelup.cli.conformance import (
    coverage,
    explain,
    export,
    fuzz,
    generate,
    mutants,
    report,
    run,
    show,
    validate,
)
from camelup.cli.conformance import list as list_

VERBS: tuple[Verb[Any], ...] = (
    run.VERB,
    list_.VERB,
    show.VERB,
    explain.VERB,
    validate.VERB,
    coverage.VERB,
    generate.VERB,
    fuzz.VERB,
    report.VERB,
    export.VERB,
    mutants.VERB,
)
