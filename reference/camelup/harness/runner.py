"""Running cases against an implementation and classifying every case.

A case ends as exactly one of ``passed``, ``failed``, ``errored`` or ``skipped``; ``note`` says
more: ``xfail``/``xpass`` (the expectations file), ``expected-skip``, ``unsupported`` (a rule set
or capability the adapter did not declare), ``adapter-skip`` (the adapter declined it), and
``protocol`` (the adapter broke the protocol on it: crashed, hung, wrote garbage, answered out of
order or malformed).
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol

import attrs

import camelup.harness.divergence as divergence
from camelup.harness.compare import (
    Mismatch,
    ProtocolViolation,
    applicable,
    compare,
    missing_capabilities,
    reply_kind,
    wire_for,
)
from camelup.harness.expectations import Expectations
from camelup.harness.features import PARTNERSHIP_SKIP, needs_partnerships
from camelup.harness.nesting import too_deep_reply
from camelup.harness.protocol import AdapterStartError, Broken, Hello, Outcome, Reply
from camelup.harness.suite import Case
from camelup.io import exits

Verdict = Literal["passed", "failed", "errored", "skipped"]
VERDICTS: tuple[Verdict, ...] = ("passed", "failed", "errored", "skipped")


class Client(Protocol):
    """An implementation under test: the in-process reference or an adapter program."""

    protocol_broken: bool

    @property
    def description(self) -> str: ...

    def start(self) -> Hello: ...

    def run(self, cases: Sequence[Mapping[str, Any]]) -> Any: ...  # Iterator[tuple[int, Outcome]]

    def close(self, gently: bool = True) -> None: ...


@attrs.frozen
class CaseResult:
    case: Case
    verdict: Verdict
    note: str = ""
    reason: str = ""
    mismatches: tuple[Mismatch, ...] = ()
    stderr: str = ""
    seconds: float = 0.0
    diverged_at: int | None = None  # the moment of the first divergence from the reference
    not_compared: tuple[int, ...] = ()  # checks after it (indices into the case's expect)


@attrs.frozen
class RunReport:
    """Everything a report renders: the results in suite order and how the run went."""

    results: tuple[CaseResult, ...]
    adapter: str
    hello: Hello | None
    problems: tuple[str, ...] = ()  # suite and expectations problems, one line each
    warnings: tuple[str, ...] = ()
    fatal: str | None = None  # why the adapter could not be used at all
    fatal_code: int = exits.OK
    protocol_broken: bool = False
    strict: bool = False
    started: str = ""
    seconds: float = 0.0
    interrupted: exits.Interrupted | None = None  # a signal ended the run: results are partial
    stopped: str | None = None  # why the run stopped early (--maxfail), results are partial
    selected: int = 0  # cases selected to run (more than results when the run ended early)

    def count(self, verdict: Verdict) -> int:
        return sum(1 for r in self.results if r.verdict == verdict)

    def noted(self, note: str) -> int:
        return sum(1 for r in self.results if r.note == note)

    def summary_line(self) -> str:
        return ", ".join(f"{self.count(v)} {v}" for v in VERDICTS)

    @property
    def ended_early(self) -> str | None:
        """Why the results are partial, in words, or None when every selected case ran."""
        if self.interrupted is not None:
            return (
                f"interrupted by {self.interrupted.signal_name}:"
                f" {len(self.results)} of {self.selected} case(s) finished"
            )
        return self.stopped

    @property
    def exit_code(self) -> int:
        """One code, the most severe condition: interrupted (130, 143) > 5 > 4 > 3 > 1 > 0."""
        if self.interrupted is not None:
            return self.interrupted.exit_code
        if self.fatal_code:
            return self.fatal_code
        if self.protocol_broken or any(r.note == "protocol" for r in self.results):
            return exits.PROTOCOL
        if self.problems:
            return exits.INVALID_SUITE
        if self.count("failed") or self.count("errored"):
            return exits.FAILED
        return exits.OK


def run_cases(
    cases: Sequence[Case],
    client: Client,
    expectations: Expectations | None = None,
    strict: bool = False,
    problems: Sequence[str] = (),
    on_start: Callable[[Hello | None, str], None] | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
    maxfail: int | None = None,
) -> RunReport:
    """Run ``cases`` on ``client`` and classify each; never raises for adapter trouble.

    ``on_start`` is called once the adapter has answered hello (with None when it could not
    start) and the time the run started; ``on_result`` with each result as soon as it and
    every case before it in ``cases`` are decided, so that a report can be streamed in suite
    order. After ``maxfail`` failed or
    errored cases the run stops. A KeyboardInterrupt (SIGINT, or SIGTERM as
    :class:`~camelup.io.exits.Interrupted`) ends the run too: the adapter is killed at once and
    the report holds the cases that finished, marked ``interrupted``.
    """
    expectations = expectations or Expectations()
    began = time.perf_counter()
    started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    warnings = [
        f"{e.where}: expectation {e.id!r} matches no selected case"
        for e in expectations.unused(c.id for c in cases)
    ]
    run = _Run(cases, on_result, maxfail)

    def report(**fields: Any) -> RunReport:
        run.flush()
        return RunReport(
            tuple(run.results[i] for i in sorted(run.results)),
            client.description,
            fields.pop("hello", None),
            tuple(problems),
            tuple(warnings),
            strict=strict,
            started=started,
            seconds=time.perf_counter() - began,
            selected=len(cases),
            **fields,
        )

    hello: Hello | None = None
    gently = True
    try:
        try:
            hello = client.start()
        except AdapterStartError as error:
            if on_start is not None:
                on_start(None, started)
            return report(fatal=f"the adapter could not start: {error}", fatal_code=exits.ADAPTER)
        if on_start is not None:
            on_start(hello, started)
        return report(hello=hello, **_run(run, client, hello, expectations, strict))
    except KeyboardInterrupt as error:
        gently = False
        return report(hello=hello, interrupted=exits.interruption(error))
    finally:
        client.close(gently=gently)


class _Run:
    """The results so far, handed on in suite order as soon as each is decided."""

    def __init__(
        self,
        cases: Sequence[Case],
        on_result: Callable[[CaseResult], None] | None,
        maxfail: int | None,
    ) -> None:
        self.cases = cases
        self.results: dict[int, CaseResult] = {}
        self._on_result = on_result
        self._next = 0  # the first index not yet handed on
        self._maxfail = maxfail
        self.failures = 0

    def decide(self, index: int, result: CaseResult) -> None:
        self.results[index] = result
        if result.verdict in ("failed", "errored"):
            self.failures += 1
        while self._next in self.results:
            result = self.results[self._next]
            # Counted as handed on before it is: a signal raised once its report line is
            # written must not leave it to flush() to write a second time.
            self._next += 1
            if self._on_result is not None:
                self._on_result(result)

    def flush(self) -> None:
        """Hand on the decided results not yet handed on (the run ended before the others)."""
        for index in sorted(i for i in self.results if i >= self._next):
            if self._on_result is not None:
                self._on_result(self.results[index])
        self._next = len(self.cases)

    @property
    def enough(self) -> bool:
        return self._maxfail is not None and self.failures >= self._maxfail


def _run(
    run: _Run, client: Client, hello: Hello, expectations: Expectations, strict: bool
) -> dict[str, Any]:
    """Run the cases into ``run``; the fields of the report that say how it went."""
    cases = run.cases
    if cases and not any(hello.supports(c.ruleset) for c in cases):
        editions = ", ".join(sorted(hello.editions)) or "none"
        return {
            "fatal_code": exits.ADAPTER,
            "fatal": "the adapter shares no rule set with the selected cases"
            f" (it supports editions: {editions})",
        }
    to_send: list[tuple[int, Case]] = []
    for index, case in enumerate(cases):
        expected = expectations.lookup(case.id)
        if expected is not None and expected.status == "skip":
            skipped = ("expected-skip", expected.describe())
        elif not hello.supports(case.ruleset):
            skipped = (
                "unsupported",
                f"the adapter does not support {hello.unsupported(case.ruleset)}",
            )
        elif not hello.supports_case(case.ruleset, needs_partnerships(case.raw)):
            skipped = ("unsupported", PARTNERSHIP_SKIP)
        elif not any(applicable(c, hello.capabilities) for c in case.checks):
            needs = ", ".join(missing_capabilities(case, hello.capabilities))
            skipped = ("unsupported", f"needs the capability {needs}")
        else:
            to_send.append((index, case))
            continue
        run.decide(index, CaseResult(case, "skipped", *skipped))
    wire = [wire_for(case, hello.capabilities) for _, case in to_send]
    fatal: str | None = None
    stopped: str | None = None
    # The unpatched in-process reference cannot diverge from itself.
    diverging = not divergence.is_reference(client)
    try:
        for position, outcome in client.run(wire):
            index, case = to_send[position]
            run.decide(index, _judge(case, outcome, hello, expectations, strict, diverging))
            if run.enough:
                stopped = (  # -x is --maxfail 1: the user may have typed either
                    "stopped at the first failed or errored case (-x, --maxfail 1)"
                    if run.failures == 1
                    else f"stopped after {run.failures} failed or errored cases"
                    f" (--maxfail {run.failures})"
                )
                break
    except AdapterStartError as error:
        fatal = f"the adapter could not be restarted: {error}"
    if stopped is None:
        for index, case in to_send:  # cases a failed restart left without a result
            if index not in run.results:
                run.decide(
                    index, CaseResult(case, "errored", "protocol", "not run: the adapter is gone")
                )
    return {
        "fatal": fatal,
        "fatal_code": exits.ADAPTER if fatal else exits.OK,
        "protocol_broken": client.protocol_broken,
        "stopped": stopped,
    }


def _judge(
    case: Case,
    outcome: Outcome,
    hello: Hello,
    expectations: Expectations,
    strict: bool,
    diverging: bool = True,
) -> CaseResult:
    result = verdict(case, outcome, hello, diverging)
    expected = expectations.lookup(case.id)
    if expected is None or expected.status != "xfail":
        return result
    if result.verdict == "failed" or (result.verdict == "errored" and result.note != "protocol"):
        return attrs.evolve(result, verdict="skipped", note="xfail", reason=expected.describe())
    if result.verdict == "passed":
        reason = (
            f"expected to fail ({expected.describe()}) but passed: remove it from {expected.where}"
        )
        return attrs.evolve(
            result, verdict="failed" if strict else "passed", note="xpass", reason=reason
        )
    return result


def verdict(case: Case, outcome: Outcome, hello: Hello, diverging: bool = True) -> CaseResult:
    """Classify one case from the adapter's outcome (expectations not applied); unless
    ``diverging`` is False (the adapter is the reference), with its first divergence from
    the reference (:mod:`camelup.harness.divergence`)."""
    if isinstance(outcome, Broken):
        return CaseResult(case, "errored", "protocol", outcome.message, stderr=outcome.stderr)
    assert isinstance(outcome, Reply)
    body = outcome.body

    def unjudged(verdict: Verdict, note: str, reason: str) -> CaseResult:
        return CaseResult(case, verdict, note, reason, seconds=outcome.seconds)

    if outcome.too_deep is not None:  # compared recursively below: refused, the run goes on
        return unjudged("errored", "protocol", too_deep_reply(body, outcome.too_deep))
    try:
        kind = reply_kind(body)
        if kind == "skipped":
            return unjudged("skipped", "adapter-skip", body["skipped"]["reason"])
        if kind == "errored":
            return unjudged("errored", "", body["errored"]["message"])
        mismatches = compare(case, body, hello.capabilities)
        judged = (
            divergence.judge(case, body, hello.capabilities, mismatches)
            if diverging
            else divergence.Judged(tuple(mismatches))
        )
    except ProtocolViolation as error:
        return unjudged("errored", "protocol", f"malformed reply: {error}")
    except RecursionError:  # deep, but read without its text (nesting.may_nest_too_deep)
        return unjudged("errored", "protocol", too_deep_reply(body))
    passed: Verdict = "failed" if judged.mismatches else "passed"
    return CaseResult(
        case,
        passed,
        mismatches=judged.mismatches,
        seconds=outcome.seconds,
        diverged_at=judged.divergence.moment if judged.divergence else None,
        not_compared=judged.not_compared,
    )
