"""``camelup conformance fuzz --adapter CMD``: random games in lockstep with the reference; the
first disagreement is shrunk to a case file."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

import attrs

from camelup import exits
from camelup.cli.common import UsageError, Verb, error_line
from camelup.cli.conformance import shared
from camelup.safe_text import printable


@attrs.frozen
class FuzzOptions:
    adapter: shared.AdapterOptions
    seed: int
    games: int
    rulesets: tuple[str, ...]
    output: str | None

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> FuzzOptions:
        adapter = shared.AdapterOptions.from_namespace(namespace)
        shared.check_output("--out", namespace.output)
        if namespace.games < 1:
            raise UsageError("--games must be at least 1")
        return cls(
            adapter,
            namespace.seed,
            namespace.games,
            tuple(namespace.ruleset or ()),
            namespace.output,
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    shared.add_adapter(parser, required=True)
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="random seed")
    parser.add_argument("--games", type=int, default=100, metavar="N", help="games to play")
    parser.add_argument(
        "--ruleset",
        action="append",
        metavar="NAME",
        help="only rulesets of this family, edition, module or variant (first, second,"
        " second-partnerships, whirlwind, a variant, ...); repeatable",
    )
    parser.add_argument(
        "--out",
        "-o",
        dest="output",
        metavar="FILE",
        help="write the shrunk case file to FILE (default: standard output)",
    )


def progress(line: str) -> None:
    print(f"fuzz: {printable(line)}", file=sys.stderr, flush=True)


def handle(options: FuzzOptions) -> int:
    from camelup.conformance.fuzz import AdapterBroke, NoCommonRuleset, case_file_text, configs_for
    from camelup.conformance.fuzz import fuzz as run_fuzz
    from camelup.conformance.protocol import AdapterStartError

    configs = configs_for(options.rulesets)
    if not configs:
        raise UsageError(f"--ruleset {', '.join(options.rulesets)}: no ruleset family matches")
    client = options.adapter.client()
    gently = True
    try:
        try:
            hello = client.start()
        except AdapterStartError as error:
            error_line(shared.PREFIX, f"the adapter could not start: {error}")
            return exits.ADAPTER
        progress(f"{hello.name} {hello.version}, seed {options.seed}, {options.games} game(s)")
        result = run_fuzz(client, hello, configs, options.seed, options.games, progress)
    except AdapterBroke as error:
        error_line(shared.PREFIX, f"the adapter broke the protocol: {error}")
        if error.stderr.strip():
            print(printable(textwrap.indent(error.stderr, "  | ")), file=sys.stderr)
        return exits.PROTOCOL
    except NoCommonRuleset as error:
        error_line(shared.PREFIX, str(error))
        return exits.ADAPTER
    except AdapterStartError as error:
        error_line(shared.PREFIX, f"the adapter could not be restarted: {error}")
        return exits.ADAPTER
    except KeyboardInterrupt:
        gently = False
        raise
    finally:
        client.close(gently=gently)
    skipped = f", {result.skipped} skipped by the adapter" if result.skipped else ""
    finding = result.finding
    if finding is None:
        progress(f"no disagreement in {result.games} game(s){skipped}")
        return exits.OK
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
    if options.output:
        try:
            Path(options.output).write_text(text, "utf-8")
        except OSError as error:
            error_line(shared.PREFIX, f"--out {options.output}: {error.strerror or error}")
            sys.stdout.write(text)
            return exits.FAILED
        progress(f"case written to {options.output}")
    else:
        sys.stdout.write(text)
    return exits.FAILED


VERB = Verb(
    name="fuzz",
    summary="play random games on an adapter and the reference; shrink the first disagreement to"
    " a conformance case",
    example='camelup conformance fuzz --adapter "python docs/toy_adapter.py" --games 50 \\\n'
    "    --out found.json && camelup conformance validate found.json",
    exit_codes=(
        (exits.OK, "no disagreement"),
        (exits.FAILED, "a disagreement was found; the shrunk case is written"),
        (exits.USAGE, "usage error: bad option or value out of range"),
        (exits.PROTOCOL, "the adapter broke the protocol"),
        (exits.ADAPTER, "the adapter could not start or shares no rule set with the fuzzer"),
    ),
    add_arguments=add_arguments,
    options=FuzzOptions.from_namespace,
    handle=handle,
)
