"""``camelup render``: draw a state, or a step of a conformance case, as SVG or text.

The verb lives in its own module and touches the rest of the command line only through
:data:`VERB`; the drawing itself is :mod:`camelup.tools.render`.
"""

from __future__ import annotations

import argparse
import errno
import sys
from pathlib import Path
from typing import IO, Any

import attrs

import camelup.cli.conformance.shared as shared
from camelup.cli.common import InvalidSuite, UsageError, Verb, options_from, read_state
from camelup.cli.output import OutputError
from camelup.io import exits
from camelup.io.terminal import use_color

HELP = "draw a state, or a step of a conformance case, as an SVG diagram or as text"
DETAILS = """\
--after K draws the position after step K (0: the given position; default: after the last
step) with an arrow for each unit move of step K; --before K draws the position step K starts
from. A step the engine rejects leaves the position unchanged, as in the conformance suite.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "state", nargs="?", metavar="STATE.json", help="a state in the JSON format ('-': stdin)"
    )
    parser.add_argument("--case", metavar="ID", help="a case of the conformance suite, by its ID")
    step = parser.add_mutually_exclusive_group()
    step.add_argument(
        "--after", type=int, metavar="K", help="the position after step K (0: the given one)"
    )
    step.add_argument("--before", type=int, metavar="K", help="the position step K starts from")
    shared.add_suite(parser)
    parser.add_argument("--format", choices=("svg", "text"), default="svg", help="default: svg")
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text form with ANSI codes (auto: when writing to a terminal and"
        " NO_COLOR is not set); the SVG is always in colour",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")


@attrs.frozen
class RenderOptions:
    state: str | None
    case: str | None
    after: int | None
    before: int | None
    suite: str | None
    format: str
    color: str
    output: str | None


def _case_frame(options: RenderOptions) -> tuple[Any, tuple[Any, ...]]:
    """The state to draw and the events of the step that led to it."""
    from camelup.model.errors import CamelUpError
    from camelup.tools.render import replay

    wanted = options.case
    assert wanted is not None  # _draw calls this for a --case only
    case = shared.find(shared.load(options.suite), wanted)  # UsageError or InvalidSuite
    steps = len(case.steps)
    if options.before is not None:
        if not 1 <= options.before <= steps:
            raise UsageError(f"--before {options.before}: {case.id} has steps 1 to {steps}")
        index, with_move = options.before - 1, False
    else:
        index = steps if options.after is None else options.after
        if not 0 <= index <= steps:
            raise UsageError(f"--after {index}: {case.id} has steps 0 to {steps}")
        with_move = True
    try:
        frames = replay(case.ruleset, case.given, case.steps[:index])
    except CamelUpError as error:
        raise InvalidSuite(f"{case.where}: {error}") from None
    frame = frames[index]
    return frame.state, (frame.events if with_move else ())


def _draw(options: RenderOptions, stream: IO[str] | None) -> str:
    """The drawing as text; ``stream`` is where it goes (None: a file, never a terminal)."""
    if (options.state is None) == (options.case is None):
        raise UsageError("give either STATE.json or --case ID")
    if options.case is None and (options.after is not None or options.before is not None):
        raise UsageError("--after and --before choose a step of a --case")
    if options.state is None:
        state, events = _case_frame(options)
    else:
        state, events = read_state(options.state), ()
    from camelup.tools.render import state_svg, state_text

    if options.format == "svg":
        return state_svg(state, move=events)
    return state_text(state, color=use_color(options.color, stream), move=events)


def handle(options: RenderOptions) -> int:
    """Draw what ``options`` asks for; one line on stderr and a non-zero code when it cannot."""
    if options.output is not None:
        drawing = _draw(options, None)  # drawn first: a refusal leaves no empty file behind
        from camelup.io.outputs import write_output

        write_output(Path(options.output), drawing)
        return exits.OK
    drawing = _draw(options, sys.stdout)
    # The SVG is a UTF-8 document whatever the terminal's locale (the text is ASCII).
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a replaced stdout (tests, embedding) takes text
        sys.stdout.write(drawing)
        return exits.OK
    sys.stdout.flush()
    try:
        buffer.write(drawing.encode("utf-8"))
        buffer.flush()
    except OSError as error:  # main's: 141 for a closed pipe, 74 otherwise
        raise OutputError(error.errno or errno.EIO, error.strerror or str(error)) from None
    return exits.OK


VERB = Verb(
    name="render",
    summary=HELP,
    details=DETAILS,
    example="camelup render state.json -o board.svg\n"
    "camelup render --case whirlwind.bounce/seed-ww-example-1 --after 1 --format text\n"
    "camelup render --case crazy.no-wrap/lone-crazy-crosses --before 1 -o before.svg",
    exit_codes=(
        (exits.OK, "drawn"),
        (exits.USAGE, "usage error: bad option, no such file, no such case, no such step"),
        (
            exits.INVALID_INPUT,
            "invalid input: the state or the case is not one the engine"
            " accepts (one line naming the file and the JSON pointer of the fault)",
        ),
    ),
    add_arguments=add_arguments,
    options=options_from(RenderOptions),
    handle=handle,
)
