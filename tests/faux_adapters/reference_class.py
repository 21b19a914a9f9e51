"""The reference engine as an in-process adapter class (camelup.testing.Adapter), to serve with
``python -m camelup.testing.serve reference_class:ReferenceAdapter``: it must pass every case."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from camelup.harness.adapter import hello_reply, run_case


class ReferenceAdapter:
    def hello(self) -> dict[str, Any]:
        return hello_reply()

    def run(self, case: Mapping[str, Any]) -> dict[str, Any]:
        return run_case(case)


class NotJsonAdapter(ReferenceAdapter):
    """Answers with a value no adapter program could write (a set)."""

    def run(self, case: Mapping[str, Any]) -> dict[str, Any]:
        return {**run_case(case), "legal_actions": {"0": {1, 2}}}


class RaisingAdapter(ReferenceAdapter):
    def run(self, case: Mapping[str, Any]) -> dict[str, Any]:
        raise RuntimeError("the engine fell over")
