"""Traceability: every rule's implementation names the clause it implements.

``@implements("clause.id", ...)`` marks a function as an implementation site. The IDs are
checked against the spec's registry when the module is imported, so a typo or a clause
removed from the spec fails at import time, not silently. The decorator returns the function
itself: it costs nothing on the engine's hot path.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TypeVar

import attrs

from camelup.spec.registry import load_registry

F = TypeVar("F", bound=Callable[..., object])


class UnknownClauseError(LookupError):
    """An implementation site names a clause ID the spec does not define."""


@attrs.frozen
class Site:
    """One place in the code that implements a clause."""

    clause: str
    qualname: str
    module: str
    file: str
    line: int


_SITES: list[Site] = []  # import-time metadata only; never touched by play


def _check(clause_ids: tuple[str, ...], where: str) -> None:
    known = load_registry().clause_ids
    for clause_id in clause_ids:
        if clause_id not in known:
            raise UnknownClauseError(f"{where} names unknown clause {clause_id!r}")


def implements(*clause_ids: str) -> Callable[[F], F]:
    """Mark the decorated function as implementing ``clause_ids`` (checked at import)."""

    def mark(function: F) -> F:
        where = f"{function.__module__}.{function.__qualname__}"
        _check(clause_ids, where)
        code = getattr(function, "__code__", None)
        file = code.co_filename if code else inspect.getfile(function)
        line = code.co_firstlineno if code else 0
        for clause_id in clause_ids:
            _SITES.append(Site(clause_id, function.__qualname__, function.__module__, file, line))
        return function

    return mark


def implements_value(clause_id: str, module: str, name: str) -> None:
    """Record a module-level constant (e.g. a component count) as the site of ``clause_id``."""
    _check((clause_id,), f"{module}.{name}")
    frame = inspect.currentframe()
    caller = frame.f_back if frame is not None else None
    file = caller.f_code.co_filename if caller is not None else module
    line = caller.f_lineno if caller is not None else 0
    _SITES.append(Site(clause_id, name, module, file, line))


def sites() -> tuple[Site, ...]:
    """Every implementation site registered by the modules imported so far."""
    return tuple(_SITES)
