"""Errors: one value for a broken rule, and the exceptions of the library that carry it.

A rule's predicate returns a :class:`Violation` (or None). Each caller turns it into what it
needs: the engine into an :class:`IllegalAction`, state validation into an
:class:`InvalidState` with a JSON pointer, ``legal_actions`` and the test strategies into a
bool. So every rule is written once and play, validation and the legal actions cannot drift.
"""

from __future__ import annotations

import attrs

PathPart = str | int


def pointer(*tokens: PathPart) -> str:
    """The JSON pointer (RFC 6901) of ``tokens``: each escaped (``~`` as ``~0``, ``/`` as
    ``~1``) and prefixed with ``/``; no tokens is the whole document, ``""``."""
    return "".join("/" + str(token).replace("~", "~0").replace("/", "~1") for token in tokens)


class CamelUpError(ValueError):
    """Raised for an illegal action, an impossible state or an invalid ruleset.

    ``code`` is stable and machine-readable (e.g. ``"tile-adjacent"``); ``clause`` is the ID of
    the spec clause that the input violates; ``pointer`` is a JSON pointer into the input when
    the error comes from loading data ("" when it concerns the whole value).
    """

    def __init__(self, code: str, clause: str, message: str, pointer: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.clause = clause
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        where = f" at {self.pointer}" if self.pointer is not None else ""
        return f"{self.code}{where}: {self.message} [{self.clause}]"


class IllegalAction(CamelUpError):
    """The action is not allowed in this state; the state is unchanged."""


class InvalidState(CamelUpError):
    """The state cannot arise under the rules."""


class InvalidRuleset(CamelUpError):
    """The combination of edition, modules, variants and player count is not allowed."""


class InvalidSetup(CamelUpError):
    """The setup inputs do not describe a setup of this ruleset; ``pointer`` is into the setup."""


@attrs.frozen
class Violation:
    """A rule that a value breaks: a stable ``code``, the ``clause`` it breaks, a message, and
    ``where``: the path of the offending member inside the value checked (for a state, its
    canonical JSON members; for an action, the action's members), ``()`` for the whole."""

    code: str
    clause: str
    message: str
    where: tuple[PathPart, ...] = ()

    def at(self, *prefix: PathPart) -> Violation:
        """The same violation seen from a larger value that holds the checked one at ``prefix``."""
        return Violation(self.code, self.clause, self.message, (*prefix, *self.where))

    def illegal(self) -> IllegalAction:
        return IllegalAction(self.code, self.clause, self.message)

    def invalid_state(self, base: str = "") -> InvalidState:
        return InvalidState(self.code, self.clause, self.message, base + pointer(*self.where))

    def invalid_setup(self, base: str = "") -> InvalidSetup:
        return InvalidSetup(self.code, self.clause, self.message, base + pointer(*self.where))
