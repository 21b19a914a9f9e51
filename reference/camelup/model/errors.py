"""The one exception type of the library, with a stable machine-readable code and a clause."""

from __future__ import annotations


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
