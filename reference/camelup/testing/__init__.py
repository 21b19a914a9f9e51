"""For the tests of engines: the in-process adapter class that runs the conformance suite in
pytest (:mod:`camelup.testing.adapter`, :mod:`camelup.testing.plugin`), and Hypothesis
strategies over rule sets, setups and reachable states (:mod:`camelup.testing.strategies`).

The adapter's names are imported when first used: pytest imports this package in every session
where camelup is installed (the plugin's entry point is below it), and the plugin stays inert
unless asked, without loading the conformance runner (0.3 s) that the adapter module imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from camelup.testing.adapter import Adapter, InProcessAdapter, load_adapter

__all__ = ["Adapter", "InProcessAdapter", "load_adapter"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("camelup.testing.adapter"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
