"""Adapter classes served with ``python -m camelup.testing.serve reference_class:NAME``:
``ReferenceAdapter`` (the reference, from _common), which must pass every case, and two that
give answers no adapter program could write."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from _common import ReferenceAdapter

from camelup.harness.adapter import run_case

__all__ = ["NotJsonAdapter", "RaisingAdapter", "ReferenceAdapter"]


class NotJsonAdapter(ReferenceAdapter):
    """Answers with a value no adapter program could write (a set)."""

    def run(self, case: Mapping[str, Any]) -> dict[str, Any]:
        return {**run_case(case), "legal_actions": {"0": {1, 2}}}


class RaisingAdapter(ReferenceAdapter):
    def run(self, case: Mapping[str, Any]) -> dict[str, Any]:
        raise RuntimeError("the engine fell over")
