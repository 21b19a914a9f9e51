"""validate_state: one hand-broken state per rule, with its code, clause and JSON pointer."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from camelup import (
    Camel,
    Die,
    DieRoll,
    Edition,
    FinishCard,
    InvalidState,
    LegTicket,
    Module,
    Ruleset,
    Setup,
    State,
    Tile,
    TileSide,
    Variant,
    apply,
    legal_actions,
    new_game,
    random_setup,
)
from camelup.io.codec import state_from_json, to_json
from camelup.model.track import slot
from camelup.play.validation import validate_state
from camelup.spec.registry import load_registry

B, G, R, Y, P = Camel.BLUE, Camel.GREEN, Camel.RED, Camel.YELLOW, Camel.PURPLE
OR, W, CW, CK = Camel.ORANGE, Camel.WHITE, Camel.CRAZY_WHITE, Camel.CRAZY_BLACK
CHEER, BOO, OASIS = TileSide.CHEERING, TileSide.BOOING, TileSide.OASIS


def _setup(racing: tuple[Camel, ...], crazy: bool) -> Setup:
    rolls = tuple(DieRoll(Die(c.value), v) for c, v in zip(racing, (1, 1, 2, 2, 3), strict=True))
    if not crazy:
        return Setup(rolls, racing, 0)
    grey = (DieRoll(Die.GREY, 1, CW), DieRoll(Die.GREY, 2, CK))
    return Setup(rolls, racing, 0, grey, CW)


def second(players: int = 6) -> State:
    """Track 1: B G, 2: R Y, 3: P, 15: crazy black, 16: crazy white; partnerships with 6+."""
    return new_game(Ruleset(Edition.SECOND, players), _setup((B, G, R, Y, P), crazy=True))


def first_whirlwind() -> State:
    """Track 1: B G, 2: O Y, 3: W; the whirlwind module."""
    ruleset = Ruleset(Edition.FIRST, 4, frozenset({Module.WHIRLWIND}))
    return new_game(ruleset, _setup((B, G, OR, Y, W), crazy=False))


def finished(seed: int = 4) -> State:
    ruleset = Ruleset(Edition.FIRST, 3)
    rng = random.Random(seed)
    state = new_game(ruleset, random_setup(ruleset, rng))
    while state.result is None:
        state = apply(state, rng.choice(legal_actions(state))).state
    return state


def move(state: State, camel: Camel, space: int) -> State:
    """``camel`` alone taken off the track (if there) and put on top of ``space``."""
    track = [tuple(c for c in stack if c is not camel) for stack in state.track]
    track[slot(space)] += (camel,)
    return attrs.evolve(state, track=tuple(track))


def remove(state: State, camel: Camel) -> State:
    return attrs.evolve(
        state, track=tuple(tuple(c for c in s if c is not camel) for s in state.track)
    )


def seat(state: State, index: int, **changes: Any) -> State:
    players = list(state.players)
    players[index] = attrs.evolve(players[index], **changes)
    return attrs.evolve(state, players=tuple(players))


def _json(state: State, **members: Any) -> dict[str, Any]:
    """The JSON of ``state`` with some top-level members replaced: a document whose copy of a
    member the state derives (pyramid, ticket stacks, hands, partners, result) can disagree."""
    document: dict[str, Any] = to_json(state)
    document.update(members)
    return document


def _dice_names(state: State) -> list[str]:
    return [die.value for die in state.pyramid]


def stacks(state: State, camel: Camel, stack: tuple[int, ...]) -> dict[str, Any]:
    document = _json(state)
    document["ticket_stacks"][camel.value] = list(stack)
    return document


def _hand(state: State, index: int, *cards: Camel) -> dict[str, Any]:
    document = _json(state)
    document["players"][index]["finish_cards"] = [camel.value for camel in cards]
    return document


def _resolve(document: Any, pointer: str) -> None:
    """The pointer's parent exists in ``document`` (a missing key is named where it belongs)."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    for part in parts[:-1]:
        document = document[int(part)] if isinstance(document, list) else document[part]
    if parts and isinstance(document, list):
        assert int(parts[-1]) < len(document)


RACING_2 = "camels.racing.second"
CASES: list[tuple[str, Callable[[], State | dict[str, Any]], str, str, str]] = [
    # shape
    (
        "player-count",
        lambda: attrs.evolve(second(), players=second().players[:5]),
        "ruleset.players.second",
        "/players",
        "player-count",
    ),
    (
        "track-size",
        lambda: attrs.evolve(second(), track=second().track[:-1]),
        "track.spaces",
        "/track",
        "track-size",
    ),
    # track
    (
        "camel-of-the-other-edition",
        lambda: move(second(), OR, 10),
        RACING_2,
        "/track/10/0",
        "unknown-camel",
    ),
    (
        "crazy-camel-in-the-first-edition",
        lambda: move(first_whirlwind(), CW, 10),
        "camels.crazy",
        "/track/10/0",
        "unknown-camel",
    ),
    (
        "camel-twice",
        lambda: attrs.evolve(second(), track=_add(second(), B, 10)),
        RACING_2,
        "/track/10/0",
        "camel-twice",
    ),
    ("racing-camel-missing", lambda: remove(second(), P), RACING_2, "/track", "camel-missing"),
    (
        "crazy-camel-missing",
        lambda: remove(second(), CK),
        "camels.crazy",
        "/track",
        "camel-missing",
    ),
    (
        "racing-past-finish-in-play",
        lambda: _json(move(second(), Y, 17), result=None),
        "end.crossing.racing",
        "/result",
        "inconsistent",
    ),
    (
        "crazy-past-finish-in-play",
        lambda: _json(move(second(), CK, 0), result=None),
        "end.crossing.crazy",
        "/result",
        "inconsistent",
    ),
    (
        "two-units-crossed",
        lambda: _second_crossing(finished()),
        "rank.crossed-finish",
        "/track/19",
        "two-units-crossed",
    ),
    (
        "crazy-camel-alone-past-the-line-clockwise",
        lambda: move(second(), CK, 17),
        "end.crossing.racing",
        "/track/17/0",
        "impossible-crossing",
    ),
    (
        "racing-camel-alone-past-the-line-backwards",
        lambda: move(second(), Y, 0),
        "end.crossing.crazy",
        "/track/0/0",
        "impossible-crossing",
    ),
    (
        "lone-crazy-camel-over-the-line-when-it-would-wrap",
        lambda: attrs.evolve(
            move(second(), CK, 0),
            ruleset=Ruleset(
                Edition.SECOND, 6, variants=frozenset({Variant.CRAZY_FINISH_NEEDS_RACING})
            ),
        ),
        "crazy.wrap",
        "/track/0/0",
        "impossible-crossing",
    ),
    (
        "result-without-crossing",
        lambda: _json(second(), result={"winners": [0]}),
        "end.crossing.racing",
        "/result",
        "no-crossing",
    ),
    # tiles
    (
        "tile-owner-not-a-seat",
        lambda: _tiles(second(), Tile(5, 6, CHEER)),
        "setup.player-kit",
        "/tiles/0/owner",
        "bad-seat",
    ),
    (
        "two-tiles-of-one-player",
        lambda: _tiles(second(), Tile(5, 0, CHEER), Tile(9, 0, BOO)),
        "tiles.spectator",
        "/tiles/1/owner",
        "tile-twice",
    ),
    (
        "spectator-tile-side",
        lambda: _tiles(second(), Tile(5, 0, OASIS)),
        "tiles.spectator",
        "/tiles/0/side",
        "tile-side",
    ),
    (
        "desert-tile-side",
        lambda: _tiles(first_whirlwind(), Tile(5, 0, BOO)),
        "tiles.desert",
        "/tiles/0/side",
        "tile-side",
    ),
    (
        "tile-off-track",
        lambda: _tiles(second(), Tile(17, 0, CHEER)),
        "tile.place.empty-space",
        "/tiles/0/space",
        "tile-off-track",
    ),
    (
        "tile-on-space-one",
        lambda: _tiles(move(move(second(), B, 10), G, 10), Tile(1, 0, CHEER)),
        "tile.place.not-space-one",
        "/tiles/0/space",
        "tile-space-one",
    ),
    (
        "tile-on-whirlwind",
        lambda: _tiles(first_whirlwind(), Tile(7, 0, OASIS)),
        "whirlwind.no-tiles",
        "/tiles/0/space",
        "tile-whirlwind",
    ),
    (
        "tile-under-a-camel",
        lambda: _tiles(second(), Tile(3, 0, CHEER)),
        "tile.place.empty-space",
        "/tiles/0/space",
        "tile-on-camel",
    ),
    (
        "tile-under-a-crazy-camel",
        lambda: _tiles(second(), Tile(15, 0, CHEER)),
        "tile.place.empty-space",
        "/tiles/0/space",
        "tile-on-camel",
    ),
    (
        "two-tiles-on-a-space",
        lambda: _tiles(second(), Tile(5, 0, CHEER), Tile(5, 1, BOO)),
        "tile.place.empty-space",
        "/tiles/1/space",
        "tile-on-tile",
    ),
    (
        "adjacent-tiles",
        lambda: _tiles(second(), Tile(5, 0, CHEER), Tile(6, 1, BOO)),
        "tile.place.not-adjacent",
        "/tiles/1/space",
        "tile-adjacent",
    ),
    # dice
    (
        "die-of-the-other-edition-in-the-pyramid",
        lambda: _json(second(), pyramid=["blue", "green", "orange", "yellow", "purple", "grey"]),
        "move.die.stays-out",
        "/pyramid",
        "inconsistent",
    ),
    (
        "grey-die-in-the-first-edition",
        lambda: _json(first_whirlwind(), pyramid=[*_dice_names(first_whirlwind()), "grey"]),
        "move.die.stays-out",
        "/pyramid",
        "inconsistent",
    ),
    (
        "die-twice-in-the-pyramid",
        lambda: _json(second(), pyramid=["blue", *_dice_names(second())]),
        "move.die.stays-out",
        "/pyramid",
        "inconsistent",
    ),
    (
        "pyramid-order",
        lambda: _json(second(), pyramid=_dice_names(second())[::-1]),
        "move.die.stays-out",
        "/pyramid",
        "inconsistent",
    ),
    (
        "revealed-die-of-the-other-edition",
        lambda: attrs.evolve(second(), revealed=(DieRoll(Die.ORANGE, 1),)),
        RACING_2,
        "/revealed/0/die",
        "unknown-die",
    ),
    (
        "die-in-pyramid-and-revealed",
        lambda: _json(_out(second(), DieRoll(Die.BLUE, 1)), pyramid=_dice_names(second())),
        "move.die.stays-out",
        "/pyramid",
        "inconsistent",
    ),
    (
        "die-revealed-twice",
        lambda: _out(second(), DieRoll(Die.BLUE, 1), DieRoll(Die.BLUE, 2)),
        "move.die.stays-out",
        "/revealed/1/die",
        "die-twice",
    ),
    (
        "racing-die-face",
        lambda: _out(second(), DieRoll(Die.BLUE, 4)),
        "dice.racing-faces",
        "/revealed/0/value",
        "die-face",
    ),
    (
        "grey-die-face",
        lambda: _out(second(), DieRoll(Die.GREY, 0, CK)),
        "dice.grey-faces",
        "/revealed/0/value",
        "die-face",
    ),
    (
        "grey-die-without-colour",
        lambda: _out(second(), DieRoll(Die.GREY, 2)),
        "dice.grey-faces",
        "/revealed/0/colour",
        "die-face",
    ),
    (
        "grey-die-with-a-racing-colour",
        lambda: _out(second(), DieRoll(Die.GREY, 2, B)),
        "dice.grey-faces",
        "/revealed/0/colour",
        "die-face",
    ),
    (
        "racing-die-with-a-colour",
        lambda: _out(second(), DieRoll(Die.RED, 2, CW)),
        "dice.racing-faces",
        "/revealed/0/colour",
        "die-face",
    ),
    (
        "die-missing",
        lambda: _json(second(), pyramid=_dice_names(second())[:-1]),
        "move.die.stays-out",
        "/pyramid",
        "inconsistent",
    ),
    (
        "second-edition-leg-not-cleaned-up",
        lambda: _out(second(), *(DieRoll(Die(c.value), 1) for c in (B, G, R, Y, P))),
        "leg.end.second",
        "/revealed",
        "leg-not-cleaned-up",
    ),
    (
        "first-edition-leg-not-cleaned-up",
        lambda: _out(first_whirlwind(), *(DieRoll(Die(c.value), 1) for c in (B, G, OR, Y, W))),
        "leg.end.first",
        "/revealed",
        "leg-not-cleaned-up",
    ),
    # leg tickets
    (
        "ticket-the-edition-lacks",
        lambda: stacks(second(), B, (2, 2, 3, 5, 5)),
        "bet.leg.take-top",
        "/ticket_stacks/blue",
        "inconsistent",
    ),
    (
        "more-tickets-held-than-the-edition-has",
        lambda: seat(second(), 0, leg_tickets=tuple(LegTicket(B, v) for v in (5, 3, 2, 2, 2))),
        "tickets.leg.second",
        "/players/0/leg_tickets/4",
        "leg-ticket-count",
    ),
    (
        "first-edition-has-one-2",
        lambda: stacks(finished(), G, (2, 2)),
        "bet.leg.take-top",
        "/ticket_stacks/green",
        "inconsistent",
    ),
    (
        "stack-not-taken-from-the-top",
        lambda: stacks(second(), R, (2, 3)),
        "bet.leg.take-top",
        "/ticket_stacks/red",
        "inconsistent",
    ),
    (
        "ticket-held-not-from-the-top",
        lambda: seat(second(), 0, leg_tickets=(LegTicket(R, 2),)),
        "bet.leg.take-top",
        "/players/0/leg_tickets/0/value",
        "ticket-not-from-top",
    ),
    (
        "crazy-leg-ticket",
        lambda: seat(second(), 1, leg_tickets=(LegTicket(CW, 5),)),
        "bets.no-crazy",
        "/players/1/leg_tickets/0/camel",
        "not-a-racing-camel",
    ),
    (
        "leg-ticket-of-the-other-edition",
        lambda: seat(first_whirlwind(), 1, leg_tickets=(LegTicket(R, 5),)),
        "camels.racing.first",
        "/players/1/leg_tickets/0/camel",
        "not-a-racing-camel",
    ),
    (
        "ticket-held-and-in-the-stack",
        lambda: stacks(seat(second(), 0, leg_tickets=(LegTicket(B, 5),)), B, (2, 2, 3, 5)),
        "bet.leg.take-top",
        "/ticket_stacks/blue",
        "inconsistent",
    ),
    (
        "ticket-missing",
        lambda: stacks(second(), Y, (2, 2, 3)),
        "bet.leg.take-top",
        "/ticket_stacks/yellow",
        "inconsistent",
    ),
    # money and pyramid tickets
    (
        "negative-money",
        lambda: seat(second(), 2, money=-1),
        "money.floor",
        "/players/2/money",
        "negative-money",
    ),
    (
        "negative-pyramid-tickets",
        lambda: seat(second(), 0, pyramid_tickets=-1),
        "tickets.pyramid",
        "/players/0/pyramid_tickets",
        "pyramid-ticket-count",
    ),
    (
        "six-pyramid-tickets",
        lambda: seat(second(), 0, pyramid_tickets=6),
        "move.pyramid.take-ticket",
        "/revealed",
        "pyramid-ticket-count",
    ),
    (
        "pyramid-tickets-and-dice-disagree",
        lambda: seat(_out(second(), DieRoll(Die.RED, 2)), 0, pyramid_tickets=2),
        "move.pyramid.take-ticket",
        "/revealed",
        "pyramid-ticket-count",
    ),
    # finish cards
    (
        "crazy-finish-card",
        lambda: _hand(second(), 0, B, G, R, Y, P, CK),
        "bets.no-crazy",
        "/players/0/finish_cards/5",
        "not-a-racing-camel",
    ),
    (
        "finish-card-of-the-other-edition",
        lambda: _hand(first_whirlwind(), 3, B, G, OR, Y, W, P),
        "cards.finish",
        "/players/3/finish_cards/5",
        "not-a-racing-camel",
    ),
    (
        "pile-card-of-no-seat",
        lambda: attrs.evolve(second(), winner_pile=(FinishCard(6, B),)),
        "bet.finish.place",
        "/winner_pile/0/owner",
        "bad-seat",
    ),
    (
        "crazy-card-on-a-pile",
        lambda: attrs.evolve(second(), loser_pile=(FinishCard(0, CW),)),
        "bets.no-crazy",
        "/loser_pile/0/camel",
        "not-a-racing-camel",
    ),
    (
        "finish-card-in-hand-and-placed",
        lambda: _hand(attrs.evolve(second(), loser_pile=(FinishCard(0, B),)), 0, B, G, R, Y, P),
        "cards.finish",
        "/players/0/finish_cards",
        "inconsistent",
    ),
    (
        "finish-card-on-both-piles",
        lambda: _piles(second(), 1, B, (FinishCard(1, B),), (FinishCard(1, B),)),
        "bet.finish.one-per-colour",
        "/loser_pile/0",
        "finish-card-twice",
    ),
    (
        "finish-card-missing",
        lambda: _hand(second(), 4, B, G, R, Y),
        "cards.finish",
        "/players/4/finish_cards",
        "inconsistent",
    ),
    # partners
    (
        "partner-without-partnerships",
        lambda: _partners(second(4), (0, 1), (1, 0)),
        "partner.six-plus",
        "/players/0/partner",
        "no-partnerships",
    ),
    (
        "partner-of-oneself",
        lambda: _partners(second(), (2, 2)),
        "partner.action",
        "/players/2/partner",
        "bad-partner",
    ),
    (
        "partner-not-a-seat",
        lambda: _partners(second(), (2, 6)),
        "partner.action",
        "/players/2/partner",
        "bad-partner",
    ),
    (
        "one-sided-partnership",
        lambda: _partners(second(), (0, 1)),
        "partner.swap",
        "/players/0/partner",
        "partner-asymmetric",
    ),
    (
        "partnership-with-a-third",
        lambda: _partners(second(), (0, 1), (1, 2), (2, 1)),
        "partner.swap",
        "/players/0/partner",
        "partner-asymmetric",
    ),
    # seats, leg, result
    (
        "to-move-not-a-seat",
        lambda: attrs.evolve(second(), to_move=6),
        "turn.order",
        "/to_move",
        "bad-seat",
    ),
    (
        "start-player-not-a-seat",
        lambda: attrs.evolve(second(), start_player=-1),
        "setup.start-player",
        "/start_player",
        "bad-seat",
    ),
    ("leg-zero", lambda: attrs.evolve(second(), leg=0), "leg.number", "/leg", "bad-leg"),
    (
        "winner-not-a-seat",
        lambda: _json(finished(), result={"winners": [3]}),
        "final.winners",
        "/result/winners/0",
        "bad-seat",
    ),
    (
        "wrong-winners",
        lambda: _wrong_winners(finished()),
        "final.winners",
        "/result/winners",
        "wrong-winners",
    ),
]


def _add(state: State, camel: Camel, space: int) -> tuple[tuple[Camel, ...], ...]:
    track = list(state.track)
    track[slot(space)] += (camel,)
    return tuple(track)


def _second_crossing(state: State) -> State:
    crossed = next(space for space, _ in state.occupied() if space > 16)
    assert crossed != 19, "pick another seed"
    on_board = next(stack[0] for space, stack in state.occupied() if 1 <= space <= 16)
    return move(state, on_board, 19)


def _tiles(state: State, *tiles: Tile) -> State:
    return attrs.evolve(state, tiles=tiles)


def _out(state: State, *rolls: DieRoll) -> State:
    """``rolls`` revealed, one pyramid ticket each for player 0."""
    return seat(attrs.evolve(state, revealed=rolls), 0, pyramid_tickets=len(rolls))


def _piles(
    state: State,
    owner: int,
    camel: Camel,
    winner: tuple[FinishCard, ...],
    loser: tuple[FinishCard, ...],
) -> State:
    del owner, camel  # the hand follows from the piles
    return attrs.evolve(state, winner_pile=winner, loser_pile=loser)


def _partners(state: State, *pairs: tuple[int, int]) -> dict[str, Any]:
    """The JSON of ``state`` with ``player``'s partner set to ``partner`` for each pair."""
    document = _json(state)
    for player, partner in pairs:
        document["players"][player]["partner"] = partner
    return document


def _wrong_winners(state: State) -> dict[str, Any]:
    assert state.result is not None
    others = [s for s in range(len(state.players)) if s not in state.result.winners]
    return _json(state, result={"winners": others[:1]})


NOT_JSON = {"track-size"}  # no JSON form: the loader refuses it as malformed


@pytest.mark.parametrize(
    ("name", "build", "clause", "pointer", "code"), CASES, ids=[case[0] for case in CASES]
)
def test_each_rule(
    name: str, build: Callable[[], State | dict[str, Any]], clause: str, pointer: str, code: str
) -> None:
    """A state the model can hold is refused by validate_state; a document whose copy of a
    derived member disagrees only by the loader. Both name the same code, clause and pointer."""
    built = build()
    assert clause in load_registry().clause_ids
    if isinstance(built, State):
        with pytest.raises(InvalidState) as caught:
            validate_state(built)
        problem = caught.value
        got = (problem.code, problem.clause, problem.pointer)
        assert got == (code, clause, pointer), str(problem)
        if code in NOT_JSON:
            return
    document = to_json(built) if isinstance(built, State) else built
    _resolve(document, pointer)
    with pytest.raises(InvalidState) as loaded:
        state_from_json(document, "/cases/0/state")
    got = (loaded.value.code, loaded.value.clause, loaded.value.pointer)
    assert got == (code, clause, "/cases/0/state" + pointer), str(loaded.value)


def test_the_bases_are_valid() -> None:
    for state in (second(), second(4), first_whirlwind(), finished()):
        validate_state(state)
        assert state_from_json(to_json(state)) == state


def test_valid_variations_pass() -> None:
    state = seat(second(), 0, leg_tickets=(LegTicket(B, 5),))
    state = seat(state, 2, leg_tickets=(LegTicket(B, 3),))
    state = _piles(state, 1, G, (), (FinishCard(1, G),))
    state = attrs.evolve(state, partnerships=((0, 5),))
    state = attrs.evolve(state, tiles=(Tile(5, 0, CHEER), Tile(7, 1, BOO), Tile(13, 3, BOO)))
    state = _out(state, DieRoll(Die.GREY, 3, CK), DieRoll(Die.PURPLE, 1))
    validate_state(state)
    assert state.ticket_stack(B) == (2, 2)
    assert state.hand(1) == frozenset({B, R, Y, P})
    assert (state.partner_of(0), state.partner_of(5), state.partner_of(1)) == (5, 0, None)
    assert state_from_json(to_json(state)) == state


def test_engine_states_are_valid() -> None:
    rulesets = [
        Ruleset(Edition.SECOND, 7),
        Ruleset(Edition.FIRST, 5, frozenset({Module.WHIRLWIND})),
        Ruleset(
            Edition.SECOND,
            6,
            frozenset({Module.WHIRLWIND}),
            frozenset({Variant.WHIRLWIND_SECOND_EDITION, Variant.CRAZY_FINISH_NEEDS_RACING}),
        ),
    ]
    for ruleset in rulesets:
        for seed in range(3):
            rng = random.Random(seed)
            state = new_game(ruleset, random_setup(ruleset, rng))
            validate_state(state)
            while state.result is None:
                state = apply(state, rng.choice(legal_actions(state))).state
                validate_state(state)


def test_the_engine_never_calls_validate_state() -> None:
    import camelup.play.engine
    import camelup.rules.setup

    for module in (camelup.play.engine, camelup.rules.setup):
        assert "validate_state" not in vars(module)
