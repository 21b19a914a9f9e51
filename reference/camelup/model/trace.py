"""Traceability: every rule's implementation names the clause it implements.

``@implements("clause.id", ...)`` marks a function as an implementation site. The decorator
only records the site and returns the function itself: it costs nothing on the engine's hot
path, and ``import camelup`` needs neither the spec's Markdown nor its parser. The IDs are
checked against the spec's registry by ``camelup spec trace`` (run in CI) and by a test, so a
typo or a clause removed from the spec fails there, not silently.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
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


# import-time metadata only, never touched by play; a function of a compiled module is kept as
# (clause, qualname, module) until the sites are asked for (see _compiled_site)
_SITES: list[Site | tuple[str, str, str]] = []


def implements(*clause_ids: str) -> Callable[[F], F]:
    """Mark the decorated function as implementing ``clause_ids``."""

    def mark(function: F) -> F:
        code = getattr(function, "__code__", None)
        name, module = function.__qualname__, function.__module__
        for clause_id in clause_ids:
            if code is None:  # compiled (benchmarks/compiled/build.py): no code object
                _SITES.append((clause_id, name, module))
            else:
                _SITES.append(Site(clause_id, name, module, code.co_filename, code.co_firstlineno))
        return function

    return mark


def _compiled_site(clause_id: str, qualname: str, module: str) -> Site:
    """The site of the module-level function ``qualname`` of the compiled module ``module``, in
    the source the build compiled, which it keeps beside the extension: the line of the
    function's first decorator, as ``co_firstlineno`` gives when it is not compiled (line 0 if
    the source is not there). Found when asked for, not at import: parsing the sources would
    cost the compiled build's start-up some 15 ms."""
    compiled = getattr(sys.modules.get(module), "__file__", None) or module
    source = Path(compiled).with_name(Path(compiled).name.split(".")[0] + ".py")
    if not source.is_file():
        return Site(clause_id, qualname, module, compiled, 0)
    return Site(clause_id, qualname, module, str(source), _first_lines(source).get(qualname, 0))


@functools.cache
def _first_lines(source: Path) -> dict[str, int]:
    """Each module-level function of ``source`` with the line of its first decorator (or of its
    ``def``): the source is parsed once, for all its functions."""
    return {
        node.name: min((d.lineno for d in node.decorator_list), default=node.lineno)
        for node in ast.parse(source.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef)
    }


def implements_value(clause_id: str, module: str, name: str) -> None:
    """Record a module-level constant (e.g. a component count) as the site of ``clause_id``."""
    frame = inspect.currentframe()
    caller = frame.f_back if frame is not None else None
    file = caller.f_code.co_filename if caller is not None else module
    line = caller.f_lineno if caller is not None else 0
    _SITES.append(Site(clause_id, name, module, file, line))


def sites() -> tuple[Site, ...]:
    """Every implementation site registered by the modules imported so far."""
    return tuple(site if isinstance(site, Site) else _compiled_site(*site) for site in _SITES)
