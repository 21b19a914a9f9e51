"""The options and the loading that several conformance verbs share: the suite folder, the
case filters, the adapter and its limits, and an output file checked before any work."""

from __future__ import annotations

import argparse
import errno
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from camelup.cli.common import InvalidSuite, UsageError
from camelup.io.safe_text import printable

if TYPE_CHECKING:  # the conformance layer is imported when a verb runs, not to build the parser
    from camelup.harness.expectations import Expectations
    from camelup.harness.runner import Client
    from camelup.harness.suite import Case, Suite

PREFIX = "camelup conformance"
MAX_SECONDS = 86_400.0  # a day: far beyond any sane case, far below what a lock wait accepts
MIN_LINE_BYTES = 1024
MAX_LINE_BYTES = 1 << 30
DEFAULT_LINE_BYTES = 16 << 20  # 16 MiB: a whole game's states is well under 1 MiB
MAX_RESTARTS = 1_000_000  # far more restarts than a suite has cases: a larger count is a typo


# ------------------------------------------------------------------------------------ suite


def add_suite(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--suite", metavar="DIR", help="the suite folder (default: the bundled conformance/)"
    )


def suite_root(option: str | None) -> Path:
    """The folder of ``--suite``, or the bundled suite; UsageError when there is none."""
    from camelup.harness.suite import suite_directory

    if option is None:
        try:
            return suite_directory()
        except FileNotFoundError as error:
            raise UsageError(str(error).removeprefix("camelup: ")) from None
    root = Path(option)
    if not root.is_dir():
        raise UsageError(f"--suite {root}: no such folder")
    return root


def load(option: str | None) -> Suite:
    from camelup.harness.suite import load_suite

    return load_suite(suite_root(option))


def find(suite: Suite, case_id: str) -> Case:
    """The case ``case_id``; UsageError when there is none (InvalidSuite when some case files
    did not load, as it may be one of those)."""
    case = suite.find(case_id)
    if case is None:
        near = [c.id for c in suite.cases if case_id in c.id][:3]
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        if suite.problems:
            report_problems(suite)
            raise InvalidSuite(
                f"no case {case_id!r}{hint}; {len(suite.problems)} problem(s) in the suite"
                " files, listed above (a case that could not be read is left out)"
            )
        raise UsageError(f"no case {case_id!r}{hint}")
    return case


def expectations(option: str | None) -> Expectations:
    """The ``--expectations`` file (none: nothing expected); InvalidSuite when it is unusable."""
    from camelup.harness.expectations import Expectations, ExpectationsError, load_expectations

    if not option:
        return Expectations()
    try:
        return load_expectations(Path(option))
    except ExpectationsError as error:
        raise InvalidSuite(str(error)) from None


def report_problems(suite: Suite) -> None:
    for problem in suite.problems:
        print(printable(str(problem)), file=sys.stderr)


# ---------------------------------------------------------------------------------- filters


@attrs.frozen
class Filters:
    rulesets: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> Filters:
        return cls(
            tuple(namespace.ruleset or ()), tuple(namespace.clause or ()), tuple(namespace.id or ())
        )

    def select(self, cases: Sequence[Case]) -> list[Case]:
        from camelup.harness.suite import select

        return list(select(cases, self.rulesets, self.clauses, self.ids))


def add_filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ruleset",
        action="append",
        metavar="NAME",
        help="only cases whose edition, module or variant is NAME (first, second, whirlwind,"
        " a variant); repeatable",
    )
    parser.add_argument(
        "--clause",
        action="append",
        metavar="PREFIX",
        help="only cases citing a clause that starts with PREFIX; repeatable",
    )
    parser.add_argument(
        "--id", action="append", metavar="ID", help="only this case (or ID prefix); repeatable"
    )


# ---------------------------------------------------------------------------------- adapter


def seconds(option: str, value: float) -> float:
    """``value``, refused (UsageError naming the range) unless a positive number of seconds
    of at most a day: a lock wait overflows far above that (OverflowError at 1e10)."""
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise UsageError(
            f"{option} {value:g}: must be a positive number of seconds, at most"
            f" {MAX_SECONDS:g} (one day)"
        )
    return value


@attrs.frozen
class AdapterOptions:
    """How to run an adapter; ``command`` None means the in-process reference."""

    command: str | None
    timeout: float
    handshake_timeout: float
    max_restarts: int
    max_line_bytes: int

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> AdapterOptions:
        """The options, refused (UsageError) when out of range, before anything starts."""
        command: str | None = namespace.adapter
        if command is not None and not command.strip():
            raise UsageError("--adapter: the command is empty")
        seconds("--timeout", namespace.timeout)
        seconds("--handshake-timeout", namespace.handshake_timeout)
        if not 0 <= namespace.max_restarts <= MAX_RESTARTS:
            raise UsageError(
                f"--max-restarts {namespace.max_restarts}: must be from 0 to {MAX_RESTARTS:,}"
            )
        if not MIN_LINE_BYTES <= namespace.max_line_bytes <= MAX_LINE_BYTES:
            raise UsageError(
                f"--max-line-bytes {namespace.max_line_bytes}: must be from {MIN_LINE_BYTES}"
                f" to {MAX_LINE_BYTES} (1 GiB)"
            )
        return cls(
            command,
            namespace.timeout,
            namespace.handshake_timeout,
            namespace.max_restarts,
            namespace.max_line_bytes,
        )

    def client(self) -> Client:
        """The adapter program, or the in-process reference when there is none."""
        from camelup.harness.protocol import (
            AdapterStartError,
            InProcessReference,
            SubprocessAdapter,
        )

        if self.command is None:
            return InProcessReference()
        try:
            return SubprocessAdapter(
                self.command,
                timeout=self.timeout,
                max_restarts=self.max_restarts,
                handshake_timeout=self.handshake_timeout,
                max_line_bytes=self.max_line_bytes,
            )
        except (AdapterStartError, ValueError) as error:  # ValueError: shlex, an open quote
            raise UsageError(f"--adapter {self.command!r}: {error}") from None


def add_adapter(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    default = "" if required else "; default: the reference, in-process"
    parser.add_argument(
        "--adapter",
        metavar="CMD",
        required=required,
        help='a program speaking the adapter protocol, e.g. "python -m camelup.adapter"'
        f" (split like a shell would, run without one, in its own process group{default})",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="per-case timeout for an adapter, at most 86400 (default: %(default)g)",
    )
    parser.add_argument(
        "--handshake-timeout",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="how long the adapter may take to start and answer hello (an interpreter or a VM"
        " may be slow to start; default: %(default)g)",
    )
    parser.add_argument(
        "--max-restarts",
        type=int,
        default=20,
        metavar="N",
        help=f"give up after restarting a broken adapter N times, at most {MAX_RESTARTS:,}"
        " (default: %(default)s), or once it broke 3 times in a row, each time before its"
        " first reply",
    )
    parser.add_argument(
        "--max-line-bytes",
        type=int,
        default=DEFAULT_LINE_BYTES,
        metavar="N",
        help="the longest protocol line the adapter may write; a longer one breaks the protocol"
        " (default: %(default)s, 16 MiB)",
    )


# ----------------------------------------------------------------------------------- output


def check_output(option: str, output: str | None) -> None:
    """Refuse an output file that cannot be written, before the work that fills it."""
    if output is None:
        return
    path = Path(output)
    if not output.strip() or path.is_dir():
        raise UsageError(f"{option} {output}: not a file name")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"{option} {output}: no such folder {folder}")
    try:
        os.stat(path)
    except OSError as error:
        if error.errno == errno.ELOOP:  # a symbolic link loop names no file to write
            raise UsageError(f"{option} {output}: cannot write: {error.strerror}") from None
    writable = os.access(path, os.W_OK) if path.exists() else os.access(folder, os.W_OK)
    if not writable:
        raise UsageError(f"{option} {output}: not writable")
