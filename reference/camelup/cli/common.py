"""What every verb of the command line shares: the one UsageError, the verb declaration, the
help layout and printing that never lets a control character reach the terminal.

A verb is declared once, in its own module, as a :class:`Verb`: its options (added to its
argparse parser), a frozen options class built from the parsed arguments, its handler taking
that class, its exit codes and an example for ``--help``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

from camelup.io import exits
from camelup.io.safe_text import printable


class Refused(Exception):
    """A verb stops: one line on stderr (``PREFIX: message``) and ``exit_code``."""

    def __init__(self, message: str, exit_code: int = exits.FAILED) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class UsageError(Refused):
    """A bad request from the command line: exit code 2, one line on stderr."""

    def __init__(self, message: str) -> None:
        super().__init__(message, exits.USAGE)


class InvalidSuite(Refused):
    """The suite, a case file or an expectations file cannot be used: exit code 3."""

    def __init__(self, message: str) -> None:
        super().__init__(message, exits.INVALID_SUITE)


def read_state(name: str) -> Any:
    """The state in the file ``name`` (``-``: standard input), read through the input gate, as
    ``odds`` and ``render`` take it. UsageError (2) for a path that names nothing; InvalidSuite
    (3) for a file the gate refuses, text that is not JSON (``FILE#/pointer: why``) or a state
    the engine refuses (``FILE#/pointer: code: why [clause]``)."""
    from camelup.io.codec import state_from_json
    from camelup.io.gate import InputMissing, InputRefused, read_input
    from camelup.io.jsonio import JSONInputError, parse_json
    from camelup.model.errors import CamelUpError

    shown = "standard input" if name == "-" else name

    def at(pointer: str | None) -> str:  # the whole document is the file itself
        return f"{shown}#{pointer}" if pointer else shown

    try:
        value = parse_json(read_input(name), integers_only=True)
    except InputMissing as error:
        raise UsageError(f"{name}: {error}") from None
    except InputRefused as error:
        raise InvalidSuite(f"{name}: {error}") from None
    except JSONInputError as error:  # not JSON at all: no rule is broken, none is named
        raise InvalidSuite(f"{at(error.pointer)}: {error.message}") from None
    try:
        return state_from_json(value)
    except CamelUpError as error:
        # As a broken given state of a case reads: the code, the reason, the clause broken.
        message = f"{error.code}: {error.message} [{error.clause}]"
        raise InvalidSuite(f"{at(error.pointer)}: {message}") from None


def say(*parts: object, end: str = "\n") -> None:
    """Print to standard output, escaped with :func:`printable`."""
    sys.stdout.write(printable(" ".join(str(p) for p in parts)) + end)


def status(*parts: object) -> None:
    """A status line ("report written to ..."): on stderr, so that it never mixes into a report
    sent to standard output (``-o /dev/stdout``)."""
    print(printable(" ".join(str(p) for p in parts)), file=sys.stderr, flush=True)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the epilogue's layout and names each option's default (unless the help does)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "default" not in text
            and default not in (None, False, argparse.SUPPRESS, [])
            and action.option_strings
        ):
            text += " (default: %(default)s)"
        return text


OptionsT = TypeVar("OptionsT")
AttrsT = TypeVar("AttrsT", bound=attrs.AttrsInstance)


def options_from(
    kind: type[AttrsT], **computed: Callable[[argparse.Namespace], object]
) -> Callable[[argparse.Namespace], AttrsT]:
    """A verb's ``options``: ``kind`` built field by field from the parsed argument of the same
    name (a list as a tuple), or from ``computed[field](namespace)`` where the field is checked
    or renamed; in the order of the fields, so the first bad option is the one reported."""
    names = tuple(field.name for field in attrs.fields(kind))

    def build(namespace: argparse.Namespace) -> AttrsT:
        values = {}
        for name in names:
            value = computed[name](namespace) if name in computed else getattr(namespace, name)
            values[name] = tuple(value) if isinstance(value, list) else value
        return kind(**values)

    return build


@attrs.frozen
class Verb(Generic[OptionsT]):
    """One verb: ``camelup GROUP NAME``.

    ``options`` builds the verb's typed options from the parsed arguments (UsageError when they
    are out of range); ``handle`` does the work and returns the exit code.
    """

    name: str
    summary: str
    example: str
    exit_codes: tuple[tuple[int, str], ...]
    add_arguments: Callable[[argparse.ArgumentParser], None]
    options: Callable[[argparse.Namespace], OptionsT]
    handle: Callable[[OptionsT], int]
    details: str = ""  # more of the description, after the summary

    def register(
        self, verbs: argparse._SubParsersAction[argparse.ArgumentParser], prefix: str
    ) -> argparse.ArgumentParser:
        parser = verbs.add_parser(
            self.name,
            help=self.summary,
            description=f"{self.summary}\n\n{self.details}" if self.details else self.summary,
            epilog=exits.epilog(self.exit_codes, self.example),
            formatter_class=HelpFormatter,
        )
        self.add_arguments(parser)
        parser.set_defaults(run=_Bound(self, prefix))
        return parser


@attrs.frozen
class _Bound(Generic[OptionsT]):
    """A verb bound to its parser: builds the options, runs the handler, and turns the CLI's
    own exceptions into their one-line messages and exit codes."""

    verb: Verb[OptionsT]
    prefix: str

    def __call__(self, namespace: argparse.Namespace) -> int:
        try:
            return self.verb.handle(self.verb.options(namespace))
        except Refused as error:
            error_line(self.prefix, str(error))
            return error.exit_code


def error_line(prefix: str, message: str) -> None:
    """One line on stderr: ``PREFIX: MESSAGE``, newlines folded, control characters escaped."""
    print(f"{prefix}: {printable(' '.join(message.splitlines()))}", file=sys.stderr, flush=True)


def group(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    summary: str,
    description: str,
    verbs: tuple[Verb[Any], ...],
    prefix: str,
) -> argparse.ArgumentParser:
    """``camelup NAME VERB``: a parser per verb, the group's help listing each verb's codes."""
    codes = sorted({code for verb in verbs for code, _ in verb.exit_codes})
    parser = commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog=f"The verbs exit with {', '.join(map(str, codes))}: `camelup {name} VERB --help`"
        " says what each means for that verb. Every verb may also end with:\n\n" + exits.epilog(()),
        formatter_class=HelpFormatter,
    )
    subparsers = parser.add_subparsers(dest=f"{name}_command", required=True, metavar="VERB")
    for verb in verbs:
        verb.register(subparsers, prefix)
    return parser
