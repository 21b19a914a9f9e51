"""``camelup conformance fuzz``: random games played by the reference and an adapter in
lockstep, and the first disagreement shrunk to a small, ready-to-add conformance case.

Each random game (:mod:`camelup.conformance.games`) is sent to the adapter as one case, through
the protocol client; the reference runs the same case in-process (:func:`camelup.adapter.run_case`)
and its reply becomes the case's expectations: every top-level member of the state at every
moment, the events of every step (compared when the adapter declares ``events``), and any
rejection. The runner's own comparison (:func:`camelup.conformance.compare.compare`) then names
the first moment where the adapter differs.

The first game that disagrees is shrunk, each candidate re-checked on the adapter:

1. cut the game after the first diverging step;
2. remove earlier steps, in chunks and then one by one (a delta-debugging pass): the remaining
   actions are replayed on the reference, each given to the player then to move, and those the
   reference rejects are dropped; a candidate is kept when it is shorter and still differs in
   the same way (the same kind of difference, at the same top-level state member);
3. try the state just before the divergence as the given position, with only the diverging step.

The result is written as a case file (``conformance/schema/case-file.schema.json``) whose
expectations are the reference's values where the adapter differed, and the events of the
diverging step. Everything is deterministic for a seed (and a deterministic adapter).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from camelup.adapter import run_case
from camelup.conformance.compare import (
    Mismatch,
    ProtocolViolation,
    compare,
    describe_action,
    normalise,
    reply_kind,
    same,
)
from camelup.conformance.games import CONFIGS, RulesetConfig, random_game, relegalise
from camelup.conformance.generate import dump
from camelup.conformance.nesting import too_deep_reply
from camelup.conformance.protocol import Broken, Hello, Reply
from camelup.conformance.runner import Client
from camelup.conformance.suite import (
    Case,
    ErrorCheck,
    EventsCheck,
    StateCheck,
    parse_case,
)
from camelup.io.codec import state_from_json, to_json
from camelup.io.jsonio import pointer
from camelup.model.ruleset import Ruleset

BATCH = 10  # games sent at once (pipelined); progress is reported after each batch
MAX_PASSES = 4  # one-by-one removal passes after the chunked ones
AREA = "fuzz"
ACKNOWLEDGEMENTS = frozenset({"pyramid_ticket_taken", "die_revealed"})
_SETUP_CLAUSES = {
    "/ruleset": "ruleset.editions",
    "/track": "setup.racing-camels",
    "/players": "setup.player-kit",
    "/pyramid": "setup.dice-in-pyramid",
    "/ticket_stacks": "setup.leg-ticket-stacks",
    "/to_move": "setup.start-player",
    "/start_player": "setup.start-player",
}


class AdapterBroke(Exception):
    """The adapter broke the protocol (exit code 4)."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr


class Unshrinkable(Exception):
    """The adapter does not repeat its disagreement (it is not deterministic)."""


class NoCommonRuleset(Exception):
    """The adapter supports (or runs) none of the rulesets to fuzz (exit code 5)."""


@attrs.frozen
class Divergence:
    """How the adapter's reply to a case first differs from the reference's."""

    moment: int  # 0: the given position; k: after step k
    kind: str  # state, events, error, rejected (a step the reference accepts), refused, errored
    pointer: str | None  # the top-level state member, for kind "state"
    mismatch: Mismatch | None
    body: Mapping[str, Any] | None  # the adapter's reply (None when it errored)

    @property
    def signature(self) -> tuple[str, str | None]:
        return (self.kind, self.pointer)

    def summary(self) -> str:
        if self.mismatch is not None:
            return self.mismatch.summary
        message = (self.body or {}).get("errored", {}).get("message", "")
        return f"the adapter errored: {message}" if message else "the adapter errored"


@attrs.frozen
class Finding:
    """A disagreement and the shrunk case that shows it."""

    game: int
    ruleset: Ruleset
    original_steps: int
    divergence: Divergence
    case: dict[str, Any]
    shrunk_steps: int  # the steps of the shortest game from the setup that still disagrees
    checks: int  # candidates checked on the adapter while shrinking
    confirmed: bool  # the written case fails against the adapter


@attrs.frozen
class FuzzResult:
    games: int  # games compared
    skipped: int  # games the adapter declined
    finding: Finding | None


# ------------------------------------------------------------------------------------ judging


def _wire(
    ruleset: Mapping[str, Any], given: Mapping[str, Any], steps: Iterable[Any]
) -> dict[str, Any]:
    return {
        "id": "fuzz.game/candidate",
        "ruleset": dict(ruleset),
        "given": dict(given),
        "steps": [{"action": a} for a in steps],
        "want": {"legal_actions_after": []},
    }


def _actions(wire: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [dict(step["action"]) for step in wire["steps"]]


def expectation_case(wire: Mapping[str, Any], reference: Mapping[str, Any]) -> Case:
    """The case that expects exactly the reference's reply to ``wire``."""
    expect: list[dict[str, Any]] = []
    if "initial_error" in reference:
        error = reference["initial_error"]
        expect.append({"after": 0, "error": {"code": error["code"], "clause": error["clause"]}})
    elif "initial_state" in reference:
        expect.append({"after": 0, "state": _members(reference["initial_state"])})
        for number, step in enumerate(reference["steps"], start=1):
            if "error" in step:
                error = step["error"]
                expect.append(
                    {"after": number, "error": {"code": error["code"], "clause": error["clause"]}}
                )
            else:
                expect.append({"after": number, "state": _members(step["state"])})
                expect.append({"after": number, "events": step["events"], "match": "sequence"})
    else:  # the reference itself errored: a bug of the reference, not of the adapter
        raise RuntimeError(f"the reference cannot run a fuzz case: {reference}")
    raw = {
        "id": wire["id"],
        "description": "a fuzz candidate",
        "clauses": ["fuzz.game"],
        "source": {"kind": "generated", "ref": "camelup conformance fuzz"},
        "ruleset": wire["ruleset"],
        "given": wire["given"],
        "steps": wire["steps"],
        "expect": expect,
    }
    return parse_case(raw, AREA, "<fuzz>")


def _members(state: Mapping[str, Any]) -> dict[str, Any]:
    return {pointer(key): value for key, value in state.items()}


class Judge:
    """Sends candidate cases to the adapter and compares with the reference."""

    def __init__(self, client: Client, hello: Hello) -> None:
        self.client = client
        self.hello = hello
        self.checks = 0

    def outcomes(self, wires: Sequence[Mapping[str, Any]]) -> list[Any]:
        found: dict[int, Any] = {}
        for index, outcome in self.client.run(list(wires)):
            found[index] = outcome
        self.checks += len(wires)
        return [found[i] for i in range(len(wires))]

    def judge(self, wires: Sequence[Mapping[str, Any]]) -> list[Divergence | str | None]:
        """Per case: its first divergence, None when the adapter agrees, or "skipped"."""
        cases = [expectation_case(w, run_case(w)) for w in wires]
        out: list[Divergence | str | None] = []
        for case, outcome in zip(cases, self.outcomes(wires), strict=True):
            out.append(self._divergence(case, outcome))
        return out

    def one(self, wire: Mapping[str, Any]) -> Divergence | None:
        [found] = self.judge([wire])
        return found if isinstance(found, Divergence) else None

    def _divergence(self, case: Case, outcome: Any) -> Divergence | str | None:
        if isinstance(outcome, Broken):
            raise AdapterBroke(outcome.message, outcome.stderr)
        assert isinstance(outcome, Reply)
        body = outcome.body
        if outcome.too_deep is not None:  # compared recursively below
            raise AdapterBroke(too_deep_reply(body, outcome.too_deep))
        try:
            kind = reply_kind(body)
            if kind == "skipped":
                return "skipped"
            if kind == "errored":
                return Divergence(len(case.steps), "errored", None, None, body)
            mismatches = compare(case, body, self.hello.capabilities)
        except ProtocolViolation as error:
            raise AdapterBroke(f"malformed reply: {error}") from None
        except RecursionError:  # deep, but not seen as such from its text
            raise AdapterBroke(too_deep_reply(body)) from None
        if not mismatches:
            return None
        first = mismatches[0]
        if first.check is None:
            kind = "refused" if first.after == 0 else "rejected"
            return Divergence(first.after, kind, None, first, body)
        check = next(c for c in case.checks if c.index == first.check)
        if isinstance(check, StateCheck):
            return Divergence(first.after, "state", first.pointer, first, body)
        kind = "events" if isinstance(check, EventsCheck) else "error"
        assert isinstance(check, EventsCheck | ErrorCheck)
        return Divergence(first.after, kind, None, first, body)


# ---------------------------------------------------------------------------------- shrinking


def _cut(wire: Mapping[str, Any], steps: int) -> dict[str, Any]:
    return _wire(wire["ruleset"], wire["given"], _actions(wire)[:steps])


def _start(wire: Mapping[str, Any]) -> Any:
    from camelup.io.codec import ruleset_from_json, setup_from_json
    from camelup.rules.setup import new_game

    given = wire["given"]
    if "state" in given:
        return state_from_json(given["state"])
    return new_game(ruleset_from_json(wire["ruleset"]), setup_from_json(given["setup"]))


def _errored_prefix(judge: Judge, wire: Mapping[str, Any]) -> tuple[dict[str, Any], Divergence]:
    """The shortest prefix of an errored game on which the adapter still errors (bisection)."""
    low, high = 0, len(wire["steps"])
    best = judge.one(wire)
    if best is None or best.kind != "errored":  # an adapter that errors only now and then
        raise Unshrinkable("the adapter did not error again on the same game")
    while low < high:
        middle = (low + high) // 2
        found = judge.one(_cut(wire, middle))
        if found is not None and found.kind == "errored":
            high, best = middle, found
        else:
            low = middle + 1
    return _cut(wire, high), attrs.evolve(best, moment=high)


def shrink(
    judge: Judge, wire: Mapping[str, Any], found: Divergence
) -> tuple[dict[str, Any], Divergence]:
    """A smaller case that still disagrees the same way, and its divergence."""
    if found.kind == "errored":
        try:
            current, found = _errored_prefix(judge, wire)
        except Unshrinkable:
            return dict(wire), found
    else:
        current = _cut(wire, found.moment)
        again = judge.one(current)
        if again is None or again.signature != found.signature:
            return dict(wire), found  # an adapter whose early replies depend on later steps
        found = again
    if found.moment == 0:
        return _cut(current, 0), attrs.evolve(found, moment=0)
    signature = found.signature
    start = _start(current)

    def attempt(actions: list[dict[str, Any]]) -> tuple[dict[str, Any], Divergence] | None:
        kept = relegalise(start, actions)
        if len(kept) >= len(current["steps"]) or not kept:
            return None
        candidate = _wire(current["ruleset"], current["given"], kept)
        result = judge.one(candidate)
        if result is None or result.signature != signature or result.moment == 0:
            return None
        if signature[0] == "errored":
            return candidate, result
        return _cut(candidate, result.moment), result

    size = max(1, (len(current["steps"]) - 1) // 2)
    passes = 0
    while True:
        changed = False
        index = 0
        while index < len(current["steps"]) - 1:
            actions = _actions(current)
            end = min(index + size, len(actions) - 1)  # never remove the diverging step itself
            better = attempt(actions[:index] + actions[end:])
            if better is not None:
                current, found = better
                changed = True
            else:
                index += size
        if size > 1:
            size //= 2
            continue
        passes += 1
        if not changed or passes >= MAX_PASSES:
            break
    return current, found


def from_state(
    judge: Judge, wire: Mapping[str, Any], found: Divergence
) -> tuple[dict[str, Any], Divergence] | None:
    """The reference's position just before the diverging step, with that step alone, when
    the adapter still differs the same way on it."""
    if found.moment < 1:
        return None
    reference = run_case(_cut(wire, found.moment - 1))
    if "initial_state" not in reference:
        return None
    position = reference["steps"][-1]["state"] if reference["steps"] else reference["initial_state"]
    if "state" in wire["given"] and found.moment == 1:
        return None  # already a single step from a given state
    candidate = _wire(wire["ruleset"], {"state": position}, [_actions(wire)[found.moment - 1]])
    result = judge.one(candidate)
    if result is None or result.signature != found.signature or result.moment != 1:
        return None
    return candidate, result


# ----------------------------------------------------------------------------- the case file


def _differing(expected: Any, actual: Any, tokens: list[str], depth: int) -> list[list[str]]:
    """Pointers (token lists) below which ``expected`` and ``actual`` differ, at most ``depth``
    levels down (both values already in canonical form)."""
    if same(expected, actual):
        return []
    if depth > 0 and isinstance(expected, dict) and isinstance(actual, dict):
        found = [
            tokens_below
            for key in expected
            for tokens_below in (
                _differing(expected[key], actual[key], [*tokens, key], depth - 1)
                if key in actual
                else [[*tokens, key]]
            )
        ]
        return found or [tokens]  # only extra members in ``actual``: the object as a whole
    if (  # arrays of objects (players, leg tickets); a stack or a set is compared whole
        depth > 0
        and isinstance(expected, list)
        and isinstance(actual, list)
        and len(expected) == len(actual)
        and all(isinstance(x, dict) for x in expected)
        and tokens[-1:] not in (["tiles"], ["winner_pile"], ["loser_pile"])
    ):
        return [
            found
            for i, (a, b) in enumerate(zip(expected, actual, strict=True))
            for found in _differing(a, b, [*tokens, str(i)], depth - 1)
        ]
    return [tokens]


def _value_at(document: Any, tokens: Sequence[str]) -> Any:
    node = document
    for token in tokens:
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def _adapter_position(body: Mapping[str, Any] | None, moment: int) -> Any:
    """The adapter's position at ``moment`` (a rejected step leaves it unchanged)."""
    if body is None or "initial_state" not in body:
        return None
    position = body["initial_state"]
    for step in body.get("steps", [])[:moment]:
        if isinstance(step, dict) and "state" in step:
            position = step["state"]
    return position


def _key_pointers(state: Mapping[str, Any]) -> list[list[str]]:
    keys = [["track"], ["tiles"]]
    keys += [["players", str(i), "money"] for i in range(len(state.get("players", [])))]
    return keys + [["leg"], ["to_move"], ["result"]]


def _primary(events: Sequence[Mapping[str, Any]], divergence: Divergence) -> str | None:
    """The clause of the first reference event the adapter reports differently (when it
    reports events), else the first clause named by the reference's events, passing over the
    events that only acknowledge the action itself (ticket taken, die revealed) when others
    follow: the rule that went differently is among the consequences."""
    body = divergence.body
    if divergence.kind == "events" and body is not None:
        steps = body.get("steps", [])
        theirs = steps[divergence.moment - 1].get("events", []) if divergence.moment else []
        for index, event in enumerate(events):
            other = theirs[index] if index < len(theirs) else None
            if not isinstance(other, dict) or not all(
                k in other and same(normalise(v), normalise(other[k]))
                for k, v in event.items()
                if k != "clause"
            ):
                return str(event["clause"])
    consequences = [e for e in events if e.get("type") not in ACKNOWLEDGEMENTS]
    chosen = consequences or events
    return str(chosen[0]["clause"]) if chosen else None


def build_case(
    wire: Mapping[str, Any],
    divergence: Divergence,
    seed: int,
    game: int,
    original_steps: int,
    adapter: str,
) -> dict[str, Any]:
    """The ready-to-add case: the reference's values where the adapter differs."""
    reference = run_case(wire)
    moment = divergence.moment
    order = _card_order_of_edition(wire["ruleset"].get("edition"))
    step = reference["steps"][moment - 1] if moment else {}
    if "error" in step:  # the reference refuses the step the adapter accepted
        return _case_json(
            wire,
            [{"after": moment, "error": _error_check(step["error"])}],
            [step["error"]["clause"]],
            f"{describe_action(_actions(wire)[moment - 1])} is refused",
            _comment(wire, divergence, seed, game, original_steps, adapter),
            seed,
            game,
        )
    ref_state = step["state"] if moment else reference["initial_state"]
    events: list[Any] = step.get("events", [])
    expected = normalise(ref_state, (), order)
    theirs = _adapter_position(divergence.body, moment)
    if theirs is not None:
        pointers = _differing(expected, normalise(theirs, (), order), [], 3)
    else:
        pointers = _key_pointers(expected)
    values = {pointer(*t): _value_at(expected, t) for t in pointers if t}
    expect: list[dict[str, Any]] = []
    if values:
        expect.append({"after": moment, "state": values})
    if events:
        expect.append({"after": moment, "events": events, "match": "sequence"})
    if not expect:  # the whole state differs in type, or nothing to name: check every member
        expect.append({"after": moment, "state": _members(ref_state)})
    clauses = list(dict.fromkeys(str(e["clause"]) for e in events))
    primary = _primary(events, divergence)
    if moment == 0 or primary is None:
        top = "/" + pointers[0][0] if pointers and pointers[0] else "/track"
        primary = _SETUP_CLAUSES.get(top, "setup.racing-camels")
    clauses = [primary, *(c for c in clauses if c != primary)]
    steps = _actions(wire)
    named = list(values)
    shown = ", ".join(named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")
    shown = shown or "its events"
    if moment == 0:
        description = f"the given position matches the reference at {shown}"
    else:
        description = (
            f"after {describe_action(steps[moment - 1])} the game matches the reference at {shown}"
        )
    comment = _comment(wire, divergence, seed, game, original_steps, adapter)
    return _case_json(wire, expect, clauses, description, comment, seed, game)


def _error_check(error: Mapping[str, Any]) -> dict[str, Any]:
    return {"code": error["code"], "clause": error["clause"]}


def _comment(
    wire: Mapping[str, Any],
    divergence: Divergence,
    seed: int,
    game: int,
    original_steps: int,
    adapter: str,
) -> str:
    given = "a given state" if "state" in wire["given"] else "the setup"
    return (
        f"camelup conformance fuzz --seed {seed}: game {game} ({original_steps} steps) shrunk to"
        f" {len(wire['steps'])} step(s) from {given}; {adapter} differed: {divergence.summary()}"
    )


def _case_json(
    wire: Mapping[str, Any],
    expect: list[dict[str, Any]],
    clauses: list[str],
    description: str,
    comment: str,
    seed: int,
    game: int,
) -> dict[str, Any]:
    return {
        "id": f"{clauses[0]}/fuzz-seed-{seed}-game-{game}",
        "description": description,
        "clauses": clauses,
        "source": {"kind": "generated", "ref": f"camelup conformance fuzz, seed {seed}"},
        "ruleset": wire["ruleset"],
        "given": wire["given"],
        "steps": [{"action": a} for a in _actions(wire)],
        "expect": expect,
        "comment": comment,
    }


def _card_order_of_edition(edition: Any) -> tuple[str, ...]:
    from camelup.conformance.compare import RACING_ORDER

    return RACING_ORDER.get(str(edition), ())


def case_file_text(case: Mapping[str, Any]) -> str:
    return dump({"area": AREA, "cases": [case]}) + "\n"


# --------------------------------------------------------------------------------- the fuzzer


def configs_for(names: Sequence[str]) -> list[RulesetConfig]:
    """The ruleset families ``--ruleset`` selects (all of them when ``names`` is empty)."""
    return [c for c in CONFIGS if not names or set(names) & c.names()]


def _probe(judge: Judge, rulesets: Sequence[Ruleset]) -> list[Ruleset]:
    """The rulesets the adapter does not answer ``skipped`` for (a setup with no steps)."""
    from camelup.rules.setup import random_setup

    wires = [
        _wire(to_json(r), {"setup": to_json(random_setup(r, random.Random(0)))}, [])
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


def fuzz(
    client: Client,
    hello: Hello,
    configs: Sequence[RulesetConfig],
    seed: int,
    games: int,
    progress: Callable[[str], None],
) -> FuzzResult:
    """Play ``games`` random games on the adapter; shrink the first disagreement."""
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
    rng = random.Random(seed)
    played = skipped = 0
    for first in range(0, games, BATCH):
        batch = []
        for number in range(first, min(first + BATCH, games)):
            ruleset = rng.choice(families[rng.choice(list(families))])
            game = random_game(ruleset, random.Random(rng.randrange(2**32)))
            wire = _wire(
                to_json(ruleset),
                {"setup": to_json(game.setup)},
                [to_json(a) for a in game.actions],
            )
            batch.append((number + 1, ruleset, wire))
        verdicts = judge.judge([w for _, _, w in batch])
        for (number, ruleset, wire), found in zip(batch, verdicts, strict=True):
            if found == "skipped":
                skipped += 1
                continue
            played += 1
            if isinstance(found, Divergence):
                progress(
                    f"game {number} ({_ruleset_label(ruleset)}, {len(wire['steps'])} steps)"
                    f" differs: {found.summary()}"
                )
                return FuzzResult(played, skipped, _finding(judge, wire, found, seed, number))
        progress(f"{min(first + BATCH, games)}/{games} games, no disagreement")
    return FuzzResult(played, skipped, None)


def _finding(
    judge: Judge, wire: dict[str, Any], found: Divergence, seed: int, game: int
) -> Finding:
    before = judge.checks
    small, small_found = shrink(judge, wire, found)
    chosen, chosen_found = small, small_found
    if len(small["steps"]) > 2:
        single = from_state(judge, small, small_found)
        if single is not None:
            chosen, chosen_found = single
    ruleset_json = wire["ruleset"]
    adapter = judge.hello.name
    case = build_case(chosen, chosen_found, seed, game, len(wire["steps"]), adapter)
    confirmed = _confirm(judge, case)
    from camelup.io.codec import ruleset_from_json

    return Finding(
        game,
        ruleset_from_json(ruleset_json),
        len(wire["steps"]),
        chosen_found,
        case,
        len(small["steps"]),
        judge.checks - before,
        confirmed,
    )


def _confirm(judge: Judge, raw: Mapping[str, Any]) -> bool:
    """Whether the written case fails against the adapter (and so shows the disagreement)."""
    from camelup.conformance.runner import verdict

    case = parse_case(dict(raw), AREA, "<fuzz>")
    [outcome] = judge.outcomes([case.wire()])
    if isinstance(outcome, Broken):
        raise AdapterBroke(outcome.message, outcome.stderr)
    return verdict(case, outcome, judge.hello).verdict != "passed"


def _ruleset_label(ruleset: Ruleset, players: bool = True) -> str:
    label = "+".join((ruleset.edition.value, *sorted(m.value for m in ruleset.modules)))
    if ruleset.variants:
        label += " (" + ", ".join(sorted(v.value for v in ruleset.variants)) + ")"
    return f"{label}, {ruleset.players} players" if players else label


__all__ = [
    "AdapterBroke",
    "Divergence",
    "Finding",
    "FuzzResult",
    "NoCommonRuleset",
    "build_case",
    "case_file_text",
    "configs_for",
    "fuzz",
    "shrink",
]
