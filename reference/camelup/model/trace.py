"""Traceability: every rule's implementation names the clause it implements.

``@implements("clause.id", ...)`` marks a function as an implementation site. The decorator
only records the site and returns the function itself: it costs nothing on the engine's hot
path, and ``import camelup`` needs neither the spec's Markdown nor its parser. The IDs are
checked against the spec's registry by ``camelup spec trace`` (run in CI) and by a test, so a
typo or a clause removed from the spec fails there, not silently.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import TypeVar

import attrs

F = TypeVar("F", bound=Callable[..., object])


@attrs.frozen
class Site:
    """One place in the code that implements a clause."""

    clause: str
    qualname: str
    module: str
    file: str
    line: int


_SITES: list[Site] = []  # import-time metadata only; never touched by play


def implements(*clause_ids: str) -> Callable[[F], F]:
    """Mark the decorated function as implementing ``clause_ids``."""

    def mark(function: F) -> F:
        code = getattr(function, "__code__", None)
        if code is not None:
            file, line = code.co_filename, code.co_firstlineno
        else:  # compiled (benchmarks/compiled/build.py): no code object, so its module's file
            module = sys.modules.get(function.__module__)
            file, line = getattr(module, "__file__", None) or function.__module__, 0
        for clause_id in clause_ids:
            _SITES.append(Site(clause_id, function.__qualname__, function.__module__, file, line))
        return function

    return mark


def implements_value(clause_id: str, module: str, name: str) -> None:
    """Record a module-level constant (e.g. a component count) as the site of ``clause_id``."""
    frame = inspect.currentframe()
    caller = frame.f_back if frame is not None else None
    file = caller.f_code.co_filename if caller is not None else module
    line = caller.f_lineno if caller is not None else 0
    _SITES.append(Site(clause_id, name, module, file, line))


def sites() -> tuple[Site, ...]:
    """Every implementation site registered by the modules imported so far."""
    return tuple(_SITES)
