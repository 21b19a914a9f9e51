"""Colour on a terminal: ``--color auto|always|never``, honouring ``NO_COLOR``.

``auto`` (the default) colours only when standard output is a terminal, ``NO_COLOR`` is unset
or empty (https://no-color.org) and ``TERM`` is not ``dumb``; ``always`` and ``never`` decide
alone (an option given on the command line beats the environment). Only the verdict labels and
the summary line are coloured, after any text from outside has been escaped.
"""

from __future__ import annotations

import argparse
import re
import sys

from camelup.io.terminal import use_color

CHOICES = ("auto", "always", "never")
RED, GREEN, YELLOW, RESET = "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[0m"
_LABEL = re.compile(r"^(FAIL|ERROR|XPASS|PASS|SKIPPED)\b", re.MULTILINE)
_SUMMARY = re.compile(r"^\d+ passed, (\d+) failed, (\d+) errored, \d+ skipped$", re.MULTILINE)
_COLOURS = {"FAIL": RED, "ERROR": RED, "XPASS": YELLOW, "PASS": GREEN, "SKIPPED": YELLOW}


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--color",
        choices=CHOICES,
        default="auto",
        help="colour the verdicts: auto = on a terminal unless NO_COLOR is set",
    )


def wanted(choice: str) -> bool:
    """Whether to colour what goes to standard output."""
    return use_color(choice, sys.stdout)


def colour(text: str) -> str:
    """``text`` (a human report) with its verdict labels and summary line coloured."""
    text = _LABEL.sub(lambda m: f"{_COLOURS[m.group(1)]}{m.group(1)}{RESET}", text)

    def summary(found: re.Match[str]) -> str:
        bad = int(found.group(1)) or int(found.group(2))
        return f"{RED if bad else GREEN}{found.group(0)}{RESET}"

    return _SUMMARY.sub(summary, text)
