"""The conformance suite as pytest tests of a Python engine (the ``pytest11`` entry point).

Inert unless asked: with ``--camelup-adapter mymodule:MyAdapter`` (or the ini option
``camelup_adapter``, or :func:`add_suite` in a conftest.py's ``pytest_configure``) every case
of the suite becomes a test item named by its case ID, run through the in-process adapter
class (:class:`camelup.testing.adapter.Adapter`) by the conformance runner itself
(:func:`camelup.harness.run_cases`, one case per item), so that a case passes, fails or is
skipped exactly as in ``camelup conformance run --strict``:

* a failure shows the human report's block: the first divergence, its clause and the
  expected and actual values;
* ``--camelup-expectations FILE``: an ``xfail`` entry is a strict xfail (a case that passes
  fails the run), a ``skip`` entry a skip;
* markers select: ``camelup(id=..., area=..., edition=..., players=...)`` on every case,
  ``camelup_clause(id=...)`` per clause it checks, ``camelup_module(name=...)``,
  ``camelup_variant(name=...)``; ``-k`` matches the case ID and the clause IDs;
* ``--camelup-fuzz N`` adds N random games (``fuzz/seed-K``) played in lockstep with the
  reference, each disagreement shrunk to a case shown in the failure.

Each pytest-xdist worker makes its own adapter: the items are the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # the harness is loaded only when the plugin is asked for
    from camelup.harness.expectations import Expectations
    from camelup.harness.runner import CaseResult
    from camelup.harness.suite import Case
    from camelup.testing.adapter import AdapterFactory, InProcessAdapter

PLUGIN_NAME = "camelup-conformance"
MARKERS = (
    "camelup(id, area, edition, players, kind, seed): an item of camelup's conformance suite",
    "camelup_clause(id): a spec clause the conformance case checks",
    "camelup_module(name): a module of the conformance case's rule set",
    "camelup_variant(name): a variant of the conformance case's rule set",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("camelup", "camelup conformance suite (off unless an adapter is named)")
    group.addoption(
        "--camelup-adapter",
        metavar="MODULE:CLASS",
        help="run camelup's conformance suite on this in-process adapter class"
        " (ini: camelup_adapter)",
    )
    group.addoption(
        "--camelup-expectations",
        metavar="FILE",
        help="known failures (strict xfail) and skips, the file of `conformance run`"
        " (ini: camelup_expectations)",
    )
    group.addoption(
        "--camelup-fuzz",
        metavar="N",
        type=int,
        help="also play N random games against the reference (ini: camelup_fuzz)",
    )
    group.addoption(
        "--camelup-fuzz-seed",
        metavar="SEED",
        type=int,
        default=0,
        help="the fuzz games are seeds SEED+1 to SEED+N (default 0)",
    )
    parser.addini("camelup_adapter", "MODULE:CLASS of the adapter for camelup's suite")
    parser.addini("camelup_expectations", "camelup expectations file, relative to the rootdir")
    parser.addini("camelup_fuzz", "number of camelup fuzz games", default="0")


@pytest.hookimpl(tryfirst=True)  # before a conftest.py's add_suite: the command line wins
def pytest_configure(config: pytest.Config) -> None:
    spec = config.getoption("camelup_adapter") or config.getini("camelup_adapter")
    if not spec:
        return  # not asked for here (a conftest.py may still call add_suite)
    from camelup.testing.adapter import AdapterLoadError, load_adapter

    try:
        factory = load_adapter(spec)
    except AdapterLoadError as error:
        raise pytest.UsageError(f"--camelup-adapter {error}") from None
    add_suite(
        config,
        factory,
        config.getini("camelup_expectations") or None,
        _ini_count(config.getini("camelup_fuzz")),
        description=spec,
    )


def add_suite(
    config: pytest.Config,
    adapter: AdapterFactory,
    expectations: str | Path | None = None,
    fuzz: int = 0,
    *,
    description: str | None = None,
) -> None:
    """Run camelup's conformance suite in this pytest session on ``adapter`` (a class or
    factory of :class:`~camelup.testing.adapter.Adapter`), from a conftest.py's
    ``pytest_configure``; the command-line options, when given, take precedence.

    ``expectations``: the expectations file (relative to the rootdir); ``fuzz``: how many random
    games to add.
    """
    from camelup.harness.expectations import Expectations, ExpectationsError, load_expectations
    from camelup.testing.adapter import InProcessAdapter

    if config.pluginmanager.has_plugin(PLUGIN_NAME):
        return  # asked for on the command line: that adapter and those options win
    for line in MARKERS:
        config.addinivalue_line("markers", line)
    option = config.getoption("camelup_expectations")
    if option:
        expectations = Path(option)  # as typed: relative to the working directory
    elif expectations is not None:
        expectations = config.rootpath / expectations
    try:
        known = load_expectations(Path(expectations)) if expectations else Expectations()
    except ExpectationsError as error:
        raise pytest.UsageError(f"--camelup-expectations {error}") from None
    games = config.getoption("camelup_fuzz")
    config.pluginmanager.register(
        ConformanceSuite(
            InProcessAdapter(adapter, description),
            known,
            fuzz if games is None else games,
            config.getoption("camelup_fuzz_seed"),
        ),
        PLUGIN_NAME,
    )


def _ini_count(text: str) -> int:
    try:
        return max(int(text), 0)
    except ValueError:
        raise pytest.UsageError(f"ini camelup_fuzz = {text!r}: not a number of games") from None


class CaseFailed(Exception):
    """A case failed or errored: the text is the human report's block for it."""


class ConformanceSuite:
    """The plugin once asked for: adds the items, and ends the adapter with the session."""

    def __init__(
        self, client: InProcessAdapter, expectations: Expectations, games: int, seed: int
    ) -> None:
        self.client = client
        self.expectations = expectations
        self.games = games
        self.seed = seed
        self.unused: list[str] = []  # expectations that match no selected case

    @pytest.hookimpl(tryfirst=True)  # before -k and -m deselect
    def pytest_collection_modifyitems(
        self, session: pytest.Session, items: list[pytest.Item]
    ) -> None:
        from camelup.harness import load_suite

        suite = load_suite()
        if suite.problems:
            raise pytest.UsageError(
                f"camelup's conformance suite has {len(suite.problems)} problem(s): "
                + str(suite.problems[0])
            )
        parent = Suite.from_parent(session, name="camelup", nodeid="camelup")
        added: list[pytest.Item | pytest.Collector] = [
            CaseItem.from_parent(parent, case=case, suite=self) for case in suite.cases
        ]
        added.extend(
            FuzzItem.from_parent(parent, seed=self.seed + game, suite=self)
            for game in range(1, self.games + 1)
        )
        # Reported as collected, so that "collected N items" and the selection count them.
        report = pytest.CollectReport("camelup", "passed", None, added)
        session.ihook.pytest_collectreport(report=report)
        items.extend(item for item in added if isinstance(item, pytest.Item))

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        selected = [item.case.id for item in session.items if isinstance(item, CaseItem)]
        if selected:  # (an xdist controller collects nothing: its workers do)
            self.unused = [
                f"{e.where}: expectation {e.id!r} matches no selected case"
                for e in self.expectations.unused(selected)
            ]

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        for line in self.unused:  # as conformance run warns of them
            terminalreporter.write_line(f"camelup: warning: {line}", yellow=True)

    def pytest_sessionfinish(self) -> None:
        self.client.stop()

    def result(self, case: Case) -> CaseResult:
        """The runner's verdict on ``case``, expectations applied as ``--strict`` does."""
        from camelup.harness import run_cases
        from camelup.harness.runner import CaseResult

        report = run_cases([case], self.client, self.expectations, strict=True)
        if report.results:
            return report.results[0]
        hello = report.hello
        if hello is not None and not hello.supports(case.ruleset):
            # One case alone: the runner's "no rule set shared" is this case's "unsupported".
            why = f"the adapter does not support {hello.unsupported(case.ruleset)}"
            return CaseResult(case, "skipped", "unsupported", why)
        return CaseResult(case, "errored", "protocol", report.fatal or "no result")


class Suite(pytest.Collector):
    """The parent of the suite's items (they are made by the plugin, not collected)."""

    def collect(self) -> Iterator[pytest.Item]:
        return iter(())


class SuiteItem(pytest.Item):
    """An item of the suite: its failure is the runner's text, never a Python traceback."""

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str | Any:
        # An expected failure's text is formatted too, then dropped: make it cheap.
        if isinstance(excinfo.value, (CaseFailed, pytest.xfail.Exception)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)


class CaseItem(SuiteItem):
    """One conformance case, named by its ID."""

    def __init__(self, *, case: Case, suite: ConformanceSuite, **kwargs: Any) -> None:
        super().__init__(name=case.id, **kwargs)
        self.case = case
        self.suite = suite
        clauses = sorted({*case.clauses, *(case.clause_of(check) for check in case.checks)})
        self.add_marker(
            pytest.mark.camelup(
                kind="case",
                id=case.id,
                area=case.area,
                edition=case.edition,
                players=case.ruleset.get("players"),
            )
        )
        for clause in clauses:
            self.add_marker(pytest.mark.camelup_clause(id=clause))
        for module in case.modules:
            self.add_marker(pytest.mark.camelup_module(name=module))
        for variant in case.variants:
            self.add_marker(pytest.mark.camelup_variant(name=variant))
        self.extra_keyword_matches.update(clauses)  # -k by clause, as by ID

    def runtest(self) -> None:
        from camelup.harness.reports import failure_block

        result = self.suite.result(self.case)
        if result.verdict == "passed":
            return
        if result.note == "xfail":
            pytest.xfail(result.reason)
        if result.verdict == "skipped":
            pytest.skip(f"{result.note}: {result.reason}" if result.reason else result.note)
        raise CaseFailed("\n".join(failure_block(result)))

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return self.path, None, f"camelup case {self.case.id} ({self.case.where})"


class FuzzItem(SuiteItem):
    """One random game in lockstep with the reference; a disagreement fails, shrunk."""

    def __init__(self, *, seed: int, suite: ConformanceSuite, **kwargs: Any) -> None:
        super().__init__(name=f"fuzz/seed-{seed}", **kwargs)
        self.seed = seed
        self.suite = suite
        self.add_marker(pytest.mark.camelup(kind="fuzz", seed=seed))

    def runtest(self) -> None:
        from camelup.harness.fuzz import AdapterBroke, NoCommonRuleset, configs_for, fuzz
        from camelup.harness.protocol import AdapterStartError

        client = self.suite.client
        try:
            hello = client.start()
            found = fuzz(
                client,
                hello,
                configs_for(()),
                self.seed,
                1,
                expectations=self.suite.expectations,
            )
        except AdapterStartError as error:
            raise CaseFailed(f"the adapter could not start: {error}") from None
        except AdapterBroke as error:
            raise CaseFailed(f"the adapter broke the protocol: {error}") from None
        except NoCommonRuleset as error:
            pytest.skip(str(error))
        if found.findings:  # and the adapter's break after them, if it broke
            lines = list(_finding_lines(found.findings))
            if found.broke is not None:
                lines.append(f"the adapter broke the protocol: {found.broke}")
            raise CaseFailed("\n".join(lines))
        if found.known:
            pytest.xfail("; ".join(f"{k.clause} at {k.field}: {k.why}" for k in found.known))
        if found.skipped:
            pytest.skip("the adapter declined the game")

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return self.path, None, f"camelup fuzz game, seed {self.seed}"


def _finding_lines(findings: Sequence[Any]) -> Iterator[str]:
    """Each finding (:class:`camelup.harness.fuzz.Finding`): what differs, and the shrunk case
    as a case file, ready to add to a suite."""
    from camelup.harness.shrink import case_file_text

    for finding in findings:
        divergence = finding.divergence
        yield (
            f"FAIL {finding.clause} at {finding.field}: game of {finding.original_steps} steps"
            f" shrunk to {len(finding.case['steps'])} step(s): {divergence.summary}"
        )
        if not finding.confirmed:
            yield "  warning: the shrunk case does not fail against the adapter on a re-run"
        yield case_file_text([finding.case]).rstrip("\n")
