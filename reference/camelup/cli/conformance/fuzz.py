"""``camelup conformance fuzz --adapter CMD``: random games in lockstep with the reference; every
different disagreement is shrunk to a case, ready to add to the suite."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

import camelup.cli.conformance.shared as shared
import camelup.cli.signals as signals
from camelup.cli.common import Refused, UsageError, Verb, error_line
from camelup.cli.conformance.progress import ProgressLine
from camelup.io import exits
from camelup.io.safe_text import printable

if TYPE_CHECKING:
    from camelup.harness.fuzz import AdapterBroke, Finding, FuzzResult


# Days of games at the reference's pace: a larger count is a typo, not a plan (Ctrl-C keeps the
# findings of an open-ended run).
MAX_GAMES = 1_000_000


@attrs.frozen
class FuzzOptions:
    adapter: shared.AdapterOptions
    seed: int
    games: int
    rulesets: tuple[str, ...]
    max_findings: int
    jobs: int
    expectations: str | None
    output: str | None
    output_dir: str | None

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> FuzzOptions:
        adapter = shared.AdapterOptions.from_namespace(namespace)
        shared.check_output("--out", namespace.output)
        if not 1 <= namespace.games <= MAX_GAMES:
            raise UsageError(f"--games must be from 1 to {MAX_GAMES:,}")
        if namespace.max_findings < 1:
            raise UsageError("--max-findings must be at least 1")
        if not 1 <= namespace.jobs <= 64:
            raise UsageError(f"--jobs {namespace.jobs}: must be from 1 to 64")
        if namespace.output and namespace.output_dir:
            raise UsageError("--out and --out-dir: give one of them")
        folder = namespace.output_dir
        if folder is not None and not (Path(folder).is_dir() and os.access(folder, os.W_OK)):
            raise UsageError(f"--out-dir {folder}: not a writable folder")
        return cls(
            adapter,
            namespace.seed,
            namespace.games,
            tuple(namespace.ruleset or ()),
            namespace.max_findings,
            namespace.jobs,
            namespace.expectations,
            namespace.output,
            folder,
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    shared.add_adapter(parser, required=True)
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="random seed")
    parser.add_argument(
        "--games", type=int, default=100, metavar="N", help=f"games to play (at most {MAX_GAMES:,})"
    )
    parser.add_argument(
        "--ruleset",
        action="append",
        metavar="NAME",
        help="only rulesets of this family, edition, module or variant (first, second,"
        " second-partnerships, whirlwind, a variant, ...); repeatable",
    )
    parser.add_argument(
        "--max-findings",
        type=int,
        default=10,
        metavar="N",
        help="stop once N different new disagreements are found (default: %(default)s)",
    )
    parser.add_argument(
        "--expectations",
        metavar="FILE",
        help="the expectations file of `conformance run`: its findings are reported as known",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=1,
        metavar="N",
        help="worker processes, each with its own adapter process (the findings do not depend"
        " on N; default: %(default)s)",
    )
    parser.add_argument(
        "--out",
        "-o",
        dest="output",
        metavar="FILE",
        help="write every finding's case to one case file FILE (default: standard output)",
    )
    parser.add_argument(
        "--out-dir",
        dest="output_dir",
        metavar="DIR",
        help="write each finding's case to a case file of its own in the folder DIR",
    )


def say(line: str) -> None:
    print(f"fuzz: {printable(line)}", file=sys.stderr, flush=True)


def handle(options: FuzzOptions) -> int:
    from camelup.harness.fuzz import AdapterBroke, NoCommonRuleset, configs_for
    from camelup.harness.fuzz import fuzz as run_fuzz
    from camelup.harness.protocol import AdapterStartError

    configs = configs_for(options.rulesets)
    if not configs:
        raise UsageError(f"--ruleset {', '.join(options.rulesets)}: no ruleset family matches")
    expectations = shared.expectations(options.expectations)
    client = options.adapter.client()
    progress = ProgressLine()
    gently = True
    try:
        try:
            hello = client.start()
        except AdapterStartError as error:
            raise Refused(f"the adapter could not start: {error}", exits.ADAPTER) from None
        say(f"{hello.name} {hello.version}, seed {options.seed}, {options.games} game(s)")
        result = run_fuzz(
            client,
            hello,
            configs,
            options.seed,
            options.games,
            max_findings=options.max_findings,
            expectations=expectations,
            jobs=options.jobs,
            make_client=options.adapter.client,
            progress=lambda state: progress.show(
                state.done,
                state.total,
                f"{state.disagreeing} disagreeing, {state.findings} finding(s)",
            ),
        )
    except AdapterBroke as error:
        progress.clear()
        _broke(error)
        return exits.PROTOCOL
    except NoCommonRuleset as error:
        progress.clear()
        error_line(shared.PREFIX, str(error))
        return exits.ADAPTER
    except AdapterStartError as error:
        progress.clear()
        error_line(shared.PREFIX, f"the adapter could not be restarted: {error}")
        return exits.ADAPTER
    except KeyboardInterrupt:
        gently = False
        raise
    finally:
        client.close(gently=gently and signals.current.received is None)
    progress.clear()
    with signals.current.deferred():  # what was found is written whatever arrives now
        _summary(result, options)
        code = _write(result.findings, options) if result.findings else exits.OK
        if result.interrupted is not None:
            error_line(
                shared.PREFIX,
                f"fuzz interrupted ({result.interrupted.signal_name}) after {result.games}"
                f" game(s): the {len(result.findings)} finding(s) so far are not shrunk",
            )
            return result.interrupted.exit_code
        if result.broke is not None:
            error_line(
                shared.PREFIX,
                f"fuzz stopped after {result.games} game(s): the {len(result.findings)}"
                " finding(s) so far are not shrunk",
            )
            _broke(result.broke)
            return exits.PROTOCOL
    return code


def _broke(error: AdapterBroke) -> None:
    error_line(shared.PREFIX, f"the adapter broke the protocol: {error}")
    if error.stderr.strip():
        print(printable(textwrap.indent(error.stderr, "  | ")), file=sys.stderr)


def _summary(result: FuzzResult, options: FuzzOptions) -> None:
    skipped = f", {result.skipped} skipped by the adapter" if result.skipped else ""
    if not result.findings and not result.known:
        say(f"no disagreement in {result.games} game(s){skipped}")
        return
    say(
        f"{result.disagreeing} of {result.games} game(s) disagreed{skipped}:"
        f" {len(result.findings)} finding(s), {len(result.known)} known"
    )
    for finding in result.findings:
        say(_finding_line(finding))
        if not finding.confirmed and (result.interrupted or result.broke) is None:  # not re-run
            say("  warning: the shrunk case does not fail against the adapter on a re-run")
    for known in result.known:
        say(
            f"known: {known.clause} at {known.field}: {known.games} game(s), first game"
            f" {known.first_game}: {known.why}"
        )
    if result.stopped_early:
        say(
            f"stopped after {result.games + result.skipped} game(s):"
            f" --max-findings {options.max_findings}"
        )


def _finding_line(finding: Finding) -> str:
    case = finding.case
    via = (
        f", then to {len(case['steps'])} step(s) from the state before the divergence"
        if "state" in case["given"]
        else ""
    )
    start = "the setup"
    if finding.resumed:
        start = "the reference's position after an earlier divergence"
    rest = " left" if finding.resumed else ""
    return (
        f"{finding.clause} at {finding.field}: {finding.games} game(s), first game"
        f" {finding.first_game}; game {finding.game} ({finding.original_steps} steps{rest})"
        f" shrunk to {finding.shrunk_steps} step(s) from {start}{via} ({finding.checks}"
        f" candidate(s) checked): {case['id']}"
    )


def _write(findings: Sequence[Finding], options: FuzzOptions) -> int:
    from camelup.harness.shrink import case_file_text
    from camelup.io.outputs import OutputRefused, write_output

    cases: list[dict[str, Any]] = [f.case for f in findings]
    if options.output_dir is not None:
        written = []
        for case in cases:
            path = Path(options.output_dir) / (case["id"].replace("/", "--") + ".json")
            try:
                write_output(path, case_file_text([case]))
            except OutputRefused as error:
                error_line(shared.PREFIX, f"--out-dir {error}")
                sys.stdout.write(case_file_text(cases))
                return error.exit_code
            written.append(path)
        say(f"{len(written)} case file(s) written to {options.output_dir}")
        return exits.FAILED
    text = case_file_text(cases)
    if options.output:
        try:
            write_output(Path(options.output), text)
        except OutputRefused as error:
            error_line(shared.PREFIX, f"--out {error}")
            sys.stdout.write(text)
            return error.exit_code
        say(f"{len(cases)} case(s) written to {options.output}")
    else:
        sys.stdout.write(text)
    return exits.FAILED


VERB = Verb(
    name="fuzz",
    summary="play random games on an adapter and the reference; shrink every different"
    " disagreement to a conformance case",
    example='camelup conformance fuzz --adapter "python docs/toy_adapter.py" --games 100 \\\n'
    "    --out found.json && camelup conformance validate found.json",
    exit_codes=(
        (exits.OK, "no disagreement, or only known ones (--expectations)"),
        (exits.FAILED, "a new disagreement was found; its shrunk case is written"),
        (exits.USAGE, "usage error: bad option or value out of range"),
        (exits.INVALID_SUITE, "the expectations file cannot be used"),
        (exits.PROTOCOL, "the adapter broke the protocol"),
        (exits.ADAPTER, "the adapter could not start or shares no rule set with the fuzzer"),
    ),
    add_arguments=add_arguments,
    options=FuzzOptions.from_namespace,
    handle=handle,
)
