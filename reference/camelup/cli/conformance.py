"""The verbs of ``camelup conformance``: run, list, show, explain, validate, coverage.

Each returns an exit code (see :mod:`camelup.conformance.runner`); every problem is one line
on stderr naming what and where, and results already computed are always printed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from camelup.conformance.compare import (
    Mismatch,
    ProtocolViolation,
    applicable,
    describe_action,
    legal_actions_wanted,
    odds_wanted,
    reply_kind,
)
from camelup.conformance.expectations import Expectations, ExpectationsError, load_expectations
from camelup.conformance.protocol import (
    AdapterStartError,
    InProcessReference,
    Reply,
    SubprocessAdapter,
)
from camelup.conformance.reports import render
from camelup.conformance.runner import (
    EXIT_ADAPTER,
    EXIT_FAILED,
    EXIT_INVALID_SUITE,
    EXIT_OK,
    EXIT_PROTOCOL,
    EXIT_USAGE,
    Client,
    run_cases,
    verdict,
)
from camelup.conformance.suite import (
    Case,
    Check,
    ErrorCheck,
    EventsCheck,
    OddsCheck,
    StateCheck,
    Suite,
    case_files,
    load_suite,
    select,
    suite_directory,
)
from camelup.io.jsonio import parse_json


class UsageError(Exception):
    """A bad request from the command line (exit code 2)."""


def _error(message: str) -> None:
    print(f"camelup conformance: {message}", file=sys.stderr)


def _suite(args: argparse.Namespace) -> Suite:
    directory = Path(args.suite) if getattr(args, "suite", None) else None
    if directory is None:
        try:
            directory = suite_directory()
        except FileNotFoundError as error:
            raise UsageError(str(error).removeprefix("camelup: ")) from None
    elif not directory.is_dir():
        raise UsageError(f"--suite {directory}: no such folder")
    return load_suite(directory)


def _with_registry_problems(suite: Suite) -> Suite:
    """The suite with the problems of clause, ruling and variant IDs added (cheap to check)."""
    from camelup.conformance.validate import registry_problems
    from camelup.spec.registry import load_registry

    registry = load_registry()
    found = [p for case in suite.cases for p in registry_problems(case, registry)]
    return attrs.evolve(suite, problems=(*suite.problems, *found)) if found else suite


def _report_problems(suite: Suite) -> None:
    for problem in suite.problems:
        print(problem, file=sys.stderr)


def _selection(args: argparse.Namespace, suite: Suite) -> list[Case]:
    return list(select(suite.cases, args.ruleset or (), args.clause or (), args.id or ()))


def _check_adapter_options(args: argparse.Namespace) -> None:
    """Refuse an empty adapter command, a timeout that is not a positive finite number of
    seconds and a negative restart budget, before anything is loaded or started."""
    if args.adapter is not None and not args.adapter.strip():
        raise UsageError("--adapter: the command is empty")
    if not (math.isfinite(args.timeout) and args.timeout > 0):
        raise UsageError(f"--timeout {args.timeout:g}: must be a positive number of seconds")
    if args.max_restarts < 0:
        raise UsageError(f"--max-restarts {args.max_restarts}: must be 0 or more")


def _check_output(option: str, output: str | None) -> None:
    """Refuse an output file that cannot be written, before the work that fills it."""
    if output is None:
        return
    path = Path(output)
    if not output.strip() or path.is_dir():
        raise UsageError(f"{option} {output}: not a file name")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"{option} {output}: no such folder {folder}")
    writable = os.access(path, os.W_OK) if path.exists() else os.access(folder, os.W_OK)
    if not writable:
        raise UsageError(f"{option} {output}: not writable")


def _client(args: argparse.Namespace) -> Client:
    """The adapter of ``--adapter`` (checked by :func:`_check_adapter_options` first), or the
    in-process reference when there is none."""
    if args.adapter is not None:
        try:
            return SubprocessAdapter(
                args.adapter, timeout=args.timeout, max_restarts=args.max_restarts
            )
        except (
            AdapterStartError,
            ValueError,
        ) as error:  # ValueError: shlex, e.g. no closing quotation
            raise UsageError(f"--adapter {args.adapter!r}: {error}") from None
    return InProcessReference()


class InvalidSuite(Exception):
    """The case asked for is not among those that loaded, and some did not (exit code 3)."""


def _find(suite: Suite, case_id: str) -> Case:
    case = suite.find(case_id)
    if case is None:
        near = [c.id for c in suite.cases if case_id in c.id][:3]
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        if suite.problems:  # it may be one of the cases that could not be read
            _report_problems(suite)
            raise InvalidSuite(
                f"no case {case_id!r}{hint}; {len(suite.problems)} problem(s) in the suite"
                " files, listed above (a case that could not be read is left out)"
            )
        raise UsageError(f"no case {case_id!r}{hint}")
    return case


def guarded(command: Any) -> Any:
    """Turn UsageError into a one-line message and exit code 2 (InvalidSuite: 3)."""

    def run(args: argparse.Namespace) -> int:
        try:
            return int(command(args))
        except UsageError as error:
            _error(str(error))
            return EXIT_USAGE
        except InvalidSuite as error:
            _error(str(error))
            return EXIT_INVALID_SUITE

    return run


# ------------------------------------------------------------------------------------------ run


@guarded
def run(args: argparse.Namespace) -> int:
    _check_adapter_options(args)
    _check_output("--output", args.output)
    suite = _suite(args)
    suite = _with_registry_problems(suite)
    _report_problems(suite)
    cases = _selection(args, suite)
    if not cases:
        if suite.problems:
            return EXIT_INVALID_SUITE
        raise UsageError("no case matches the filters" if suite.cases else "the suite has no cases")
    expectations = Expectations()
    if args.expectations:
        try:
            expectations = load_expectations(Path(args.expectations))
        except ExpectationsError as error:
            _error(str(error))
            return EXIT_INVALID_SUITE
    report = run_cases(
        cases, _client(args), expectations, args.strict, [str(p) for p in suite.problems]
    )
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    text = render(report, args.format)
    if args.output:
        try:
            Path(args.output).write_text(text, "utf-8")
        except OSError as error:
            _error(f"--output {args.output}: {error.strerror or error}")
            print(text, end="")
            return max(report.exit_code, EXIT_FAILED)
        print(f"report written to {args.output}: {report.summary_line()}")
    else:
        sys.stdout.write(text)
    if report.fatal:
        _error(report.fatal)
    return report.exit_code


# ----------------------------------------------------------------------------------- list, show


@guarded
def list_cases(args: argparse.Namespace) -> int:
    suite = _suite(args)
    _report_problems(suite)
    cases = _selection(args, suite)
    if args.format == "jsonl":
        for case in cases:
            print(
                json.dumps(
                    {
                        "id": case.id,
                        "area": case.area,
                        "clauses": list(case.clauses),
                        "ruleset": case.ruleset,
                        "description": case.description,
                        "file": case.where,
                    }
                )
            )
    else:
        width = max((len(c.id) for c in cases), default=0)
        for case in cases:
            print(f"{case.id:<{width}}  {case.ruleset_label():<30}  {case.description}")
        print(f"{len(cases)} case(s)")
    return EXIT_INVALID_SUITE if suite.problems else EXIT_OK


@guarded
def show(args: argparse.Namespace) -> int:
    from camelup.spec.registry import load_registry

    suite = _suite(args)
    case = _find(suite, args.id)
    registry = load_registry()
    print(case.id)
    print(f"  {case.description}")
    print(f"  file:    {case.where}  (area {case.area})")
    print(f"  ruleset: {case.ruleset_label()}")
    source = case.source
    print(f"  source:  {source.get('kind')}: {source.get('ref')}")
    print()
    for clause_id in case.clauses:
        if clause_id not in registry.clause_ids:
            print(f"{clause_id}  (unknown clause)")
            continue
        clause = registry.clause(clause_id)
        variant = f"; variant {clause.variant}" if clause.variant else ""
        print(
            f"{clause.number} {clause.id}  [{', '.join(sorted(clause.rule_sets))};"
            f" {clause.level}{variant}]"
            f"  spec/{clause.file}:{clause.line}"
        )
        print(textwrap.indent(clause.text, "    "))
        print()
    if case.ruling:
        ruling = next((r for r in registry.rulings if r.id == case.ruling), None)
        if ruling is None:
            print(f"ruling {case.ruling}  (unknown ruling)")
        else:
            print(f"ruling {ruling.id}: {ruling.title}  spec/{ruling.file}:{ruling.line}")
            for field in ("question", "ruling"):
                if ruling.fields.get(field):
                    print(
                        textwrap.indent(
                            textwrap.fill(f"{field.title()}: {ruling.fields[field]}", 96), "    "
                        )
                    )
        print()
    print("case:")
    print(textwrap.indent(json.dumps(dict(case.raw), indent=2, ensure_ascii=False), "  "))
    return EXIT_OK


# -------------------------------------------------------------------------------------- explain


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
    if isinstance(check, StateCheck):
        return "state " + ", ".join(p or "/" for p in check.values)
    if isinstance(check, EventsCheck):
        return f"events ({check.match}, {len(check.events)} expected)"
    if isinstance(check, ErrorCheck):
        return f"error {check.code}" + (f" [{check.clause}]" if check.clause else "")
    if isinstance(check, OddsCheck):
        return "odds " + ", ".join(check.odds)
    return f"legal actions ({len(check.actions)} expected)"


@guarded
def explain(args: argparse.Namespace) -> int:
    _check_adapter_options(args)
    suite = _suite(args)
    case = _find(suite, args.id)
    client = _client(args)
    print(f"case {case.id}  [{', '.join(case.clauses)}]  {case.where}")
    print(f"  {case.description}")
    print(f"  ruleset: {case.ruleset_label()}")
    try:
        hello = client.start()
    except AdapterStartError as error:
        _error(f"the adapter could not start: {error}")
        return EXIT_ADAPTER
    try:
        print(f"implementation: {hello.summary()}")
        if not hello.supports(case.ruleset):
            _error(f"the adapter does not support {hello.unsupported(case.ruleset)}")
            return EXIT_ADAPTER
        [(_, outcome)] = list(
            client.run(
                [
                    case.wire(
                        legal_actions_wanted(case, hello.capabilities),
                        odds_wanted(case, hello.capabilities),
                    )
                ]
            )
        )
    except AdapterStartError as error:
        _error(f"the adapter could not be restarted: {error}")
        return EXIT_ADAPTER
    finally:
        client.close()
    result = verdict(case, outcome, hello)
    body: Mapping[str, Any] | None = None
    if isinstance(outcome, Reply):
        try:
            if reply_kind(outcome.body) == "result":
                body = outcome.body
        except ProtocolViolation:
            body = None
    print()
    if body is not None and result.note != "protocol":
        _timeline(case, body, result.mismatches, hello.capabilities)
    print()
    if result.verdict == "passed":
        print(f"PASS {case.id}")
        return EXIT_OK
    if result.verdict != "failed":
        print(f"{result.verdict.upper()} {case.id}: {result.reason}")
        if result.stderr.strip():
            print("adapter stderr (last lines):")
            print(textwrap.indent(result.stderr, "  | "))
        return (
            EXIT_PROTOCOL
            if result.note == "protocol"
            else (EXIT_OK if result.verdict == "skipped" else EXIT_FAILED)
        )
    first = result.mismatches[0].after
    where = (
        "the given position"
        if first == 0
        else f"step {first} ({describe_action(case.steps[first - 1]['action'])})"
    )
    print(f"FAIL {case.id}: first divergence at {where}")
    for mismatch in result.mismatches:
        if mismatch.after != first:
            continue
        print(f"  {mismatch.summary}  [{mismatch.clause}]")
        for line in mismatch.diff:
            print(f"      {line}")
    later = [m for m in result.mismatches if m.after != first]
    if later:
        print(f"  and {len(later)} later mismatch(es):")
        for mismatch in later:
            print(f"    {mismatch.summary}  [{mismatch.clause}]")
    return EXIT_FAILED


def _timeline(
    case: Case,
    body: Mapping[str, Any],
    mismatches: Sequence[Mismatch],
    capabilities: frozenset[str],
) -> None:
    failed = {(m.check, m.pointer) for m in mismatches}
    steps = body.get("steps", [])
    for moment in range(len(case.steps) + 1):
        if moment == 0:
            refused = body.get("initial_error")
            status = "refused: " + _error_text(refused) if refused is not None else "loaded"
            print(f"step 0  given {next(iter(case.given))}: {status}")
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
            print(f"step {moment}  {action}: {status}")
        for mismatch in mismatches:
            if mismatch.after == moment and mismatch.check is None:
                print(f"    x  {mismatch.summary}")
        for check in case.checks:
            if check.after != moment:
                continue
            if not applicable(check, capabilities):
                print(f"    -  {_check_label(check)} (not compared: capability missing)")
            elif isinstance(check, StateCheck):
                for where in check.values:
                    mark = "x " if (check.index, where) in failed else "ok"
                    print(f"    {mark} state {where or '/'}")
            else:
                mark = "x " if (check.index, None) in failed else "ok"
                print(f"    {mark} {_check_label(check)}")


# ----------------------------------------------------------------------------- validate, coverage


@guarded
def validate(args: argparse.Namespace) -> int:
    from camelup.conformance.suite import schema_folder
    from camelup.conformance.validate import validate_suite

    if args.files:
        files = [Path(f) for f in args.files]
        for path in files:
            if not path.is_file():
                raise UsageError(f"{path}: no such file")
        suite = load_suite(files=files)
        schemas = schema_folder(Path(args.suite) if args.suite else None)
    else:
        suite = _suite(args)
        root = Path(args.suite) if args.suite else suite_directory()
        files = case_files(root)
        schemas = schema_folder(root)
    problems = validate_suite(suite, files, schemas)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(
        f"conformance validate: {len(files)} file(s), {len(suite.cases)} case(s),"
        f" {len(problems)} problem(s)"
    )
    return EXIT_INVALID_SUITE if problems else EXIT_OK


@guarded
def coverage(args: argparse.Namespace) -> int:
    from camelup.conformance.validate import coverage as rows_of

    suite = _suite(args)
    _report_problems(suite)
    rows = rows_of(suite.cases)
    gaps = [r for r in rows if r.gap]
    shown = [r for r in rows if r.gap] if args.missing else rows
    if args.format == "jsonl":
        for row in shown:
            print(
                json.dumps(
                    {
                        "clause": row.clause,
                        "number": row.number,
                        "level": row.level,
                        "code": row.code,
                        "rule_sets": list(row.rule_sets),
                        "cases": list(row.cases),
                        "sites": list(row.sites),
                        "gap": row.gap,
                    }
                )
            )
    elif args.format == "markdown":
        print("| clause | level | code | cases | implementation sites |")
        print("|---|---|---|---:|---|")
        for row in shown:
            mark = " **(no case)**" if row.gap else ""
            sites = "<br>".join(f"`{s}`" for s in row.sites) or "-"
            print(
                f"| {row.number} `{row.clause}`{mark} | {row.level} | {row.code}"
                f" | {len(row.cases)} | {sites} |"
            )
    elif shown:
        width = max(len(r.clause) for r in shown)
        print(f"{'':6} {'clause':<{width}}  {'level':<11}  {'code':<6}  {'cases':>5}  sites")
        for row in shown:
            site = row.sites[0].split(" ")[-1] if row.sites else "-"
            more = f" +{len(row.sites) - 1}" if len(row.sites) > 1 else ""
            flag = "  <- no case" if row.gap else ""
            print(
                f"{row.number:6} {row.clause:<{width}}  {row.level:<11}  {row.code:<6}"
                f"  {len(row.cases):>5}"
                f"  {site}{more}{flag}"
            )
    from camelup.spec.registry import load_registry

    registry = load_registry()
    for row in gaps:
        clause = registry.clause(row.clause)
        print(
            f"spec/{clause.file}:{clause.line}: must-clause {row.clause} (Code: engine)"
            " has no case",
            file=sys.stderr,
        )
    covered = sum(1 for r in rows if r.cases)
    print(
        f"conformance coverage: {covered}/{len(rows)} clauses have cases,"
        f" {len(gaps)} must-clause(s) implemented by the engine have none",
        file=sys.stderr,
    )
    if suite.problems:
        return EXIT_INVALID_SUITE
    return EXIT_FAILED if gaps else EXIT_OK


# ------------------------------------------------------------------------------ generate, fuzz


def _suite_root(args: argparse.Namespace) -> Path:
    if args.suite:
        root = Path(args.suite)
        if not root.is_dir():
            raise UsageError(f"--suite {root}: no such folder")
        return root
    try:
        return suite_directory()
    except FileNotFoundError as error:
        raise UsageError(str(error).removeprefix("camelup: ")) from None


@guarded
def generate(args: argparse.Namespace) -> int:
    from camelup.conformance.generate import FOLDER, check, write

    root = _suite_root(args)
    if args.check:
        problems = check(root)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            _error(
                f"{len(problems)} generated file(s) differ from what the engine records;"
                " run: camelup conformance generate"
            )
            return EXIT_FAILED
        print(f"conformance generate --check: {FOLDER}/ is up to date")
        return EXIT_OK
    written = write(root)
    cases = sum(len(parse_json(p.read_bytes())["cases"]) for p in written)
    size = sum(p.stat().st_size for p in written)
    print(
        f"conformance generate: {len(written)} file(s), {cases} case(s),"
        f" {size / 1024:.0f} KiB written to {root / FOLDER}"
    )
    return EXIT_OK


@guarded
def fuzz(args: argparse.Namespace) -> int:
    from camelup.conformance.fuzz import (
        AdapterBroke,
        NoCommonRuleset,
        case_file_text,
        configs_for,
    )
    from camelup.conformance.fuzz import fuzz as run_fuzz

    _check_adapter_options(args)
    _check_output("--out", args.output)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    configs = configs_for(args.ruleset or ())
    if not configs:
        raise UsageError(f"--ruleset {', '.join(args.ruleset)}: no ruleset family matches")
    client = _client(args)

    def progress(line: str) -> None:
        print(f"fuzz: {line}", file=sys.stderr, flush=True)

    try:
        hello = client.start()
    except AdapterStartError as error:
        _error(f"the adapter could not start: {error}")
        return EXIT_ADAPTER
    try:
        progress(f"{hello.name} {hello.version}, seed {args.seed}, {args.games} game(s)")
        result = run_fuzz(client, hello, configs, args.seed, args.games, progress)
    except AdapterBroke as error:
        _error(f"the adapter broke the protocol: {error}")
        if error.stderr.strip():
            print(textwrap.indent(error.stderr, "  | "), file=sys.stderr)
        return EXIT_PROTOCOL
    except NoCommonRuleset as error:
        _error(str(error))
        return EXIT_ADAPTER
    except AdapterStartError as error:
        _error(f"the adapter could not be restarted: {error}")
        return EXIT_ADAPTER
    finally:
        client.close()
    skipped = f", {result.skipped} skipped by the adapter" if result.skipped else ""
    finding = result.finding
    if finding is None:
        progress(f"no disagreement in {result.games} game(s){skipped}")
        return EXIT_OK
    case = finding.case
    given = "given state" if "state" in case["given"] else "setup"
    via = (
        f", then to {len(case['steps'])} step(s) from the state before the divergence"
        if given == "given state"
        else ""
    )
    progress(
        f"shrunk game {finding.game} ({finding.original_steps} steps) to {finding.shrunk_steps}"
        f" step(s) from the setup{via} ({finding.checks} candidate(s) checked): {case['id']}"
    )
    if not finding.confirmed:
        progress("warning: the shrunk case does not fail against the adapter on a re-run")
    text = case_file_text(case)
    if args.output:
        try:
            Path(args.output).write_text(text, "utf-8")
        except OSError as error:
            _error(f"--out {args.output}: {error.strerror or error}")
            sys.stdout.write(text)
            return EXIT_FAILED
        progress(f"case written to {args.output}")
    else:
        sys.stdout.write(text)
    return EXIT_FAILED
