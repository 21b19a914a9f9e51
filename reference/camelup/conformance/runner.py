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

from camelup.conformance.compare import (
    Mismatch,
    ProtocolViolation,
    applicable,
    compare,
    legal_actions_wanted,
    missing_capabilities,
    odds_wanted,
    reply_kind,
)
from camelup.conformance.expectations import Expectations
from camelup.conformance.protocol import AdapterStartError, Broken, Hello, Outcome, Reply
from camelup.conformance.suite import Case

# Exit codes of `camelup conformance ...` (documented in the CLI help and docs/adapter-protocol.md;
# 70, an internal error, is camelup.cli's).
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INVALID_SUITE = 3
EXIT_PROTOCOL = 4
EXIT_ADAPTER = 5

EXIT_CODES_HELP = """\
exit codes:
   0  every selected case passed (expected failures and skips are fine)
   1  a case failed or errored (or, with --strict, an expected failure passed);
      coverage: a must-clause implemented by the engine has no case
   2  usage error (bad option, unknown case ID, no case matches the filters)
   3  invalid suite, case file or expectations file (validate: any problem)
   4  the adapter broke the protocol (crashed, hung, garbage, wrong seq, malformed reply)
   5  the adapter could not start, speaks another protocol version, or shares no rule set
      with the selected cases
  70  internal error: a bug in camelup, not a verdict on the implementation (one line
      naming the exception); please report it
"""

Verdict = Literal["passed", "failed", "errored", "skipped"]
VERDICTS: tuple[Verdict, ...] = ("passed", "failed", "errored", "skipped")


class Client(Protocol):
    """An implementation under test: the in-process reference or an adapter program."""

    protocol_broken: bool

    @property
    def description(self) -> str: ...

    def start(self) -> Hello: ...

    def run(self, cases: Sequence[Mapping[str, Any]]) -> Any: ...  # Iterator[tuple[int, Outcome]]

    def close(self) -> None: ...


@attrs.frozen
class CaseResult:
    case: Case
    verdict: Verdict
    note: str = ""
    reason: str = ""
    mismatches: tuple[Mismatch, ...] = ()
    stderr: str = ""
    seconds: float = 0.0


@attrs.frozen
class RunReport:
    """Everything a report renders: the results in suite order and how the run went."""

    results: tuple[CaseResult, ...]
    adapter: str
    hello: Hello | None
    problems: tuple[str, ...] = ()  # suite and expectations problems, one line each
    warnings: tuple[str, ...] = ()
    fatal: str | None = None  # why the adapter could not be used at all
    fatal_code: int = EXIT_OK
    protocol_broken: bool = False
    strict: bool = False
    started: str = ""
    seconds: float = 0.0

    def count(self, verdict: Verdict) -> int:
        return sum(1 for r in self.results if r.verdict == verdict)

    def noted(self, note: str) -> int:
        return sum(1 for r in self.results if r.note == note)

    def summary_line(self) -> str:
        return ", ".join(f"{self.count(v)} {v}" for v in VERDICTS)

    @property
    def exit_code(self) -> int:
        """One code, the most severe condition: 5 > 4 > 3 > 1 > 0."""
        if self.fatal_code:
            return self.fatal_code
        if self.protocol_broken or any(r.note == "protocol" for r in self.results):
            return EXIT_PROTOCOL
        if self.problems:
            return EXIT_INVALID_SUITE
        if self.count("failed") or self.count("errored"):
            return EXIT_FAILED
        return EXIT_OK


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def run_cases(
    cases: Sequence[Case],
    client: Client,
    expectations: Expectations | None = None,
    strict: bool = False,
    problems: Sequence[str] = (),
) -> RunReport:
    """Run ``cases`` on ``client`` and classify each; never raises for adapter trouble."""
    expectations = expectations or Expectations()
    began, started = time.perf_counter(), _now()
    warnings = [
        f"{e.where}: expectation {e.id!r} matches no selected case"
        for e in expectations.unused(c.id for c in cases)
    ]

    def report(results: dict[int, CaseResult], **fields: Any) -> RunReport:
        ordered = tuple(results[i] for i in sorted(results))
        return RunReport(
            ordered,
            client.description,
            fields.pop("hello", None),
            tuple(problems),
            tuple(warnings),
            strict=strict,
            started=started,
            seconds=time.perf_counter() - began,
            **fields,
        )

    try:
        hello = client.start()
    except AdapterStartError as error:
        return report({}, fatal=f"the adapter could not start: {error}", fatal_code=EXIT_ADAPTER)
    try:
        return _run(cases, client, hello, expectations, strict, report)
    finally:
        client.close()


def _run(
    cases: Sequence[Case],
    client: Client,
    hello: Hello,
    expectations: Expectations,
    strict: bool,
    report: Callable[..., RunReport],
) -> RunReport:
    results: dict[int, CaseResult] = {}
    if cases and not any(hello.supports(c.ruleset) for c in cases):
        editions = ", ".join(sorted(hello.editions)) or "none"
        return report(
            results,
            hello=hello,
            fatal_code=EXIT_ADAPTER,
            fatal="the adapter shares no rule set with the selected cases"
            f" (it supports editions: {editions})",
        )
    to_send: list[tuple[int, Case]] = []
    for index, case in enumerate(cases):
        expected = expectations.lookup(case.id)
        if expected is not None and expected.status == "skip":
            results[index] = CaseResult(case, "skipped", "expected-skip", expected.describe())
        elif not hello.supports(case.ruleset):
            results[index] = CaseResult(
                case,
                "skipped",
                "unsupported",
                f"the adapter does not support {hello.unsupported(case.ruleset)}",
            )
        elif not any(applicable(c, hello.capabilities) for c in case.checks):
            needs = ", ".join(missing_capabilities(case, hello.capabilities))
            results[index] = CaseResult(
                case, "skipped", "unsupported", f"needs the capability {needs}"
            )
        else:
            to_send.append((index, case))
    wire = [
        case.wire(
            legal_actions_wanted(case, hello.capabilities), odds_wanted(case, hello.capabilities)
        )
        for _, case in to_send
    ]
    fatal: str | None = None
    try:
        for position, outcome in client.run(wire):
            index, case = to_send[position]
            results[index] = _judge(case, outcome, hello, expectations, strict)
    except AdapterStartError as error:
        fatal = f"the adapter could not be restarted: {error}"
    for index, case in to_send:  # cases a failed restart left without a result
        if index not in results:
            results[index] = CaseResult(case, "errored", "protocol", "not run: the adapter is gone")
    return report(
        results,
        hello=hello,
        fatal=fatal,
        fatal_code=EXIT_ADAPTER if fatal else EXIT_OK,
        protocol_broken=client.protocol_broken,
    )


def _judge(
    case: Case, outcome: Outcome, hello: Hello, expectations: Expectations, strict: bool
) -> CaseResult:
    result = verdict(case, outcome, hello)
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


def verdict(case: Case, outcome: Outcome, hello: Hello) -> CaseResult:
    """Classify one case from the adapter's outcome (expectations not applied)."""
    if isinstance(outcome, Broken):
        return CaseResult(case, "errored", "protocol", outcome.message, stderr=outcome.stderr)
    assert isinstance(outcome, Reply)
    body = outcome.body
    try:
        kind = reply_kind(body)
        if kind == "skipped":
            return CaseResult(
                case, "skipped", "adapter-skip", body["skipped"]["reason"], seconds=outcome.seconds
            )
        if kind == "errored":
            return CaseResult(
                case, "errored", "", body["errored"]["message"], seconds=outcome.seconds
            )
        mismatches = compare(case, body, hello.capabilities)
    except ProtocolViolation as error:
        return CaseResult(
            case, "errored", "protocol", f"malformed reply: {error}", seconds=outcome.seconds
        )
    passed: Verdict = "failed" if mismatches else "passed"
    return CaseResult(case, passed, mismatches=tuple(mismatches), seconds=outcome.seconds)
