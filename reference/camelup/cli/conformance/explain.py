"""``camelup conformance explain ID``: run one case step by step and show where it diverges."""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from camelup import exits
from camelup.cli import colour
from camelup.cli.common import Verb, error_line
from camelup.cli.conformance import shared
from camelup.safe_text import printable

if TYPE_CHECKING:
    from camelup.conformance.compare import Mismatch
    from camelup.conformance.suite import Case, Check


@attrs.frozen
class ExplainOptions:
    suite: str | None
    case_id: str
    adapter: shared.AdapterOptions
    colour: bool

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> ExplainOptions:
        return cls(
            namespace.suite,
            namespace.id,
            shared.AdapterOptions.from_namespace(namespace),
            colour.wanted(namespace.color),
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "id", metavar="ID", help="the case to run, e.g. turn.order/only-player-to-move-acts"
    )
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
    from camelup.conformance.compare import (
        ProtocolViolation,
        describe_action,
        reply_kind,
        wire_for,
    )
    from camelup.conformance.protocol import AdapterStartError, Reply
    from camelup.conformance.runner import verdict

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
        _timeline(case, body, result.mismatches, hello.capabilities, say)
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
    first = result.mismatches[0].after
    where = (
        "the given position"
        if first == 0
        else f"step {first} ({describe_action(case.steps[first - 1]['action'])})"
    )
    say(f"FAIL {case.id}: first divergence at {where}")
    for mismatch in result.mismatches:
        if mismatch.after != first:
            continue
        say(f"  {mismatch.summary}  [{mismatch.clause}]")
        for line in mismatch.diff:
            say(f"      {line}")
    later = [m for m in result.mismatches if m.after != first]
    if later:
        say(f"  and {len(later)} later mismatch(es):")
        for mismatch in later:
            say(f"    {mismatch.summary}  [{mismatch.clause}]")
    return exits.FAILED


def _events_line(events: Any) -> str:
    if not isinstance(events, list):
        return ""
    return ", ".join(str(e.get("type")) if isinstance(e, dict) else "?" for e in events)


def _error_text(error: Any) -> str:
    if not isinstance(error, dict):
        return json.dumps(error)
    clause = f" [{error['clause']}]" if error.get("clause") else ""
    return f"{error.get('code')}{clause}"


def _check_label(check: Check) -> str:
    from camelup.conformance.suite import (
        ErrorCheck,
        EventsCheck,
        LegalActionsCheck,
        OddsCheck,
        RankingCheck,
        StateCheck,
    )

    if isinstance(check, StateCheck):
        return "state " + ", ".join(p or "/" for p in check.values)
    if isinstance(check, EventsCheck):
        return f"events ({check.match}, {len(check.events)} expected)"
    if isinstance(check, ErrorCheck):
        return f"error {check.code}"
    if isinstance(check, OddsCheck):
        return "odds " + ", ".join(check.odds)
    if isinstance(check, RankingCheck):
        return "ranking " + " > ".join(check.ranking)
    if isinstance(check, LegalActionsCheck):
        if check.exact:
            return f"legal actions ({len(check.actions)} expected)"
        return f"legal actions ({len(check.actions)} included, {len(check.excluded)} excluded)"
    return "unchanged by the refusal"


def _timeline(
    case: Case,
    body: Mapping[str, Any],
    mismatches: Sequence[Mismatch],
    capabilities: frozenset[str],
    say: _Out,
) -> None:
    from camelup.conformance.compare import applicable, describe_action
    from camelup.conformance.suite import StateCheck

    failed = {(m.check, m.pointer) for m in mismatches}
    steps = body.get("steps", [])
    for moment in range(len(case.steps) + 1):
        if moment == 0:
            refused = body.get("initial_error")
            status = "refused: " + _error_text(refused) if refused is not None else "loaded"
            say(f"step 0  given {next(iter(case.given))}: {status}")
        else:
            action = describe_action(case.steps[moment - 1]["action"])
            step = steps[moment - 1] if moment - 1 < len(steps) else {}
            if "error" in step:
                status = "rejected: " + _error_text(step["error"])
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
        for mismatch in mismatches:
            if mismatch.after == moment and mismatch.check is None:
                say(f"    x  {mismatch.summary}")
        for check in case.checks:
            if check.after != moment:
                continue
            clause = f"  [{case.clause_of(check)}]"
            if not applicable(check, capabilities):
                say(f"    -  {_check_label(check)}{clause} (not compared: capability missing)")
            elif isinstance(check, StateCheck):
                for where in check.values:
                    mark = "x " if (check.index, where) in failed else "ok"
                    say(f"    {mark} state {where or '/'}{clause}")
            else:
                mark = "x " if (check.index, None) in failed else "ok"
                say(f"    {mark} {_check_label(check)}{clause}")


VERB = Verb(
    name="explain",
    summary="run one case step by step and show where it first diverges",
    example="camelup conformance explain tile.land.backward/unit-goes-underneath \\\n"
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
    options=ExplainOptions.from_namespace,
    handle=handle,
)
