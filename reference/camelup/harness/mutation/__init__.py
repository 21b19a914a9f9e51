"""Mutation testing: a catalogue of plausible wrong rule implementations, and what the suite
makes of them.

``catalogue`` holds the rows, ``apply`` how a row changes the real rules for a while, ``verdict``
runs the suite against each mutant (``camelup conformance mutants``). The catalogue is loaded
only when asked for: the adapter and the judge need :func:`active` and :func:`lifted` alone.
"""

from __future__ import annotations

from camelup.harness.mutation.apply import (
    Edit,
    Mutant,
    Patcher,
    StaleMutant,
    Wrap,
    activate,
    active,
    applied,
    camelup_modules,
    edit,
    lifted,
)

__all__ = [
    "Edit",
    "Mutant",
    "Patcher",
    "StaleMutant",
    "Wrap",
    "activate",
    "active",
    "applied",
    "camelup_modules",
    "edit",
    "lifted",
]
