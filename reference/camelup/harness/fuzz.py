"""``camelup conformance fuzz``: random games played by the reference and an adapter in
lockstep; every different disagreement found, shrunk to a small, ready-to-add conformance case.

Each random game (:mod:`camelup.harness.games`) is sent to the adapter as one case and run
on the reference in-process (:func:`camelup.harness.adapter.run_case`); the two replies are compared
moment by moment on everything the adapter's capabilities allow (the runner's
:func:`camelup.harness.divergence.first_divergence` on every facet: the whole state, refusals,
events, ranking, legal actions), and a game that disagrees gets its
first divergence, with a *field* (``/players/*/money``) and a *clause* read from the reference's
events at that step.

The fuzzer keeps going after a disagreement. Disagreements are grouped by field and clause:
one group is one finding. Games are judged in rounds of :data:`ROUND`; after the round in which
``max_findings`` findings that the expectations file does not know are reached, it stops. Each
such finding's smallest game (fewest steps, then the earliest) is shrunk
(:mod:`camelup.harness.shrink`) and written as a case. A finding the expectations file knows
(:meth:`camelup.harness.expectations.Expectations.known_finding`) is reported, not shrunk.

With ``jobs`` above 1 the rounds and the shrinking are shared among that many worker processes,
each with its own adapter process. The games, the rounds and the order of the findings do not
depend on the number of workers, so a seed gives the same findings and the same cases for any
``jobs`` (for an adapter that answers a case the same way every time).
"""

from __future__ import annotations

import atexit
import concurrent.futures
import multiprocessing
import random
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from camelup.harness.adapter import run_case
from camelup.harness.compare import (
    ProtocolViolation,
    check_asked,
    check_steps,
    is_solver,
    reply_kind,
    wire_for,
)
from camelup.harness.divergence import Divergence, first_divergence
from camelup.harness.expectations import Expectations
from camelup.harness.games import CONFIGS, RulesetConfig, random_game
from camelup.harness.nesting import too_deep_reply
from camelup.harness.protocol import Broken, Hello, Reply
from camelup.harness.runner import Client
from camelup.harness.shrink import (
    actions_of,
    build_case,
    from_state,
    shrink,
    wire_case,
)
from camelup.harness.suite import parse_case
from camelup.io.codec import ruleset_from_json, to_json
from camelup.io.exits import Interrupted, interruption, quiet_worker, signals_held
from camelup.io.replay import moments
from camelup.io.wire import facts
from camelup.model.ruleset import Ruleset

ROUND = 20  # games judged per round; fixed, so that where a run stops does not depend on jobs
DEFAULT_MAX_FINDINGS = 10
AREA = "fuzz"

Verdict = Divergence | str | None  # a divergence, "skipped", or None: the adapter agrees
T = TypeVar("T")


class AdapterBroke(Exception):
    """The adapter broke the protocol (exit code 4)."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr

    def __reduce__(self) -> tuple[Any, ...]:  # raised in a worker, re-raised here
        return (AdapterBroke, (str(self), self.stderr))


class NoCommonRuleset(Exception):
    """The adapter supports (or runs) none of the rulesets to fuzz (exit code 5)."""


@attrs.frozen
class Finding:
    """One group of disagreements (a field and a clause) and the shrunk case that shows it."""

    field: str
    clause: str
    games: int  # games of the run that disagreed this way
    first_game: int
    game: int  # the game shrunk: the group's smallest
    ruleset: Ruleset
    original_steps: int
    divergence: Divergence  # of the case written
    case: dict[str, Any]
    shrunk_steps: int  # the steps of the shortest game from the setup that still disagrees
    checks: int  # candidates checked on the adapter while shrinking
    confirmed: bool  # the written case fails against the adapter
    resumed: bool = False  # the game shrunk is the rest of one, after an earlier divergence


@attrs.frozen
class KnownGroup:
    """A group of disagreements that the expectations file knows: reported, not shrunk."""

    field: str
    clause: str
    games: int
    first_game: int
    why: str  # the entry's reason and where it is


@attrs.frozen
class FuzzResult:
    games: int  # games compared
    skipped: int  # games the adapter declined
    disagreeing: int  # games compared that disagreed
    findings: tuple[Finding, ...]
    known: tuple[KnownGroup, ...]
    stopped_early: bool  # max_findings was reached before the last game
    # The signal that stopped the games (SIGINT, SIGTERM, SIGHUP); the findings so far are
    # then not shrunk (that needs the adapter, and the user asked to stop): each is its game.
    interrupted: Interrupted | None = None
    # How the adapter broke the protocol after some games had disagreed: the findings so far
    # are kept, not shrunk (that needs the adapter). With no finding, AdapterBroke is raised.
    broke: AdapterBroke | None = attrs.field(default=None, eq=False)


@attrs.frozen
class Progress:
    """How far a run is, for a progress line."""

    done: int
    total: int
    disagreeing: int
    findings: int


# ------------------------------------------------------------------------------------ judging


class Judge:
    """Sends candidate cases to the adapter and compares its replies with the reference's."""

    def __init__(self, client: Client, hello: Hello) -> None:
        self.client = client
        self.hello = hello
        self.checks = 0

    def asked(self, wire: Mapping[str, Any]) -> dict[str, Any]:
        """``wire`` asking, at every moment, for the legal actions and the adapter's own ranking
        when it gives them."""
        moments = list(range(len(wire["steps"]) + 1))
        capabilities = self.hello.capabilities
        want: dict[str, Any] = {
            "legal_actions_after": moments if "legal_actions" in capabilities else []
        }
        if "ranking" in capabilities:
            want["ranking_after"] = moments
        return {**wire, "want": want}

    def outcomes(self, wires: Sequence[Mapping[str, Any]]) -> list[Any]:
        """The adapter's outcome for each wire; AdapterBroke at its first break: the fuzzer
        stops there, and the rest would only restart the adapter to break it again."""
        found: dict[int, Any] = {}
        replies = self.client.run(list(wires))
        try:
            for index, outcome in replies:
                # A failed restart ends the run with its own error (AdapterStartError).
                if isinstance(outcome, Broken) and outcome.kind != "restart":
                    raise AdapterBroke(outcome.message, outcome.stderr)
                found[index] = outcome
        finally:
            if isinstance(replies, Generator):
                replies.close()
        self.checks += len(wires)
        return [found[i] for i in range(len(wires))]

    def judge(self, wires: Sequence[Mapping[str, Any]]) -> list[Verdict]:
        """Per case: its first divergence, None when the adapter agrees, or "skipped"."""
        return [verdict for verdict, _ in self._judged(wires)]

    def _judged(self, wires: Sequence[Mapping[str, Any]]) -> list[tuple[Verdict, Any]]:
        """Per case: its verdict, and the reference's reply when it was needed."""
        asked = [self.asked(w) for w in wires]
        outcomes = self.outcomes(asked)
        return [self._divergence(a, o) for a, o in zip(asked, outcomes, strict=True)]

    def judge_through(
        self, wires: Sequence[Mapping[str, Any]]
    ) -> list[tuple[Verdict, tuple[Later, ...]]]:
        """Per game: its first divergence (or None, or "skipped") and every later one, found by
        putting the adapter back on the reference's position after each divergence and playing
        the rest of the game from there, so that one bug does not hide the others."""
        first = self._judged(wires)
        later: list[list[Later]] = [[] for _ in wires]
        pending = [
            (number, wire, verdict, reference)
            for number, (wire, (verdict, reference)) in enumerate(zip(wires, first, strict=True))
        ]
        while pending:
            resumed = [
                (number, rest)
                for number, wire, verdict, reference in pending
                if isinstance(verdict, Divergence)
                and (rest := _rest_of_game(wire, verdict, reference)) is not None
            ]
            judged = self._judged([rest for _, rest in resumed])
            pending = []
            for (number, rest), (verdict, reference) in zip(resumed, judged, strict=True):
                # An adapter that cannot hold the reference's position (it reads it otherwise)
                # shows the earlier bug again, not a new one: the game ends there.
                if isinstance(verdict, Divergence) and verdict.moment > 0:
                    later[number].append(Later(rest, attrs.evolve(verdict, body=None)))
                    pending.append((number, rest, verdict, reference))
        return [(verdict, tuple(more)) for (verdict, _), more in zip(first, later, strict=True)]

    def one(self, wire: Mapping[str, Any]) -> Divergence | None:
        [found] = self.judge([wire])
        return found if isinstance(found, Divergence) else None

    def _divergence(self, wire: Mapping[str, Any], outcome: Any) -> tuple[Verdict, Any]:
        if isinstance(outcome, Broken):
            raise AdapterBroke(outcome.message, outcome.stderr)
        assert isinstance(outcome, Reply)
        body = outcome.body
        if outcome.too_deep is not None:
            raise AdapterBroke(too_deep_reply(body, outcome.too_deep))
        try:
            kind = reply_kind(body)
            if kind == "skipped":
                return "skipped", None
            reference = run_case(wire)
            if "errored" in reference:  # the reference cannot run it: a bug of camelup
                raise RuntimeError(f"the reference cannot run a fuzz case: {reference}")
            if kind == "errored":
                return _errored(wire, reference, body), None
            _check_shape(wire, body, self.hello.capabilities)
            found = first_divergence(
                wire,
                reference,
                body,
                self.hello.capabilities,
                partnerships=self.hello.partnerships,
            )
            return found, reference
        except ProtocolViolation as error:
            raise AdapterBroke(f"malformed reply: {error}") from None
        except RecursionError:  # deep, but not seen as such from its text
            raise AdapterBroke(too_deep_reply(body)) from None


@attrs.frozen
class Later:
    """A divergence found after an earlier one of the same game: ``wire`` is the rest of the
    game, from the reference's position after the earlier divergence."""

    wire: dict[str, Any]
    divergence: Divergence


def _rest_of_game(
    wire: Mapping[str, Any], divergence: Divergence, reference: Any
) -> dict[str, Any] | None:
    """The steps after ``divergence`` from the reference's position at it, or None when nothing
    is left to play (the last step, an adapter that errored, or a given state it read wrongly:
    a setup it laid out wrongly is given to it again as the reference's state)."""
    moment = divergence.moment
    if (
        divergence.kind == "errored"
        or not isinstance(reference, dict)
        or "steps" not in reference
        or not 0 <= moment < len(wire["steps"])
        or (moment == 0 and "setup" not in wire["given"])
    ):
        return None
    state = moments(reference)[moment].state
    if state.get("result") is not None:
        return None
    return wire_case(wire["ruleset"], {"state": state}, actions_of(wire)[moment:])


def _errored(wire: Mapping[str, Any], reference: Mapping[str, Any], body: Any) -> Divergence:
    """The adapter failed on the case: named after the last step's first consequence."""
    message = body.get("errored", {}).get("message", "") if isinstance(body, dict) else ""
    steps = reference.get("steps", [])
    events = steps[-1].get("events", []) if steps else []
    chosen = [e for e in events if e.get("type") not in ("pyramid_ticket_taken", "die_revealed")]
    if chosen:
        clause = str(chosen[0]["clause"])
    elif wire["steps"]:
        clause = facts().action_clause(wire["steps"][-1]["action"].get("type"), "turn.order")
    else:
        clause = "setup.racing-camels"
    summary = f"the adapter errored: {message}" if message else "the adapter errored"
    return Divergence(len(wire["steps"]), "errored", "/errored", clause, (), summary, body)


def _check_shape(
    wire: Mapping[str, Any], body: Mapping[str, Any], capabilities: frozenset[str]
) -> None:
    """ProtocolViolation unless ``body`` is a result for ``wire``: one entry per step, the
    events and the legal actions the adapter declared."""
    if "initial_error" in body:
        return
    check_steps(body["steps"], len(wire["steps"]), capabilities)
    for member in ("legal_actions", "ranking"):
        check_asked(body, member, wire["want"].get(f"{member}_after", ()))


# ------------------------------------------------------------------ games, examples, shrinking


@attrs.frozen
class _Draw:
    """One game to play, as drawn from the run's seed: played out where it is judged."""

    number: int
    ruleset: Mapping[str, Any]
    seed: int
    partnerships: bool

    def wire(self) -> dict[str, Any]:
        ruleset = ruleset_from_json(self.ruleset)
        game = random_game(ruleset, random.Random(self.seed), partnerships=self.partnerships)
        setup = {"setup": to_json(game.setup)}
        return wire_case(self.ruleset, setup, [to_json(a) for a in game.actions])


@attrs.frozen
class _Judged:
    """A game's verdict (without the adapter's reply, which is not needed to group it)."""

    steps: int
    verdict: Verdict
    later: tuple[Later, ...] = ()  # the divergences after the first, each on the rest of the game


def _judge_draws(judge: Judge, draws: Sequence[_Draw]) -> list[_Judged]:
    wires = [d.wire() for d in draws]
    verdicts = judge.judge_through(wires)
    return [
        _Judged(
            len(w["steps"]), attrs.evolve(v, body=None) if isinstance(v, Divergence) else v, later
        )
        for w, (v, later) in zip(wires, verdicts, strict=True)
    ]


@attrs.frozen
class _Example:
    """A group's smallest game, to shrink."""

    number: int
    wire: dict[str, Any]
    divergence: Divergence


def _shrunk(judge: Judge, example: _Example, seed: int) -> tuple[dict[str, Any], Divergence, int]:
    """The case written for ``example``, its divergence, and the steps of the shortest game
    from the setup that still disagrees."""
    small, small_found = shrink(judge.one, example.wire, example.divergence)
    chosen, chosen_found = small, small_found
    if len(small["steps"]) > 2:
        single = from_state(judge.one, small, small_found)
        if single is not None:
            chosen, chosen_found = single
    given = "a given state" if "state" in chosen["given"] else "the setup"
    comment = (
        f"camelup conformance fuzz --seed {seed}: game {example.number}"
        f" ({len(example.wire['steps'])} steps) shrunk to {len(chosen['steps'])} step(s) from"
        f" {given}; {judge.hello.name} differed: {chosen_found.summary}"
    )
    case = build_case(chosen, chosen_found, seed, example.number, comment)
    return case, chosen_found, len(small["steps"])


def _confirm(judge: Judge, raw: Mapping[str, Any]) -> bool:
    """Whether the written case fails against the adapter (and so shows the disagreement)."""
    from camelup.harness.runner import verdict

    case = parse_case(dict(raw), AREA, "<fuzz>")
    [outcome] = judge.outcomes([wire_for(case, judge.hello.capabilities)])
    if isinstance(outcome, Broken):
        raise AdapterBroke(outcome.message, outcome.stderr)
    return verdict(case, outcome, judge.hello).verdict != "passed"


@attrs.frozen
class _Shrunk:
    case: dict[str, Any]
    divergence: Divergence
    shrunk_steps: int
    checks: int
    confirmed: bool


def _shrink_example(judge: Judge, example: _Example, seed: int) -> _Shrunk:
    before = judge.checks
    case, found, steps = _shrunk(judge, example, seed)
    confirmed = _confirm(judge, case)
    return _Shrunk(case, found, steps, judge.checks - before, confirmed)


# --------------------------------------------------------------------------- the workers


class _Local:
    """Judging in this process, with the adapter already started."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge

    def judge_games(self, draws: Sequence[_Draw]) -> list[_Judged]:
        return _judge_draws(self.judge, draws)

    def shrink_all(self, examples: Sequence[_Example], seed: int) -> list[_Shrunk]:
        return [_shrink_example(self.judge, e, seed) for e in examples]

    def close(self) -> None:
        return None

    stop = close  # nothing runs in the background to end at once


_WORKER: dict[str, Judge] = {}


def _worker_judge(make_client: Callable[[], Client]) -> Judge:
    judge = _WORKER.get("judge")
    if judge is None:
        client = make_client()
        atexit.register(client.close)
        judge = Judge(client, client.start())
        _WORKER["judge"] = judge
    return judge


def _judge_in_worker(make_client: Callable[[], Client], draws: list[_Draw]) -> list[_Judged]:
    return _judge_draws(_worker_judge(make_client), draws)


def _shrink_in_worker(make_client: Callable[[], Client], example: _Example, seed: int) -> _Shrunk:
    return _shrink_example(_worker_judge(make_client), example, seed)


class _Pool:
    """Judging shared among ``jobs`` worker processes, each with its own adapter process."""

    def __init__(self, make_client: Callable[[], Client], jobs: int) -> None:
        self.make_client = make_client
        self.jobs = jobs
        self.executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=quiet_worker,
        )

    def judge_games(self, draws: Sequence[_Draw]) -> list[_Judged]:
        size = -(-len(draws) // self.jobs)
        chunks = [list(draws[i : i + size]) for i in range(0, len(draws), size)]
        with signals_held():  # never half-way through starting a worker
            futures = [self.executor.submit(_judge_in_worker, self.make_client, c) for c in chunks]
        return [v for chunk in _results(futures) for v in chunk]

    def shrink_all(self, examples: Sequence[_Example], seed: int) -> list[_Shrunk]:
        with signals_held():
            futures = [
                self.executor.submit(_shrink_in_worker, self.make_client, e, seed) for e in examples
            ]
        return _results(futures)

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)

    def stop(self) -> None:
        """End the workers at once (after a signal): their games are no longer wanted."""
        for process in list(getattr(self.executor, "_processes", {}).values()):
            process.terminate()
        self.executor.shutdown(wait=False, cancel_futures=True)


def _results(futures: Iterable[concurrent.futures.Future[T]]) -> list[T]:
    """Every result in order; the first error (an AdapterBroke) is raised once all are done."""
    futures = list(futures)
    concurrent.futures.wait(futures)
    return [f.result() for f in futures]


# --------------------------------------------------------------------------------- the fuzzer


def configs_for(names: Sequence[str]) -> list[RulesetConfig]:
    """The ruleset families ``--ruleset`` selects (all of them when ``names`` is empty)."""
    return [c for c in CONFIGS if not names or set(names) & c.names()]


def _probe(judge: Judge, rulesets: Sequence[Ruleset]) -> list[Ruleset]:
    """The rulesets the adapter does not answer ``skipped`` for (a setup with no steps)."""
    from camelup.rules.setup import random_setup

    wires = [
        wire_case(to_json(r), {"setup": to_json(random_setup(r, random.Random(0)))}, [])
        for r in rulesets
    ]
    kept = []
    for ruleset, outcome in zip(rulesets, judge.outcomes(wires), strict=True):
        if isinstance(outcome, Broken):
            raise AdapterBroke(outcome.message, outcome.stderr)
        body = outcome.body
        if not (isinstance(body, dict) and "skipped" in body):
            kept.append(ruleset)
    return kept


@attrs.frozen
class _Candidate:
    """A disagreeing game that may become its group's example."""

    draw: _Draw
    steps: int
    divergence: Divergence
    rest: dict[str, Any] | None = None  # a later divergence's rest of the game (else the game)

    def example(self) -> _Example:
        wire = self.draw.wire() if self.rest is None else self.rest
        return _Example(self.draw.number, wire, self.divergence)


@attrs.frozen
class _Group:
    first_game: int
    games: int
    smallest: _Candidate  # fewest steps, then the earliest game

    def add(self, candidate: _Candidate, counted: bool = False) -> _Group:
        """With ``candidate``, whose game is ``counted`` already when it diverged this way
        before."""
        games = self.games + (not counted)
        size = candidate.steps, candidate.draw.number
        if size < (self.smallest.steps, self.smallest.draw.number):
            return _Group(self.first_game, games, candidate)
        return attrs.evolve(self, games=games)


def fuzz(
    client: Client,
    hello: Hello,
    configs: Sequence[RulesetConfig],
    seed: int,
    games: int,
    *,
    max_findings: int = DEFAULT_MAX_FINDINGS,
    expectations: Expectations | None = None,
    jobs: int = 1,
    make_client: Callable[[], Client] | None = None,
    progress: Callable[[Progress], None] = lambda _: None,
) -> FuzzResult:
    """Play up to ``games`` random games on the adapter; shrink each new finding.

    ``client`` is started (its hello is ``hello``); with ``jobs`` above 1, ``make_client``
    (picklable) makes each worker's own client.
    """
    expectations = expectations or Expectations()
    if is_solver(hello.capabilities):
        raise NoCommonRuleset("the adapter is an odds solver (capability odds alone): no games")
    judge = Judge(client, hello)
    declared = [
        c.ruleset(players)
        for c in configs
        for players in c.players
        if hello.supports(to_json(c.ruleset(players)))
    ]
    if not declared:
        raise NoCommonRuleset(
            "the adapter supports none of the selected rulesets"
            f" (it supports editions: {', '.join(sorted(hello.editions)) or 'none'})"
        )
    families: dict[str, list[Ruleset]] = {}  # a family is drawn first, then a player count
    for ruleset in _probe(judge, declared):
        families.setdefault(_ruleset_label(ruleset, players=False), []).append(ruleset)
    if not families:
        raise NoCommonRuleset("the adapter skips every ruleset it declared")
    workers: _Local | _Pool = (
        _Pool(make_client, jobs) if make_client is not None and jobs > 1 else _Local(judge)
    )
    try:
        result = _run(workers, hello, families, seed, games, max_findings, expectations, progress)
    except BaseException:
        workers.stop()
        raise
    if (result.interrupted or result.broke) is not None:
        workers.stop()
    else:
        workers.close()
    return result


def _run(
    workers: _Local | _Pool,
    hello: Hello,
    families: Mapping[str, list[Ruleset]],
    seed: int,
    games: int,
    max_findings: int,
    expectations: Expectations,
    progress: Callable[[Progress], None],
) -> FuzzResult:
    rng = random.Random(seed)
    groups: dict[tuple[str, str], _Group] = {}
    played = skipped = disagreeing = 0
    number = 0
    stopped_early = False

    def new_groups() -> list[tuple[str, str]]:
        return [k for k in groups if expectations.known_finding(k[1], k[0]) is None]

    interrupted: Interrupted | None = None
    broke: AdapterBroke | None = None
    while number < games:
        batch: list[_Draw] = []
        while number < games and len(batch) < ROUND:
            number += 1
            ruleset = rng.choice(families[rng.choice(list(families))])
            batch.append(_Draw(number, to_json(ruleset), rng.randrange(2**32), hello.partnerships))
        try:
            judged_games = workers.judge_games(batch)
        except KeyboardInterrupt as error:  # the games before this batch still count
            interrupted = interruption(error)
            break
        except AdapterBroke as error:  # so do they when the adapter breaks
            broke = error
            break
        for draw, judged in zip(batch, judged_games, strict=True):
            if judged.verdict == "skipped":
                skipped += 1
                continue
            played += 1
            if not isinstance(judged.verdict, Divergence):
                continue
            disagreeing += 1
            candidates = [
                _Candidate(draw, judged.steps, judged.verdict),
                *(
                    _Candidate(draw, len(later.wire["steps"]), later.divergence, later.wire)
                    for later in judged.later
                ),
            ]
            seen: set[tuple[str, str]] = set()  # a game counts once in each of its groups
            for candidate in candidates:
                key = candidate.divergence.group
                group = groups.get(key)
                if group is None:
                    groups[key] = _Group(draw.number, 1, candidate)
                else:
                    groups[key] = group.add(candidate, counted=key in seen)
                seen.add(key)
        progress(Progress(number, games, disagreeing, len(groups)))
        if len(new_groups()) >= max_findings and number < games:
            stopped_early = True
            break
    chosen = new_groups()[:max_findings]
    known = [
        KnownGroup(field, clause, group.games, group.first_game, _why(expectations, clause, field))
        for (field, clause), group in groups.items()
        if (field, clause) not in chosen and expectations.known_finding(clause, field)
    ]
    examples = [groups[key].smallest.example() for key in chosen]
    if broke is not None and not groups:
        raise broke
    shrunk = [_unshrunk(example, seed) for example in examples]
    if interrupted is None and broke is None:
        try:
            shrunk = workers.shrink_all(examples, seed)
        except AdapterBroke as error:  # the findings stand, unshrunk
            broke = error
    findings = [
        Finding(
            field=key[0],
            clause=key[1],
            games=groups[key].games,
            first_game=groups[key].first_game,
            game=example.number,
            ruleset=ruleset_from_json(example.wire["ruleset"]),
            original_steps=len(actions_of(example.wire)),
            divergence=result.divergence,
            case=result.case,
            shrunk_steps=result.shrunk_steps,
            checks=result.checks,
            confirmed=result.confirmed,
            resumed="state" in example.wire["given"],
        )
        for key, example, result in zip(chosen, examples, shrunk, strict=True)
    ]
    return FuzzResult(
        played,
        skipped,
        disagreeing,
        tuple(findings),
        tuple(known),
        stopped_early,
        interrupted,
        broke,
    )


def _unshrunk(example: _Example, seed: int) -> _Shrunk:
    """The case of ``example``'s whole game, not shrunk and not confirmed (no adapter asked)."""
    comment = (
        f"camelup conformance fuzz --seed {seed}: game {example.number}"
        f" ({len(example.wire['steps'])} steps), not shrunk: the run was interrupted"
    )
    case = build_case(example.wire, example.divergence, seed, example.number, comment)
    return _Shrunk(case, example.divergence, len(example.wire["steps"]), 0, False)


def _why(expectations: Expectations, clause: str, field: str) -> str:
    entry = expectations.known_finding(clause, field)
    return "" if entry is None else f"{entry.describe()} ({entry.where})"


def _ruleset_label(ruleset: Ruleset, players: bool = True) -> str:
    label = "+".join((ruleset.edition.value, *sorted(m.value for m in ruleset.modules)))
    if ruleset.variants:
        label += " (" + ", ".join(sorted(v.value for v in ruleset.variants)) + ")"
    return f"{label}, {ruleset.players} players" if players else label


__all__ = [
    "DEFAULT_MAX_FINDINGS",
    "AdapterBroke",
    "Finding",
    "FuzzResult",
    "KnownGroup",
    "NoCommonRuleset",
    "Progress",
    "configs_for",
    "fuzz",
]
