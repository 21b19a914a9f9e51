"""The canonical JSON codec: round trips, schema validity of every output, malformed input."""

from __future__ import annotations

import contextlib
import copy
import functools
import itertools
import json
import random
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from camelup import (
    Camel,
    Die,
    DieRoll,
    Edition,
    FormPartnership,
    IllegalAction,
    InvalidRuleset,
    InvalidState,
    Module,
    MoveTile,
    Pile,
    PlaceFinishCard,
    Ruleset,
    State,
    TakeLegTicket,
    TakePyramidTicket,
    TileSide,
    Variant,
    apply,
    chance_outcomes,
    legal_actions,
    new_game,
    random_setup,
)
from camelup.io.codec import (
    TAGS,
    action_from_json,
    dumps,
    event_from_json,
    loads_state,
    roll_from_json,
    ruleset_from_json,
    setup_from_json,
    state_from_json,
    to_json,
)
from camelup.io.schemas import GAME_KINDS as SCHEMA_KINDS
from camelup.io.schemas import bundled
from camelup.model.actions import ACTION_TYPES
from camelup.model.ruleset import PLAYER_COUNTS
from camelup.spec.registry import load_registry


def _all_rulesets() -> list[Ruleset]:
    rulesets = []
    variants = list(Variant)
    for edition in Edition:
        for players in PLAYER_COUNTS[edition]:
            for modules in (frozenset(), frozenset({Module.WHIRLWIND})):
                for n in range(len(variants) + 1):
                    for chosen in itertools.combinations(variants, n):
                        with contextlib.suppress(InvalidRuleset):
                            rulesets.append(Ruleset(edition, players, modules, frozenset(chosen)))
    return rulesets


RULESETS = _all_rulesets()
CODECS = {
    "ruleset": ruleset_from_json,
    "setup": setup_from_json,
    "roll": roll_from_json,
    "state": state_from_json,
    "action": action_from_json,
    "event": event_from_json,
}


def schema_validator(kind: str) -> Any:
    """The plain ``jsonschema`` validator of a published schema (not the gate's fast path)."""
    return bundled().validator(kind)


def load_schema(kind: str) -> dict[str, Any]:
    return bundled().documents[kind]


def schema_errors(kind: str, value: Any) -> list[Any]:
    return list(schema_validator(kind).iter_errors(value))


@functools.cache
def compiled_validator(kind: str) -> Any:
    """The ``jsonschema_rs`` validator of a published schema: the same 2020-12 semantics as
    ``jsonschema`` (tests/test_schemas.py checks that the two agree), a hundred times faster,
    for the many values of whole games; ``jsonschema`` explains what it refuses."""
    import jsonschema_rs

    schemas = bundled()
    registry = jsonschema_rs.Registry([(d["$id"], d) for d in schemas.documents.values()])
    return jsonschema_rs.Draft202012Validator(schemas.documents[kind], registry=registry)


def assert_valid(kind: str, value: Any) -> None:
    if compiled_validator(kind).is_valid(value):
        return
    errors = schema_errors(kind, value)
    assert errors, f"{kind}: jsonschema_rs refuses what jsonschema accepts"
    raise AssertionError(f"{kind}: {errors[0].message} at {list(errors[0].absolute_path)}")


def through_text(value: Any) -> Any:
    """The JSON value as a reader of the canonical text sees it."""
    return json.loads(dumps(value))


def play(ruleset: Ruleset, seed: int, max_steps: int = 400) -> list[tuple[State, Any, Any]]:
    """A random game: (state, action, result) for every step."""
    rng = random.Random(seed)
    state = new_game(ruleset, random_setup(ruleset, rng))
    steps = []
    for _ in range(max_steps):
        if state.result is not None:
            break
        action = rng.choice(legal_actions(state))
        result = apply(state, action)
        steps.append((state, action, result))
        state = result.state
    return steps


# ------------------------------------------------------------------------------ round trips


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32 - 1))
def test_random_games_round_trip_and_match_the_schemas(ruleset: Ruleset, seed: int) -> None:
    assert ruleset_from_json(through_text(ruleset)) == ruleset
    assert_valid("ruleset", to_json(ruleset))
    setup = random_setup(ruleset, random.Random(seed))
    assert setup_from_json(through_text(setup)) == setup
    assert_valid("setup", to_json(setup))
    steps = play(ruleset, seed, max_steps=150)
    for index, (state, action, result) in enumerate(steps):
        for value, kind in ((action, "action"), *((event, "event") for event in result.events)):
            assert CODECS[kind](through_text(value)) == value
        assert state_from_json(through_text(result.state)) == result.state
        if index % 10 == 0 or result.state.result is not None:
            assert_valid("state", to_json(state))
            assert_valid("state", to_json(result.state))
            assert_valid("action", to_json(action))
            for event in result.events:
                assert_valid("event", to_json(event))
        if index % 10 == 0:
            for roll, _ in chance_outcomes(state)[:7]:
                assert roll_from_json(through_text(roll)) == roll
                assert_valid("roll", to_json(roll))


def test_every_event_and_action_type_round_trips_and_matches_the_schema() -> None:
    """Long games over varied rulesets reach every event type; each one round-trips."""
    seen: dict[str, Any] = {}
    wanted = {
        Ruleset(Edition.SECOND, 6),
        Ruleset(Edition.FIRST, 4, frozenset({Module.WHIRLWIND})),
        Ruleset(
            Edition.SECOND,
            8,
            frozenset({Module.WHIRLWIND}),
            frozenset({Variant.WHIRLWIND_SECOND_EDITION}),
        ),
        Ruleset(Edition.FIRST, 3, variants=frozenset({Variant.FINAL_SCORING_NET})),
    }
    for ruleset in wanted:
        for seed in range(6):
            for _, action, result in play(ruleset, seed):
                seen.setdefault(TAGS[type(action)], action)
                for event in result.events:
                    seen.setdefault(TAGS[type(event)], event)
    assert set(seen) == set(TAGS.values())
    for tag, value in seen.items():
        kind = "action" if tag in {TAGS[c] for c in ACTION_TYPES} else "event"
        assert CODECS[kind](through_text(value)) == value
        assert_valid(kind, to_json(value))
        assert to_json(value)["type"] == tag


# ----------------------------------------------------------------------------- the format


def test_die_rolls_follow_the_format() -> None:
    assert to_json(DieRoll(Die.BLUE, 2)) == {"die": "blue", "value": 2}
    grey = DieRoll(Die.GREY, 1, Camel.CRAZY_WHITE)
    assert to_json(grey) == {"die": "grey", "value": 1, "colour": "crazy-white"}
    assert roll_from_json({"die": "grey", "value": 1, "colour": "crazy-white"}) == grey


def test_rulesets_list_modules_and_variants_sorted() -> None:
    ruleset = Ruleset(
        Edition.FIRST,
        5,
        frozenset({Module.WHIRLWIND}),
        frozenset({Variant.START_MARKER_ROTATES, Variant.FINAL_SCORING_NET}),
    )
    assert to_json(ruleset) == {
        "edition": "first",
        "players": 5,
        "modules": ["whirlwind"],
        "variants": ["final-scoring-net", "start-marker-rotates"],
    }
    assert to_json(Ruleset(Edition.SECOND, 3))["modules"] == []


def test_actions_and_events_follow_the_format() -> None:
    roll = DieRoll(Die.GREY, 3, Camel.CRAZY_BLACK)
    assert to_json(TakePyramidTicket(2, roll)) == {
        "type": "take_pyramid_ticket",
        "player": 2,
        "roll": {"die": "grey", "value": 3, "colour": "crazy-black"},
    }
    assert to_json(PlaceFinishCard(1, Camel.RED, Pile.LOSER)) == {
        "type": "place_finish_card",
        "player": 1,
        "camel": "red",
        "pile": "loser",
    }
    assert to_json(MoveTile(0, 9, TileSide.CHEERING))["side"] == "cheering"
    assert to_json(FormPartnership(0, 3)) == {"type": "form_partnership", "player": 0, "partner": 3}
    expected_tags = {
        "leg_ticket_taken", "tile_placed", "pyramid_ticket_taken", "die_revealed",
        "crazy_camel_chosen", "unit_moved", "whirlwind_step", "tile_paid", "finish_card_placed",
        "partnership_formed", "leg_scored", "start_player_passed", "leg_started", "race_ended",
        "finish_card_scored", "game_ended",
    }  # fmt: skip
    assert expected_tags <= set(TAGS.values())


def test_leg_scores_write_ticket_rewards_as_objects() -> None:
    ruleset = Ruleset(Edition.FIRST, 3)
    for _, _, result in play(ruleset, 11):
        for event in result.events:
            data = to_json(event)
            if data["type"] == "leg_scored":
                for score in data["scores"]:
                    for entry in score["tickets"]:
                        assert set(entry) == {"ticket", "reward"}
                        assert set(entry["ticket"]) == {"camel", "value"}
                return
    pytest.fail("no leg was scored")


def _fresh(edition: Edition = Edition.SECOND, players: int = 4) -> State:
    ruleset = Ruleset(edition, players)
    return new_game(ruleset, random_setup(ruleset, random.Random(7)))


def test_state_format() -> None:
    state = _fresh()
    data = to_json(state)
    assert list(data) == [
        "ruleset", "track", "tiles", "pyramid", "revealed", "ticket_stacks", "players",
        "winner_pile", "loser_pile", "to_move", "start_player", "leg", "result",
    ]  # fmt: skip
    assert set(data["track"]) == {str(space) for space in range(1, 17)}
    assert data["pyramid"] == ["blue", "green", "red", "yellow", "purple", "grey"]
    assert data["ticket_stacks"] == {
        c: [2, 2, 3, 5] for c in ("blue", "green", "red", "yellow", "purple")
    }
    assert data["players"][0] == {
        "money": 3,
        "leg_tickets": [],
        "pyramid_tickets": 0,
        "finish_cards": ["blue", "green", "red", "yellow", "purple"],
        "partner": None,
    }
    assert data["result"] is None
    # spaces beyond the finish line appear only when occupied
    finished = next(r.state for _, _, r in play(Ruleset(Edition.FIRST, 3), 5) if r.state.result)
    beyond = set(to_json(finished)["track"]) - {str(space) for space in range(1, 17)}
    assert len(beyond) == 1
    assert finished.result is not None
    assert to_json(finished)["result"] == {"winners": list(finished.result.winners)}


def test_dumps_is_canonical() -> None:
    state = _fresh()
    text = dumps(state)
    assert text == json.dumps(
        json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert " " not in text
    assert loads_state(text) == state


def test_errors_and_fractions() -> None:
    error = IllegalAction("tile-adjacent", "tile.place.not-adjacent", "next to a tile")
    assert to_json(error) == {"code": "tile-adjacent", "clause": "tile.place.not-adjacent"}
    assert to_json(Fraction(1, 15)) == "1/15"


def test_to_json_refuses_unknown_values() -> None:
    with pytest.raises(TypeError):
        to_json(object())


# -------------------------------------------------------------------------------- schemas


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_schemas_are_valid_draft_2020_12(kind: str) -> None:
    schema = load_schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://camelup.invalid/schema/{kind}.schema.json"
    type(schema_validator(kind)).check_schema(schema)


def test_importing_camelup_does_not_import_jsonschema() -> None:
    code = (
        "import sys, camelup, camelup.io.codec, camelup.play.validation;"
        "assert 'jsonschema' not in sys.modules, 'jsonschema imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------------------------------------------ malformed


def _state_json(edition: Edition = Edition.SECOND) -> dict[str, Any]:
    data: dict[str, Any] = to_json(_fresh(edition))
    return data


def _set(path: str, value: Any) -> Any:
    def change(doc: Any) -> None:
        *parents, last = path.strip("/").split("/")
        for key in parents:
            doc = doc[int(key)] if isinstance(doc, list) else doc[key]
        if value is _DELETE:
            del doc[last]
        elif isinstance(doc, list):
            doc[int(last)] = value
        else:
            doc[last] = value

    return change


_DELETE = object()


def case(
    kind: str, path: str, value: Any, clause: str, at: str | None = None, schema: bool = True
) -> Any:
    """Set (or delete) ``path`` in an example of ``kind``; expect the problem at ``at``."""
    return pytest.param(kind, _set(path, value), at or path, clause, schema, id=f"{kind}{path}")


SECOND = "camels.racing.second"
TILES = [{"space": 9, "owner": 0, "side": "booing"}, {"space": 5, "owner": 1, "side": "booing"}]
MALFORMED = [
    case("state", "/leg", _DELETE, "leg.number"),
    case("state", "/extra", 1, "track.spaces"),
    case("state", "/players/2/money", "3", "money.currency"),
    case("state", "/players/1/money", True, "money.currency"),
    case("state", "/players/3/partner", "none", "partner.action"),
    case(
        "state",
        "/players/0/finish_cards",
        ["blue", "blue"],
        "cards.finish",
        at="/players/0/finish_cards/1",
    ),
    case(
        "state",
        "/players/0/leg_tickets",
        [{"camel": "blue"}],
        "bet.leg.take-top",
        at="/players/0/leg_tickets/0/value",
    ),
    case("state", "/players/1/pyramid_tickets", _DELETE, "tickets.pyramid"),
    case("state", "/players", {}, "setup.player-kit"),
    case("state", "/track/5", ["pink"], "track.spaces", at="/track/5/0"),
    case("state", "/track/7", _DELETE, "track.spaces"),
    case("state", "/track/20", [], "track.spaces"),
    case("state", "/track/05", [], "track.spaces"),
    case(
        "state",
        "/tiles",
        [{"space": 5, "owner": 0, "side": "up"}],
        "tile.place.side",
        at="/tiles/0/side",
    ),
    case("state", "/tiles", TILES, "tile.place.side", at="/tiles/1", schema=False),
    case("state", "/pyramid/0", 3, "setup.dice-in-pyramid"),
    case(
        "state",
        "/revealed",
        [{"die": "blue", "value": 2, "colour": None}],
        "dice.grey-faces",
        at="/revealed/0/colour",
    ),
    case(
        "state",
        "/revealed",
        [{"die": "grey", "value": 2, "face": "x"}],
        "move.die.stays-out",
        at="/revealed/0/face",
    ),
    case("state", "/ticket_stacks/blue", _DELETE, "setup.leg-ticket-stacks"),
    case("state", "/ticket_stacks/crazy-white", [], "bets.no-crazy"),
    case("state", "/ticket_stacks/orange", [], SECOND),
    case(
        "state",
        "/ticket_stacks/red",
        [2, "3"],
        "setup.leg-ticket-stacks",
        at="/ticket_stacks/red/1",
    ),
    case("state", "/winner_pile", [{"owner": 0}], "bet.finish.place", at="/winner_pile/0/camel"),
    case("state", "/result", {"winners": "0"}, "final.winners", at="/result/winners"),
    case("state", "/result", {}, "final.winners", at="/result/winners"),
    case("state", "/to_move", None, "turn.order"),
    case("state", "/ruleset/edition", "third", "ruleset.editions"),
    case(
        "state",
        "/ruleset/variants",
        ["final-scoring-net"] * 2,
        "ruleset.variants",
        at="/ruleset/variants/1",
    ),
    case("state", "/ruleset/modules", "whirlwind", "ruleset.whirlwind.first-edition"),
    case("action", "/camel", _DELETE, "bet.leg.take-top"),
    case("action", "/type", _DELETE, "turn.one-action"),
    case("action", "/type", "fly", "turn.one-action"),
    case("action", "/camel", "pink", "bet.leg.take-top"),
    case("action", "/player", "0", "bet.leg.take-top"),
    case("event", "/clause", _DELETE, "move.racing.clockwise"),
    case("event", "/placement", "sideways", "move.racing.clockwise"),
    case("event", "/unit/0", "pink", "move.racing.clockwise"),
    case("setup", "/first_crazy", "pink", "setup.crazy-second"),
    case("setup", "/racing_rolls", {}, "setup.racing-camels"),
    case("setup", "/racing_rolls/0/value", "1", "setup.racing-camels"),
    case("setup", "/start_player", _DELETE, "setup.start-player"),
    case("roll", "/value", _DELETE, "dice.racing-faces"),
    case("roll", "/x", 1, "dice.racing-faces"),
    case("roll", "/die", "red-ish", "dice.racing-faces"),
    case("ruleset", "/players", "4", "ruleset.players.second"),
    case("ruleset", "/edition", None, "ruleset.editions"),
]


def _example(kind: str) -> Any:
    if kind == "state":
        return _state_json()
    if kind == "action":
        return to_json(TakeLegTicket(0, Camel.BLUE))
    if kind == "event":
        return next(
            to_json(e)
            for _, _, r in play(Ruleset(Edition.SECOND, 3), 1)
            for e in r.events
            if TAGS[type(e)] == "unit_moved"
        )
    if kind == "setup":
        return to_json(random_setup(Ruleset(Edition.SECOND, 3), random.Random(1)))
    if kind == "roll":
        return to_json(DieRoll(Die.RED, 1))
    return to_json(Ruleset(Edition.SECOND, 4))


@pytest.mark.parametrize(("kind", "change", "pointer", "clause", "schema_too"), MALFORMED)
def test_malformed_input_names_the_pointer(
    kind: str, change: Any, pointer: str, clause: str, schema_too: bool
) -> None:
    data = copy.deepcopy(_example(kind))
    change(data)
    with pytest.raises(InvalidState) as caught:
        CODECS[kind](data)
    assert (caught.value.code, caught.value.pointer) == ("malformed", pointer), caught.value
    assert caught.value.clause == clause
    assert caught.value.clause in load_registry().clause_ids
    assert bool(schema_errors(kind, data)) is schema_too
    # the pointer prefix
    with pytest.raises(InvalidState) as prefixed:
        CODECS[kind](data, "/cases/3")
    assert prefixed.value.pointer == "/cases/3" + pointer


def test_an_integral_number_is_an_integer_as_json_schema_says() -> None:
    """The schema is the gate: JSON Schema counts ``3.0`` as an integer, so the loader does too
    (and structures it as the int 3); ``3.5`` and ``true`` are no integers for either."""
    data = _state_json()
    data["players"][0]["money"] = 3.0
    assert not schema_errors("state", data)
    state = state_from_json(data)
    assert type(state.players[0].money) is int and state.players[0].money == 3
    assert to_json(state)["players"][0]["money"] == 3
    for bad in (3.5, True):
        data["players"][0]["money"] = bad
        with pytest.raises(InvalidState) as caught:
            state_from_json(data)
        assert (caught.value.pointer, caught.value.clause) == ("/players/0/money", "money.currency")


def test_not_objects_at_the_root() -> None:
    not_objects: tuple[Any, ...] = (None, [], "x", 3, True)
    for kind, loader in CODECS.items():
        for value in not_objects:
            with pytest.raises(InvalidState) as caught:
                loader(value)
            assert (caught.value.code, caught.value.pointer) == ("malformed", ""), kind


def test_ruleset_rules_raise_invalid_ruleset_with_a_pointer() -> None:
    data = _state_json()
    data["ruleset"]["players"] = 12
    with pytest.raises(InvalidRuleset) as caught:
        state_from_json(data)
    assert caught.value.code == "player-count"
    assert caught.value.clause == "ruleset.players.second"
    assert caught.value.pointer == "/ruleset/players"
    with pytest.raises(InvalidRuleset) as caught:
        ruleset_from_json(
            {"edition": "second", "players": 4, "modules": ["whirlwind"], "variants": []}
        )
    assert (caught.value.code, caught.value.pointer) == ("module-edition", "/modules")


def test_loads_state_rejects_bad_text() -> None:
    text = dumps(_fresh())
    bad_texts = {
        "{": "",
        "[1,]": "",
        text[:-1]: "",
        '{"leg": 1, "leg": 2}': "/leg",  # the key's second occurrence
        '{"leg": NaN}': "/leg",
        '{"players": [{"money": -Infinity}]}': "/players/0/money",
    }
    for bad, where in bad_texts.items():
        with pytest.raises(InvalidState) as caught:
            loads_state(bad)
        assert (caught.value.code, caught.value.pointer) == ("malformed", where)
        assert caught.value.clause == "track.spaces"


def test_a_grey_roll_may_lack_its_colour_structurally() -> None:
    """Faces and colours are rules (``apply`` and ``validate_state``), not structure."""
    roll = roll_from_json({"die": "grey", "value": 2})
    assert roll == DieRoll(Die.GREY, 2)
    assert to_json(roll) == {"die": "grey", "value": 2}
    assert not schema_errors("roll", {"die": "blue", "value": 9, "colour": "crazy-black"})


# --------------------------------------------------------------- robustness against fuzzing

_json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 25), st.sampled_from(["blue", "grey", "x", "17", ""])
)
_KEYS = st.sampled_from(["type", "die", "camel", "value", "1", "x"])
_json = st.recursive(
    _json_leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=8,
)  # fmt: skip


def _paths(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _paths(value, (*path, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            out += _paths(value, (*path, index))
    return out


_FUZZ_BASES = {
    "state": [_state_json(Edition.SECOND), _state_json(Edition.FIRST)],
    "action": [to_json(a) for a in legal_actions(_fresh(Edition.SECOND, 6))[::7]],
    "event": [to_json(e) for _, _, r in play(Ruleset(Edition.SECOND, 6), 2)[:40] for e in r.events],
    "setup": [_example("setup")],
    "roll": [_example("roll"), to_json(DieRoll(Die.GREY, 2, Camel.CRAZY_BLACK))],
    "ruleset": [_example("ruleset")],
}


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_fuzzed_input_raises_only_camelup_errors(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(SCHEMA_KINDS))
    doc = copy.deepcopy(data.draw(st.sampled_from(_FUZZ_BASES[kind])))
    path = data.draw(st.sampled_from(_paths(doc)))
    replacement = data.draw(_json)
    if not path:
        doc = replacement
    else:
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = replacement
    value: Any
    try:
        value = CODECS[kind](doc)
    except (InvalidState, InvalidRuleset) as error:
        assert error.pointer is not None
        assert error.clause in load_registry().clause_ids
        if error.code == "malformed" and not error.pointer.startswith("/tiles/"):
            assert schema_errors(kind, doc), f"the schema accepts what the loader refuses: {error}"
        return
    assert not schema_errors(kind, doc), "the loader accepts what the schema refuses"
    assert CODECS[kind](through_text(value)) == value
