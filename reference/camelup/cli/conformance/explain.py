"""``camelup conformance explain ID``: run one case step by step and show where it diverges."""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

import camelup.cli.colour as colour
import camelup.cli.conformance.shared as shared
from camelup.cli.common import Verb, error_line, options_from
from camelup.io import exits
from camelup.io.safe_text import printable

if TYPE_CHECKING:
    from camelup.harness.compare import Mismatch
    from camelup.harness.suite import Case


@attrs.frozen
class ExplainOptions:
    suite: str | None
    case_id: str
    adapter: shared.AdapterOptions
    colour: bool


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="the case to run, e.g. turn.order/not-your-turn")
    shared.add_suite(parser)
    shared.add_adapter(parser)
    colour.add_option(parser)


class _Out:
    """The explanation, collected and printed at once (escaped, coloured when wanted)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, text: str = "") -> None:
        self.lines.append(text)


def handle(options: ExplainOptions) -> int:
    out = _Out()
    try:
        return _explain(options, out)
    finally:
        text = printable("\n".join(out.lines)) + "\n" if out.lines else ""
        print(colour.colour(text) if options.colour else text, end="")


def _explain(options: ExplainOptions, say: _Out) -> int:
    from camelup.harness.compare import (
        ProtocolViolation,
        compare,
        moment_text,
        reply_kind,
        wire_for,
    )
    from camelup.harness.divergence import case_divergence, reference_reply, silence_note
    from camelup.harness.features import needs_partnerships
    from camelup.harness.protocol import AdapterStartError, Reply
    from camelup.harness.rule_links import rule_links
    from camelup.harness.runner import verdict

    suite = shared.load(options.suite)
    case = shared.find(suite, options.case_id)
    client = options.adapter.client()
    say(f"case {case.id}  [{', '.join(case.clauses)}]  {case.where}")
    say(f"  {case.description}")
    say(f"  ruleset: {case.ruleset_label()}")
    gently = True
    try:
        try:
            hello = client.start()
        except AdapterStartError as error:
            error_line(shared.PREFIX, f"the adapter could not start: {error}")
            return exits.ADAPTER
        say(f"implementation: {hello.summary()}")
        if not hello.supports(case.ruleset):
            error_line(
                shared.PREFIX, f"the adapter does not support {hello.unsupported(case.ruleset)}"
            )
            return exits.ADAPTER
        if not hello.supports_case(case.ruleset, needs_partnerships(case.raw)):
            error_line(
                shared.PREFIX, "the adapter does not support partnerships, which the case needs"
            )
            return exits.ADAPTER
        wire = wire_for(case, hello.capabilities)
        [(_, outcome)] = list(client.run([wire]))
    except AdapterStartError as error:
        error_line(shared.PREFIX, f"the adapter could not be restarted: {error}")
        return exits.ADAPTER
    except KeyboardInterrupt:
        gently = False
        raise
    finally:
        client.close(gently=gently)
    result = verdict(case, outcome, hello)
    body: Mapping[str, Any] | None = None
    if isinstance(outcome, Reply) and result.note != "protocol":
        try:
            if reply_kind(outcome.body) == "result":
                body = outcome.body
        except ProtocolViolation:
            body = None
    say()
    if body is not None:
        marks = compare(case, body, hello.capabilities) if result.verdict == "failed" else []
        _timeline(case, body, marks, result.diverged_at, hello.capabilities, say)
    say()
    if result.verdict == "passed":
        say(f"PASS {case.id}")
        return exits.OK
    if result.verdict != "failed":
        say(f"{result.verdict.upper()} {case.id}: {result.reason}")
        if result.stderr.strip():
            say("adapter stderr (last lines):")
            say(textwrap.indent(result.stderr, "  | "))
        if result.note == "protocol":
            return exits.PROTOCOL
        return exits.OK if result.verdict == "skipped" else exits.FAILED
    first = result.mismatches[0]
    where = moment_text(case, first.after, after=False) if first.after else "the given position"
    what = "first divergence" if first.divergence else "first failing check"
    say(f"FAIL {case.id}: {what} at {where}")
    rule = rule_links(first.clause, case.ruling)
    if rule is not None:
        say(f"  {rule.line()}")
    for mismatch in result.mismatches:
        if mismatch.after != first.after:
            continue
        say(f"  {mismatch.summary}  [{mismatch.clause}]")
        for line in mismatch.diff:
            say(f"      {line}")
    later = [m for m in result.mismatches if m.after != first.after]
    if later:
        say(f"  and {len(later)} later mismatch(es):")
        for mismatch in later:
            say(f"    {mismatch.summary}  [{mismatch.clause}]")
            if mismatch.divergence:  # the one that matters: shown in full
                for line in mismatch.diff:
                    say(f"        {line}")
    silenced = silence_note(result.diverged_at, len(result.not_compared))
    if silenced:
        say(f"  {silenced}")
    if body is not None:
        found = case_divergence(case, body, reference_reply(case), capabilities=hello.capabilities)
        if found is not None:
            _pictures(case, body, reference_reply(case), found.moment, hello.capabilities, say)
    return exits.FAILED


def _pictures(
    case: Case,
    body: Mapping[str, Any],
    reference: Mapping[str, Any],
    moment: int,
    capabilities: frozenset[str],
    say: _Out,
) -> None:
    """The board before and after the diverging step, on both sides, as text."""
    from camelup.io.replay import moments

    mine, theirs = moments(body), moments(reference)
    if moment == 0:
        shown = [
            ("the given position, the reference's", theirs[0].state, None),
            ("the given position, the adapter's", mine[0].state, None),
        ]
    else:
        with_events = "events" in capabilities
        shown = [
            (
                f"before step {moment}, the adapter's (the reference's is the same)",
                mine[moment - 1].state,
                None,
            ),
            (
                f"after step {moment}, the reference's",
                theirs[moment].state,
                reference["steps"][moment - 1].get("events", []),
            ),
            (
                f"after step {moment}, the adapter's"
                + (" (it refused the step: unchanged)" if mine[moment].error is not None else ""),
                mine[moment].state,
                body["steps"][moment - 1].get("events", []) if with_events else None,
            ),
        ]
    for title, state, moves in shown:
        say()
        say(f"{title}:")
        say(textwrap.indent(_picture(state, moves), "  ").rstrip("\n"))


def _picture(state_json: Any, events_json: Any) -> str:
    """The text board of a state as written (drawn even when the rules would refuse it), with
    the step's unit moves; one line saying why when it cannot be drawn."""
    from camelup.io.codec import event_from_json, state_as_written
    from camelup.model.errors import CamelUpError
    from camelup.tools.render.text import state_text

    try:
        state = state_as_written(state_json)
    except CamelUpError as error:
        return f"(cannot be drawn: {error.pointer or '/'}: {error.message})"
    moves = []
    for event in events_json if isinstance(events_json, list) else []:
        try:
            moves.append(event_from_json(event))
        except CamelUpError:
            continue  # a malformed event of the adapter draws no arrow
    try:
        return state_text(state, color=False, move=moves)
    except (ValueError, IndexError, KeyError, TypeError) as error:  # a state no rule allows
        return f"(cannot be drawn: {type(error).__name__}: {error})"


def _events_line(events: Any) -> str:
    if not isinstance(events, list):
        return ""
    return ", ".join(str(e.get("type")) if isinstance(e, dict) else "?" for e in events)


def _timeline(
    case: Case,
    body: Mapping[str, Any],
    mismatches: Sequence[Mismatch],
    diverged_at: int | None,
    capabilities: frozenset[str],
    say: _Out,
) -> None:
    """Every step and every check at it: ``ok``, ``x`` (failed, as the check alone judges
    it), or ``-`` (not compared), with the first divergence from the reference marked."""
    from camelup.harness.compare import applicable, describe_action, error_text
    from camelup.harness.divergence import after_divergence
    from camelup.harness.suite import StateCheck

    failed = {(m.check, m.pointer) for m in mismatches}
    steps = body.get("steps", [])
    for moment in range(len(case.steps) + 1):
        if moment == 0:
            refused = body.get("initial_error")
            status = "refused: " + error_text(refused) if refused is not None else "loaded"
            say(f"step 0  given {next(iter(case.given))}: {status}")
        else:
            action = describe_action(case.steps[moment - 1]["action"])
            step = steps[moment - 1] if moment - 1 < len(steps) else {}
            if "error" in step:
                status = "rejected: " + error_text(step["error"])
            elif "state" in step:
                events = (
                    f"; events: {_events_line(step.get('events'))}"
                    if "events" in capabilities
                    else ""
                )
                status = "accepted" + events
            else:
                status = "not run"
            say(f"step {moment}  {action}: {status}")
        if moment == diverged_at:
            say("    >> first divergence from the reference (below)")
        for mismatch in mismatches:
            if mismatch.after == moment and mismatch.check is None:
                if diverged_at is not None and moment > diverged_at:
                    say(f"    -  {mismatch.summary} (not judged: {after_divergence(diverged_at)})")
                else:
                    say(f"    x  {mismatch.summary}")
        for check in case.checks:
            if check.after != moment:
                continue
            clause = f"  [{case.clause_of(check)}]"
            if not applicable(check, capabilities):
                say(f"    -  {check.label}{clause} (not compared: capability missing)")
            elif diverged_at is not None and moment > diverged_at:
                silenced = after_divergence(diverged_at)
                say(f"    -  {check.label}{clause} (not compared: {silenced})")
            elif isinstance(check, StateCheck):
                for where in check.values:
                    mark = "x " if (check.index, where) in failed else "ok"
                    say(f"    {mark} state {where or '/'}{clause}")
            else:
                mark = "x " if (check.index, None) in failed else "ok"
                say(f"    {mark} {check.label}{clause}")


VERB = Verb(
    name="explain",
    summary="run one case step by step and show where it first diverges",
    example="camelup conformance explain tile.land.backward/underneath-keeping-order \\\n"
    '    --adapter "python docs/toy_adapter.py"',
    exit_codes=(
        (exits.OK, "the case passed (or was skipped)"),
        (exits.FAILED, "the case failed or errored: the first divergence is shown"),
        (exits.USAGE, "usage error: bad option or value out of range, no case with that ID"),
        (exits.INVALID_SUITE, "no case with that ID, and some case files could not be read"),
        (exits.PROTOCOL, "the adapter broke the protocol on the case"),
        (exits.ADAPTER, "the adapter could not start or does not support the case's rule set"),
    ),
    add_arguments=add_arguments,
    options=options_from(
        ExplainOptions,
        case_id=lambda namespace: namespace.id,
        adapter=shared.AdapterOptions.from_namespace,
        colour=lambda namespace: colour.wanted(namespace.color),
    ),
    handle=handle,
)
