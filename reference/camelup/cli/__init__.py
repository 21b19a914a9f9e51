"""The ``camelup`` command line. Every failure is one line on stderr and a non-zero exit code."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug in camelup, never a verdict about the input

EXIT_CODES_HELP = """\
exit codes:
   0  success
   1  the check failed (spec check or trace found problems; spec show: no such clause)
   2  usage error (bad option, no such folder)
  70  internal error: a bug in camelup (one line naming the exception); please report it
`camelup conformance --help` lists the exit codes of the conformance verbs.
"""


class UsageError(Exception):
    """A bad request from the command line (exit code 2, one line on stderr)."""


def _spec_directory(option: str | None, *, rulings: bool = False) -> Path:
    """The folder of ``--spec`` (default: the bundled spec). UsageError when it is not a
    folder, or, with ``rulings``, has no rulings register (not a spec folder at all)."""
    from camelup.resources import spec_directory

    if option is None:
        return spec_directory()
    directory = Path(option)
    if not directory.is_dir():
        raise UsageError(f"--spec {option}: no such folder")
    if rulings and not (directory / "rulings.md").is_file():
        raise UsageError(f"--spec {option}: not a spec folder (it has no rulings.md)")
    return directory


def cmd_spec_check(args: argparse.Namespace) -> int:
    from camelup.spec.registry import parse_spec

    directory = _spec_directory(args.spec)
    registry = parse_spec(directory)
    for problem in registry.problems:
        print(f"{directory / problem.file}:{problem.line}: {problem.message}", file=sys.stderr)
    if registry.problems:
        print(f"spec check: {len(registry.problems)} problem(s)", file=sys.stderr)
        return EXIT_FAILED
    if directory.resolve() == _spec_directory(None).resolve():
        # Only the shipped spec describes this code; a fixture spec need not.
        from camelup.spec.agreement import variant_problems

        disagreements = variant_problems(registry)
        for line in disagreements:
            print(f"{directory / 'rulings.md'}: {line}", file=sys.stderr)
        if disagreements:
            print(f"spec check: {len(disagreements)} problem(s)", file=sys.stderr)
            return EXIT_FAILED
    variants = len(registry.variants)
    print(
        f"spec check: {len(registry.clauses)} clauses, {len(registry.rulings)} rulings,"
        f" {variants} variants, {len(registry.no_clause)} dossier items with no clause: OK"
    )
    return EXIT_OK


def cmd_spec_sync(args: argparse.Namespace) -> int:
    from camelup.spec.registry import sync_backlinks

    changed = sync_backlinks(_spec_directory(args.spec, rulings=True))
    for path in changed:
        print(f"updated {path}")
    print(f"spec sync: {len(changed)} file(s) updated")
    return EXIT_OK


def cmd_spec_trace(args: argparse.Namespace) -> int:
    import camelup.engine  # noqa: F401  (imports every rules module, which registers the sites)
    from camelup.spec.registry import load_registry
    from camelup.trace import sites

    registry = load_registry()
    by_clause: dict[str, list[str]] = {}
    problems: list[str] = []
    for site in sites():
        where = f"{Path(site.file).name}:{site.line} {site.qualname}"
        by_clause.setdefault(site.clause, []).append(where)
        if site.clause not in registry.clause_ids:
            problems.append(f"{where}: names unknown clause {site.clause}")
    for clause in registry.clauses:
        found = by_clause.get(clause.id, [])
        if not args.quiet:
            marker = (
                ", ".join(found)
                if found
                else ("(not code: " + clause.code + ")" if not clause.is_code else "-")
            )
            print(f"{clause.number:6} {clause.id:40} {marker}")
        if clause.is_code and clause.level == "must" and not found:
            problems.append(
                f"{clause.file}:{clause.line}: must-clause {clause.id} has no implementation site"
            )
        if not clause.is_code and found:
            problems.append(
                f"{clause.file}:{clause.line}: clause {clause.id} is marked not code but has a site"
            )
    for problem in problems:
        print(problem, file=sys.stderr)
    implemented = sum(1 for c in registry.clauses if by_clause.get(c.id))
    print(
        f"spec trace: {implemented}/{len(registry.clauses)} clauses have implementation sites,"
        f" {len(problems)} problem(s)"
    )
    return EXIT_FAILED if problems else EXIT_OK


def cmd_spec_show(args: argparse.Namespace) -> int:
    from camelup.spec.registry import load_registry

    registry = load_registry()
    if args.id not in registry.clause_ids:
        print(f"spec show: no clause {args.id!r}", file=sys.stderr)
        return EXIT_FAILED
    clause = registry.clause(args.id)
    print(f"{clause.number} {clause.id}  [{', '.join(sorted(clause.rule_sets))}; {clause.level}]")
    if clause.variant:
        print(f"variant: {clause.variant}")
    print(clause.text)
    print(f"sources: {clause.sources}")
    for ruling in registry.rulings_for(clause.id):
        print(f"ruling {ruling.id}: {ruling.title}")
    return EXIT_OK


def _conformance_verb(name: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from camelup.cli import conformance as commands

        return int(getattr(commands, name)(args))

    return run


def _add_conformance(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from camelup.conformance.reports import FORMATS
    from camelup.conformance.runner import EXIT_CODES_HELP as codes

    raw = argparse.RawDescriptionHelpFormatter
    conformance = commands.add_parser(
        "conformance",
        help="run and check the conformance suite",
        description="Run the language-neutral conformance suite against the bundled reference"
        " engine or any implementation speaking the adapter protocol (docs/adapter-protocol.md).",
        epilog=codes,
        formatter_class=raw,
    )
    verbs = conformance.add_subparsers(dest="conformance_command", required=True)

    def verb(name: str, help_: str, function: str) -> argparse.ArgumentParser:
        parser = verbs.add_parser(
            name, help=help_, description=help_, epilog=codes, formatter_class=raw
        )
        parser.add_argument(
            "--suite", metavar="DIR", help="the suite folder (default: the bundled conformance/)"
        )
        parser.set_defaults(run=_conformance_verb(function))
        return parser

    def filters(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--ruleset",
            action="append",
            metavar="NAME",
            help="only cases whose edition, module or variant is NAME (first, second, whirlwind,"
            " a variant); repeatable",
        )
        parser.add_argument(
            "--clause",
            action="append",
            metavar="PREFIX",
            help="only cases citing a clause that starts with PREFIX; repeatable",
        )
        parser.add_argument(
            "--id", action="append", metavar="ID", help="only this case (or ID prefix); repeatable"
        )

    def adapter(parser: argparse.ArgumentParser, required: bool = False) -> None:
        default = "" if required else "; default: the reference, in-process"
        parser.add_argument(
            "--adapter",
            metavar="CMD",
            required=required,
            help='a program speaking the adapter protocol, e.g. "python -m camelup.adapter"'
            f" (split like a shell would, run without one{default})",
        )
        parser.add_argument(
            "--timeout",
            type=float,
            default=5.0,
            metavar="SECONDS",
            help="per-case timeout for an adapter (default 5)",
        )
        parser.add_argument(
            "--max-restarts",
            type=int,
            default=20,
            metavar="N",
            help="give up after restarting a broken adapter N times (default 20)",
        )

    run = verb("run", "run the suite against an implementation", "run")
    adapter(run)
    filters(run)
    run.add_argument("--format", choices=FORMATS, default="human", help="report format")
    run.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE")
    run.add_argument(
        "--expectations",
        metavar="FILE",
        help="TOML or JSON file of the implementation's expected failures and skips",
    )
    run.add_argument(
        "--strict", action="store_true", help="an expected failure that passes fails the run"
    )
    listing = verb("list", "list the selected cases", "list_cases")
    filters(listing)
    listing.add_argument("--format", choices=("human", "jsonl"), default="human")
    show = verb("show", "one case with the text of its clauses and its ruling", "show")
    show.add_argument("id", metavar="ID")
    explain = verb(
        "explain", "run one case step by step and show where it first diverges", "explain"
    )
    explain.add_argument("id", metavar="ID")
    adapter(explain)
    validate = verb(
        "validate",
        "check case files: schema, IDs, clauses, rulings, variants; the reference passes all",
        "validate",
    )
    validate.add_argument(
        "files", nargs="*", metavar="FILE", help="case files (default: the whole suite)"
    )
    coverage = verb(
        "coverage",
        "clause x cases x implementation sites; fail on a must-clause without a case",
        "coverage",
    )
    coverage.add_argument("--format", choices=("human", "markdown", "jsonl"), default="human")
    coverage.add_argument(
        "--missing", action="store_true", help="show only must-clauses without a case"
    )
    generate = verb(
        "generate",
        "record cases from random games of the reference into the suite's generated/ folder",
        "generate",
    )
    generate.add_argument(
        "--check",
        action="store_true",
        help="write nothing; fail (exit 1, one line per file) if generated/ differs from what the"
        " engine records now",
    )
    fuzz = verb(
        "fuzz",
        "play random games on an adapter and the reference; shrink the first disagreement to a"
        " conformance case",
        "fuzz",
    )
    adapter(fuzz, required=True)
    fuzz.add_argument("--seed", type=int, default=0, metavar="N", help="random seed (default 0)")
    fuzz.add_argument(
        "--games", type=int, default=100, metavar="N", help="games to play (default 100)"
    )
    fuzz.add_argument(
        "--ruleset",
        action="append",
        metavar="NAME",
        help="only rulesets of this family, edition, module or variant (first, second,"
        " second-partnerships, whirlwind, a variant, ...); repeatable",
    )
    fuzz.add_argument(
        "--out",
        "-o",
        dest="output",
        metavar="FILE",
        help="write the shrunk case file to FILE (default: standard output)",
    )
    from camelup.cli import report

    report.add_arguments(verbs.add_parser("report", help=report.HELP, description=report.HELP))
    from camelup.cli import export

    export.add_arguments(verbs.add_parser("export", help=export.HELP, description=export.HELP))
    from camelup.cli import mutants

    mutants.add_arguments(verbs.add_parser("mutants", help=mutants.HELP, description=mutants.HELP))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="camelup",
        description="The Camel Up reference implementation.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from camelup.resources import package_version

    parser.add_argument("--version", action="version", version=f"camelup {package_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    spec = commands.add_parser(
        "spec",
        help="the clause and ruling registry",
        description="Check, sync, trace and show the clauses and rulings of spec/.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    spec_commands = spec.add_subparsers(dest="spec_command", required=True)
    check = spec_commands.add_parser("check", help="fail on any defect of spec/")
    check.add_argument("--spec", help="the spec folder (default: the bundled one)")
    check.set_defaults(run=cmd_spec_check)
    sync = spec_commands.add_parser(
        "sync", help="regenerate the Rulings back-links of the chapters"
    )
    sync.add_argument("--spec", help="the spec folder (default: the bundled one)")
    sync.set_defaults(run=cmd_spec_sync)
    trace = spec_commands.add_parser("trace", help="clause -> implementation sites; fail on gaps")
    trace.add_argument("--quiet", action="store_true", help="print only problems and the summary")
    trace.set_defaults(run=cmd_spec_trace)
    show = spec_commands.add_parser("show", help="one clause with its rulings")
    show.add_argument("id")
    show.set_defaults(run=cmd_spec_show)
    _add_conformance(commands)
    from camelup.cli import odds, render  # each verb is defined in its own module

    odds.add_arguments(commands.add_parser("odds", help="exact leg odds and action values"))
    render.add_arguments(commands.add_parser("render", help=render.HELP))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) and EXIT_USAGE
    try:
        return int(args.run(args))
    except UsageError as error:
        print(f"camelup: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("camelup: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a bug: its own exit code, one line, never a traceback
        message = " ".join(str(error).split())
        print(f"camelup: internal error: {type(error).__name__}: {message}", file=sys.stderr)
        return EXIT_INTERNAL
