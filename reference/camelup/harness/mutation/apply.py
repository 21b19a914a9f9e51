"""How a mutant is applied: the row's changes made to the real rule functions, and undone.

A :class:`Mutant` is a row of data: its name, the clause it breaks, the mistake in words, and
one or more changes. An :class:`Edit` rewrites the *real* function from its own source (each
old text must occur exactly once, so a row gone stale after a rule changed fails loudly, with
one line naming the row) and compiles it in its module's namespace; a :class:`Wrap` puts a
function around the real one, for mistakes that transform a rule's input or output.

A changed function replaces the real one in its module and under every other name a loaded
``camelup`` module holds it by (``engine`` imports ``score_leg`` by name), so play, validation,
the legal actions and the odds all see the same wrong rule. Nothing changes unless a mutant is
applied: :func:`applied` undoes everything on exit, :func:`activate` (the adapter's
``--mutant``) keeps it for the rest of the process.
"""

from __future__ import annotations
import __future__

import contextlib
import functools
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import attrs

Function = Callable[..., Any]


class StaleMutant(Exception):
    """A row's edit no longer matches the rule's source: the rule changed, the row must too."""


@attrs.frozen
class Edit:
    """Replace each old text by its new text in ``function``'s own source."""

    function: Function
    replacements: tuple[tuple[str, str], ...]

    @property
    def site(self) -> tuple[ModuleType, str]:
        return sys.modules[self.function.__module__], self.function.__name__

    def replacement(self, mutant: str) -> Function:
        return _edited(self, mutant)


@attrs.frozen
class Wrap:
    """Replace ``owner.name`` by ``around(the real one)``."""

    owner: ModuleType | type
    name: str
    around: Callable[[Any], Any]

    @property
    def site(self) -> tuple[ModuleType | type, str]:
        return self.owner, self.name

    def replacement(self, mutant: str) -> Any:
        return self.around(vars(self.owner)[self.name])


Change = Edit | Wrap


def edit(function: Function, old: str, new: str, *more: str) -> Edit:
    """An :class:`Edit` of ``function``: ``old`` becomes ``new``, and so on for ``more`` pairs."""
    texts = (old, new, *more)
    assert len(texts) % 2 == 0, "an edit pairs each old text with a new one"
    return Edit(function, tuple(zip(texts[::2], texts[1::2], strict=True)))


@attrs.frozen
class Mutant:
    """One wrong implementation: its name, the clause it breaks, the mistake in one line."""

    name: str
    clause: str
    description: str
    changes: tuple[Change, ...] = attrs.field(repr=False)


@functools.cache
def _source(function: Function) -> tuple[str, int]:
    """The source of ``function`` from its ``def`` line on, dedented, and that line's number:
    a rule's decorators (its ``@implements`` sites) stay the real function's."""
    lines = textwrap.dedent(inspect.getsource(function)).splitlines(keepends=True)
    start = next(n for n, line in enumerate(lines) if line.startswith("def "))
    return "".join(lines[start:]), function.__code__.co_firstlineno + start


@functools.cache
def _edited(change: Edit, mutant: str) -> Function:
    function = change.function
    qualname = f"{function.__module__}.{function.__qualname__}"
    source, line = _source(function)
    for old, new in change.replacements:
        found = source.count(old)
        if found != 1:
            raise StaleMutant(
                f"mutant {mutant}: the edit {old!r} is found {found} times in {qualname}, not"
                " once: the rule changed, so the row must change too (harness/mutation/catalogue)"
            )
        source = source.replace(old, new)
    # Compiled at the real function's line, so a traceback points into the rule's own file; the
    # annotations are not evaluated, as in the rule's module.
    flags = __future__.annotations.compiler_flag
    filename = inspect.getsourcefile(function) or qualname
    code = compile("\n" * (line - 1) + source, filename, "exec", flags, dont_inherit=True)
    made: dict[str, Any] = {}
    exec(code, vars(sys.modules[function.__module__]), made)
    replacement: Function = made[function.__name__]
    replacement.__qualname__ = function.__qualname__
    return replacement


def camelup_modules() -> list[ModuleType]:
    """The loaded camelup modules, ``__main__`` included when it is one (``python -m ...``)."""
    found = []
    for name, module in list(sys.modules.items()):
        if name == "__main__":
            spec = getattr(module, "__spec__", None)
            name = spec.name if spec is not None else ""
        if name.startswith("camelup") and isinstance(module, ModuleType):
            found.append(module)
    return found


class Patcher:
    """Replaces attributes and remembers what was there, to put it back."""

    def __init__(self) -> None:
        self._saved: list[tuple[Any, str, Any]] = []  # (holder, name, original), in order
        self._replaced: dict[int, Any] = {}  # id of each replacement: the original
        self._loaded = set(sys.modules)  # a module loaded later may import a replacement

    def replace(self, owner: ModuleType | type, name: str, new: Any) -> None:
        """Set ``owner.name`` to ``new``; for a module, also every other loaded camelup module's
        name for the same object (a ``from ... import`` of it)."""
        original = vars(owner)[name]
        holders: list[tuple[Any, str]] = [(owner, name)]
        if isinstance(owner, ModuleType):
            for module in camelup_modules():
                if module is not owner:
                    holders.extend((module, k) for k, v in vars(module).items() if v is original)
            self._replaced[id(new)] = original
        for holder, key in holders:
            self._saved.append((holder, key, vars(holder)[key]))
            setattr(holder, key, new)

    def restore(self) -> None:
        while self._saved:
            holder, key, value = self._saved.pop()
            setattr(holder, key, value)
        # A module loaded while the patch was in place imported a replacement: put it back too.
        for module in camelup_modules():
            if module.__name__ not in self._loaded:
                names = vars(module)
                for key, value in list(names.items()):
                    if id(value) in self._replaced:
                        names[key] = self._replaced[id(value)]
        self._replaced.clear()

    def lift(self) -> Callable[[], None]:
        """Undo the replacements for a while; the function returned puts them back."""
        saved = [(holder, key, vars(holder)[key], old) for holder, key, old in self._saved]
        for holder, key, _, original in reversed(saved):
            setattr(holder, key, original)

        def put_back() -> None:
            for holder, key, replacement, _ in saved:
                setattr(holder, key, replacement)

        return put_back


def check(mutant: Mutant) -> None:
    """Build ``mutant``'s edits without making them: :class:`StaleMutant` for a stale row."""
    for change in mutant.changes:
        if isinstance(change, Edit):
            change.replacement(mutant.name)


def install(mutant: Mutant, patcher: Patcher) -> None:
    """Make ``mutant``'s changes; each is built before any is made, so a stale row changes
    nothing."""
    made = [(change.site, change.replacement(mutant.name)) for change in mutant.changes]
    for (owner, name), replacement in made:
        patcher.replace(owner, name, replacement)


_ACTIVE: list[Patcher] = []  # the patchers whose replacements are in place, oldest first


def active() -> bool:
    """Whether a mutant is applied in this process (the engine here is not the reference)."""
    return bool(_ACTIVE)


@contextlib.contextmanager
def applied(mutant: Mutant) -> Iterator[None]:
    """Run the body with ``mutant``'s changes in place; everything is restored afterwards.

    Raises :class:`StaleMutant` when an edit of the row no longer matches its rule.
    """
    patcher = Patcher()
    _ACTIVE.append(patcher)
    try:
        install(mutant, patcher)
        yield
    finally:
        patcher.restore()
        _ACTIVE.remove(patcher)


@contextlib.contextmanager
def lifted() -> Iterator[None]:
    """Run the body on the real engine: every active patch undone, and put back after.

    The conformance runner computes the reference's states this way, so that a mutant run
    in-process is compared with the reference and not with itself.
    """
    put_back = [patcher.lift() for patcher in reversed(_ACTIVE)]
    try:
        yield
    finally:
        for again in reversed(put_back):
            again()


def activate(mutant: Mutant) -> None:
    """Apply ``mutant`` for the rest of the process (the adapter's ``--mutant``)."""
    patcher = Patcher()
    _ACTIVE.append(patcher)
    install(mutant, patcher)
    # The hello names the mutant, wherever the adapter's module is loaded (it calls this).
    for module in camelup_modules():
        spec = getattr(module, "__spec__", None)
        if spec is not None and spec.name == "camelup.harness.adapter":
            hello = vars(module)["hello_reply"]
            patcher.replace(module, "hello_reply", _naming_hello(hello, mutant.name))


def _naming_hello(hello: Callable[[], dict[str, Any]], name: str) -> Callable[[], dict[str, Any]]:
    def hello_reply() -> dict[str, Any]:
        reply = hello()
        reply["implementation"] = {**reply["implementation"], "name": f"camelup-mutant:{name}"}
        return reply

    return hello_reply
