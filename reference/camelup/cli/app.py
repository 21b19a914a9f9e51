"""The ``camelup`` command line's parser and its one verb run. Every failure is one line on stderr
and a documented exit code.

Each verb lives in a module of its own (``camelup.cli.spec.*``, ``camelup.cli.conformance.*``)
that declares its options, a typed options class built from them and its handler, as a
:class:`~camelup.cli.common.Verb`. This module builds the parser from the verbs and runs one,
turning what can go wrong around any verb into its exit code (:mod:`camelup.io.exits`): a
signal, standard output that cannot be written, or a bug.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

import camelup.cli.signals as signals
from camelup.cli.common import HelpFormatter, error_line, group
from camelup.cli.output import OutputError, guarded_stdout, silence_stdout
from camelup.io import exits
from camelup.io.outputs import OutputRefused

DESCRIPTION = "The Camel Up reference implementation: the spec's clauses and the conformance suite."


def version() -> str:
    """``camelup 0.1.0 (adapter protocol 1)``: the installed package's version (pyproject.toml
    is its one source) and the protocol the runner speaks."""
    from camelup.harness.protocol import PROTOCOL
    from camelup.io.resources import package_version

    return f"camelup {package_version()} (adapter protocol {PROTOCOL})"


class _VersionAction(argparse.Action):
    """``--version``, computed only when asked for: building the parser stays cheap."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(version())
        parser.exit()


SHELLS = ("bash", "zsh")


class _CompletionAction(argparse.Action):
    """``--print-completion SHELL``: the completion script, from the optional shtab package
    (``pip install camelup[completion]``); camelup itself does not depend on it."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        shell = args[1]
        try:
            import shtab
        except ImportError:
            parser.exit(
                exits.USAGE,
                "camelup: --print-completion needs the shtab package:"
                " pip install 'camelup[completion]' (or pip install shtab)\n",
            )
        print(shtab.complete(parser, shell=shell), end="")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    from camelup.cli.conformance import VERBS as CONFORMANCE
    from camelup.cli.spec import VERBS as SPEC

    parser = argparse.ArgumentParser(
        prog="camelup",
        description=DESCRIPTION,
        epilog="Each command's --help lists its own exit codes. Every command may end with:\n\n"
        + exits.epilog(()),
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="print the version and the protocol version"
    )
    parser.add_argument(
        "--print-completion",
        action=_CompletionAction,
        choices=SHELLS,
        metavar="SHELL",
        help="print a completion script for bash or zsh (needs the optional shtab package),"
        ' e.g. eval "$(camelup --print-completion bash)"',
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    group(
        commands,
        "spec",
        "the clause and ruling registry",
        "Check, sync, trace and show the clauses and rulings of spec/.",
        SPEC,
        "camelup",
    )
    group(
        commands,
        "conformance",
        "run and check the conformance suite",
        "Run the language-neutral conformance suite against the bundled reference engine or"
        " any implementation speaking the adapter protocol (docs/adapter-protocol.md).",
        CONFORMANCE,
        "camelup conformance",
    )
    from camelup.cli import docs, odds, render  # commands of their own, not groups of verbs

    odds.VERB.register(commands, "camelup odds")
    render.VERB.register(commands, "camelup render")
    group(
        commands,
        "docs",
        "the generated documentation and the static site",
        "Regenerate the rulings and chapter pages of docs/ from the spec, the suite and the"
        " code, or build the static HTML site of docs/.",
        docs.VERBS,
        "camelup docs",
    )
    return parser


def run(argv: Sequence[str] | None) -> int:
    """Parse ``argv`` and run its verb, with :mod:`camelup.cli`'s signal handlers in place."""
    with guarded_stdout():
        try:
            code = _dispatch(argv)
            sys.stdout.flush()
            received = signals.current.received
            if received is not None and code != received.exit_code:
                # Its Interrupted was swallowed (raised in a weakref callback or a finalizer)
                # or the signal came while the output was written: still an interruption.
                error_line("camelup", f"interrupted ({received.signal_name})")
                return received.exit_code
            return code
        except OutputError as error:
            silence_stdout()
            if error.broken_pipe:  # the reader has all it wanted (`| head`): not an error
                return exits.BROKEN_PIPE
            error_line("camelup", f"cannot write to standard output: {error.strerror}")
            return exits.OUTPUT
        except OutputRefused as error:  # a file or folder asked for (-o, --out, DIR)
            error_line("camelup", str(error))
            return error.exit_code
        except KeyboardInterrupt as error:
            interrupted = exits.interruption(error)
            error_line("camelup", f"interrupted ({interrupted.signal_name})")
            return interrupted.exit_code
        except Exception as error:  # a bug: its own exit code, one line, never a traceback
            error_line("camelup", f"internal error: {type(error).__name__}: {error}")
            return exits.INTERNAL


def _dispatch(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        namespace = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version (0) or a usage error argparse printed
        return exits.USAGE if exit_.code else exits.OK
    return int(namespace.run(namespace))
