"""Canonical JSON for rulesets, setups, die rolls, states, actions and events.

The format is fixed by the published JSON Schemas (``conformance/schema/``): snake_case keys,
integers only, enums by value, stacks bottom to top. :func:`to_json` turns any of these values
into plain dicts, lists, ints, strings and None; the ``*_from_json`` functions turn such data
back into values, so that ``x_from_json(to_json(x)) == x``.

Loading checks the data as it goes and raises :class:`~camelup.model.errors.InvalidState` for the
first problem found, with code ``"malformed"``, the most relevant clause and the JSON pointer
of the offending value. "First" is deterministic: for an object, its type, then the first
unknown key in document order, then the first missing key in format order, then the members in
format order, depth first. A missing key is reported at the pointer where it should have been.
A state that is well formed is then checked against the rules by
:func:`camelup.validation.validate_state`; a ruleset by the :class:`~camelup.model.ruleset.Ruleset`
constructor (raising :class:`~camelup.model.errors.InvalidRuleset`, with the pointer set).

>>> from camelup import Camel, TakeLegTicket
>>> to_json(TakeLegTicket(0, Camel.BLUE))
{'type': 'take_leg_ticket', 'player': 0, 'camel': 'blue'}
>>> action_from_json({"type": "take_leg_ticket", "player": 0, "camel": "pink"})
Traceback (most recent call last):
...
camelup.model.errors.InvalidState: malformed at /camel: unknown camel 'pink' [bet.leg.take-top]
"""

from __future__ import annotations

import enum
import functools
import importlib
import json
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import attrs

from camelup.model.actions import (
    ACTION_TYPES,
    Action,
    FormPartnership,
    MoveTile,
    PlaceFinishCard,
    PlaceTile,
    TakeLegTicket,
    TakePyramidTicket,
)
from camelup.model.camels import Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.errors import CamelUpError, InvalidRuleset, InvalidState
from camelup.model.events import Event
from camelup.model.ruleset import Edition, Module, Ruleset, Variant
from camelup.model.state import FinishCard, GameResult, LegTicket, Player, State, Tile
from camelup.model.track import FIRST_SPACE, LAST_SPACE, MAX_SPACE, MIN_SPACE, SLOTS, slot
from camelup.resources import schema_directory
from camelup.rules.setup import Setup
from camelup.validation import (
    Claims,
    card_order,
    claimed_partnerships,
    claims_problem,
    validate_state,
)

__all__ = [
    "action_from_json",
    "dumps",
    "event_from_json",
    "load_schema",
    "loads_state",
    "roll_from_json",
    "ruleset_from_json",
    "schema_validator",
    "setup_from_json",
    "state_from_json",
    "to_json",
]

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any, str, str], Any]  # (json value, pointer, clause for problems here)

EVENT_TYPES: tuple[type, ...] = typing.get_args(Event)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


TAGS: dict[type, str] = {cls: _snake(cls.__name__) for cls in (*ACTION_TYPES, *EVENT_TYPES)}
"""The ``"type"`` tag of each action and event class."""
_ACTIONS_BY_TAG = {TAGS[cls]: cls for cls in ACTION_TYPES}
_EVENTS_BY_TAG = {TAGS[cls]: cls for cls in EVENT_TYPES}

# The clause named by a structural problem: per class (problems with the object itself) ...
# (nested objects inherit the clause of the member that holds them)
_CLASS_CLAUSES: dict[type, str] = {
    DieRoll: "dice.racing-faces",
    Setup: "setup.racing-camels",
    TakeLegTicket: "bet.leg.take-top",
    PlaceTile: "tile.place.empty-space",
    MoveTile: "tile.move.different-space",
    TakePyramidTicket: "move.pyramid.take-ticket",
    PlaceFinishCard: "bet.finish.place",
    FormPartnership: "partner.action",
}
_EVENT_CLAUSES = {  # events without a default clause
    "tile_placed": "tile.place.empty-space",
    "crazy_camel_chosen": "crazy.select.colour",
    "unit_moved": "move.racing.clockwise",
    "whirlwind_step": "whirlwind.spaces",
    "start_player_passed": "leg.start-player",
    "race_ended": "end.crossing.racing",
    "finish_card_scored": "final.pile-order",
}
# ... and per member, where a member has a better one than its object.
_FIELD_CLAUSES: dict[type, dict[str, str]] = {
    DieRoll: {"colour": "dice.grey-faces"},
    Setup: {
        "stacking": "setup.stack-order",
        "start_player": "setup.start-player",
        "crazy_rolls": "setup.crazy-space",
        "first_crazy": "setup.crazy-second",
    },
}
_OMIT_NONE: dict[type, frozenset[str]] = {DieRoll: frozenset({"colour"})}
_STATE_CLAUSES = {
    "ruleset": "ruleset.editions",
    "track": "track.spaces",
    "tiles": "tile.place.side",
    "pyramid": "setup.dice-in-pyramid",
    "revealed": "move.die.stays-out",
    "ticket_stacks": "setup.leg-ticket-stacks",
    "players": "setup.player-kit",
    "winner_pile": "bet.finish.place",
    "loser_pile": "bet.finish.place",
    "to_move": "turn.order",
    "start_player": "setup.start-player",
    "leg": "leg.number",
    "result": "final.winners",
}
_STATE_ROOT_CLAUSE = "track.spaces"
_PLAYER_CLAUSES = {
    "money": "money.currency",
    "leg_tickets": "bet.leg.take-top",
    "pyramid_tickets": "tickets.pyramid",
    "finish_cards": "cards.finish",
    "partner": "partner.action",
}
_RULESET_POINTERS = {
    "player-count": "/players",
    "module-edition": "/modules",
    "variant-ruleset": "/variants",
}


# ----------------------------------------------------------------------------------- helpers


def _at(base: str, *keys: str | int) -> str:
    """``base`` extended by ``keys``, escaped as RFC 6901 requires."""
    for key in keys:
        base += "/" + str(key).replace("~", "~0").replace("/", "~1")
    return base


def _show(value: Any) -> str:
    """A short, safe rendering of any input value for an error message."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"  # str() of huge ints raises
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _malformed(pointer: str, clause: str, message: str) -> InvalidState:
    return InvalidState("malformed", clause, message, pointer)


_JSON_TYPES = {int: "an integer", bool: "a boolean", str: "a string"}


def _primitive(kind: type) -> Decoder:
    def decode(value: Any, pointer: str, clause: str) -> Any:
        if type(value) is not kind:
            raise _malformed(pointer, clause, f"expected {_JSON_TYPES[kind]}, got {_show(value)}")
        return value

    return decode


def _object(
    value: Any,
    pointer: str,
    clause: str,
    keys: Iterable[str],
    optional: Iterable[str] = (),
    clauses: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """``value`` as a JSON object with exactly ``keys`` (the ``optional`` ones may be absent).

    A missing key names its own clause in ``clauses`` when it has one.
    """
    if not isinstance(value, dict):
        raise _malformed(pointer, clause, f"expected an object, got {_show(value)}")
    keys = tuple(keys)
    for key in value:
        if key not in keys:
            raise _malformed(_at(pointer, key), clause, f"unknown key {key!r}")
    for key in keys:
        if key not in value and key not in optional:
            why = (clauses or {}).get(key, clause)
            raise _malformed(_at(pointer, key), why, f"missing key {key!r}")
    return value


def _array(value: Any, pointer: str, clause: str) -> list[Any]:
    if not isinstance(value, list):
        raise _malformed(pointer, clause, f"expected an array, got {_show(value)}")
    return value


def _enum_codec(cls: type[enum.Enum]) -> tuple[Encoder, Decoder]:
    members = {member.value: member for member in cls}
    noun = cls.__name__.lower()

    def decode(value: Any, pointer: str, clause: str) -> Any:
        if not isinstance(value, str):
            raise _malformed(pointer, clause, f"expected a {noun} name, got {_show(value)}")
        if value not in members:
            raise _malformed(pointer, clause, f"unknown {noun} {_show(value)}")
        return members[value]

    return (lambda member: member.value), decode


def _tuple_codec(item: Any) -> tuple[Encoder, Decoder]:
    encode_item, decode_item = _codec(item)

    def decode(value: Any, pointer: str, clause: str) -> Any:
        items = _array(value, pointer, clause)
        return tuple(decode_item(x, _at(pointer, i), clause) for i, x in enumerate(items))

    return (lambda values: [encode_item(x) for x in values]), decode


def _pair_codec(types_: tuple[Any, Any], keys: tuple[str, str]) -> tuple[Encoder, Decoder]:
    """A fixed pair as an object: ``(LegTicket, 3)`` as ``{"ticket": ..., "reward": 3}``."""
    (enc_a, dec_a), (enc_b, dec_b) = _codec(types_[0]), _codec(types_[1])

    def decode(value: Any, pointer: str, clause: str) -> Any:
        obj = _object(value, pointer, clause, keys)
        return (
            dec_a(obj[keys[0]], _at(pointer, keys[0]), clause),
            dec_b(obj[keys[1]], _at(pointer, keys[1]), clause),
        )

    return (lambda pair: {keys[0]: enc_a(pair[0]), keys[1]: enc_b(pair[1])}), decode


def _optional_codec(inner: Any) -> tuple[Encoder, Decoder]:
    encode_inner, decode_inner = _codec(inner)

    def decode(value: Any, pointer: str, clause: str) -> Any:
        return None if value is None else decode_inner(value, pointer, clause)

    return (lambda value: None if value is None else encode_inner(value)), decode


def _literal_codec(allowed: tuple[Any, ...]) -> tuple[Encoder, Decoder]:
    def decode(value: Any, pointer: str, clause: str) -> Any:
        if type(value) is not str or value not in allowed:
            raise _malformed(
                pointer, clause, f"expected one of {', '.join(allowed)}, got {_show(value)}"
            )
        return value

    return (lambda value: value), decode


def _class_codec(cls: type) -> tuple[Encoder, Decoder]:
    """An attrs class as an object of its fields (plus ``"type"`` for actions and events)."""
    hints = typing.get_type_hints(cls)
    names = tuple(f.name for f in attrs.fields(cls) if f.init)
    codecs = {name: _codec(hints[name]) for name in names}
    optional_inner = {
        name: _codec(typing.get_args(hints[name])[0]) for name in _OMIT_NONE.get(cls, ())
    }
    omit = _OMIT_NONE.get(cls, frozenset())
    tag = TAGS.get(cls)
    keys = ("type", *names) if tag else names
    field_clauses = _FIELD_CLAUSES.get(cls, {})

    def encode(value: Any) -> Any:
        out: dict[str, Any] = {"type": tag} if tag else {}
        for name in names:
            member = getattr(value, name)
            if member is None and name in omit:
                continue
            out[name] = codecs[name][0](member)
        return out

    def decode(value: Any, pointer: str, clause: str) -> Any:
        obj = _object(value, pointer, clause, keys, omit, field_clauses)
        if tag is not None and obj["type"] != tag:
            raise _malformed(_at(pointer, "type"), clause, f"expected type {tag!r}")
        kwargs = {}
        for name in names:
            if name not in obj:
                continue  # an omitted optional member: its default None
            decoder = optional_inner[name][1] if name in omit else codecs[name][1]
            kwargs[name] = decoder(obj[name], _at(pointer, name), field_clauses.get(name, clause))
        return cls(**kwargs)

    return encode, decode


@functools.cache
def _codec(tp: Any) -> tuple[Encoder, Decoder]:
    """The (encoder, decoder) pair for a type annotation of the data model."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in _JSON_TYPES:
        return (lambda value: value), _primitive(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_codec(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = (a for a in args if a is not type(None))
        return _optional_codec(inner)
    if origin is typing.Literal:
        return _literal_codec(args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _tuple_codec(args[0])
    if origin is tuple and args == (LegTicket, int):
        return _pair_codec(args, ("ticket", "reward"))
    if isinstance(tp, type) and attrs.has(tp):
        return _class_codec(tp)
    raise TypeError(f"camelup.io.codec: no JSON form for {tp!r}")


def _decode(tp: Any, value: Any, pointer: str, clause: str) -> Any:
    return _codec(tp)[1](value, pointer, clause)


# ----------------------------------------------------------------------------------- encoding


def to_json(value: Any) -> Any:
    """The canonical JSON value of a ruleset, setup, die roll, state, action, event, any piece
    of the data model (camel, tile, ...), an error (``{"code", "clause"}``), a fraction
    (``"n/d"``), or a tuple or list of these (an array)."""
    if isinstance(value, State):
        return _state_to_json(value)
    if isinstance(value, Ruleset):
        return _ruleset_to_json(value)
    if isinstance(value, Player):
        raise TypeError("camelup.io.codec: a player is encoded as part of its state")
    if isinstance(value, CamelUpError):
        return {"code": value.code, "clause": value.clause}
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if value is None:
        return None
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    kind: Any = type(value)
    return _codec(kind)[0](value)


def dumps(value: Any) -> str:
    """The canonical text of ``value``: sorted keys, no spaces, UTF-8 characters as they are."""
    return json.dumps(to_json(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _ruleset_to_json(ruleset: Ruleset) -> dict[str, Any]:
    return {
        "edition": ruleset.edition.value,
        "players": ruleset.players,
        "modules": sorted(m.value for m in ruleset.modules),
        "variants": sorted(v.value for v in ruleset.variants),
    }


def _hand_to_json(
    hand: frozenset[Camel], racing: tuple[Camel, ...], order: Callable[[Camel], int]
) -> list[str]:
    """A hand of finish cards in canonical order: the racing camels' order."""
    cards = [camel._value_ for camel in racing if camel in hand]
    if len(cards) != len(hand):  # a card that is no racing camel (an invalid state): sort all
        cards = [camel.value for camel in sorted(hand, key=order)]
    return cards


@functools.cache
def _state_encoders() -> tuple[Any, ...]:
    """The member encoders of a state, looked up once (building the generic aliases and
    finding their codecs is most of the cost of encoding a state otherwise)."""
    return tuple(
        _codec(tp)[0]
        for tp in (
            tuple[LegTicket, ...],
            tuple[Tile, ...],
            tuple[Die, ...],
            tuple[DieRoll, ...],
            tuple[FinishCard, ...],
            GameResult | None,
        )
    )


def _state_to_json(state: State) -> dict[str, Any]:
    leg_tickets, tiles, dice, rolls, cards, result = _state_encoders()
    order = card_order(state.ruleset)
    racing = state.ruleset.racing_camels
    track = {}
    for index, stack in enumerate(state.track):
        space = index + MIN_SPACE
        if stack or FIRST_SPACE <= space <= LAST_SPACE:
            # _value_ is what Enum.value returns, without its descriptor call per camel.
            track[str(space)] = [camel._value_ for camel in stack]
    players = [
        {
            "money": p.money,
            "leg_tickets": leg_tickets(p.leg_tickets),
            "pyramid_tickets": p.pyramid_tickets,
            "finish_cards": _hand_to_json(state.hand(seat), racing, order),
            "partner": state.partner_of(seat),
        }
        for seat, p in enumerate(state.players)
    ]
    return {
        "ruleset": _ruleset_to_json(state.ruleset),
        "track": track,
        "tiles": tiles(state.tiles),
        "pyramid": dice(state.pyramid),
        "revealed": rolls(state.revealed),
        "ticket_stacks": {
            camel.value: list(stack)
            for camel, stack in zip(state.ruleset.racing_camels, state.ticket_stacks, strict=False)
        },
        "players": players,
        "winner_pile": cards(state.winner_pile),
        "loser_pile": cards(state.loser_pile),
        "to_move": state.to_move,
        "start_player": state.start_player,
        "leg": state.leg,
        "result": result(state.result),
    }


# ----------------------------------------------------------------------------------- decoding


def _enum_set(cls: type[enum.Enum], value: Any, pointer: str, clause: str) -> frozenset[Any]:
    """An array of distinct enum values, in any order."""
    seen: set[Any] = set()
    for index, item in enumerate(_array(value, pointer, clause)):
        member = _decode(cls, item, _at(pointer, index), clause)
        if member in seen:
            raise _malformed(_at(pointer, index), clause, f"{_show(item)} is listed twice")
        seen.add(member)
    return frozenset(seen)


def ruleset_from_json(value: Any, pointer: str = "") -> Ruleset:
    """A ruleset; raises InvalidState when malformed and InvalidRuleset when not allowed."""
    obj = _object(value, pointer, "ruleset.editions", ("edition", "players", "modules", "variants"))
    edition: Edition = _decode(Edition, obj["edition"], _at(pointer, "edition"), "ruleset.editions")
    players = _decode(
        int, obj["players"], _at(pointer, "players"), f"ruleset.players.{edition.value}"
    )
    modules = _enum_set(
        Module, obj["modules"], _at(pointer, "modules"), "ruleset.whirlwind.first-edition"
    )
    variants = _enum_set(Variant, obj["variants"], _at(pointer, "variants"), "ruleset.variants")
    try:
        return Ruleset(edition, players, modules, variants)
    except InvalidRuleset as error:
        where = pointer + _RULESET_POINTERS.get(error.code, "")
        raise InvalidRuleset(error.code, error.clause, error.message, where) from None


def setup_from_json(value: Any, pointer: str = "") -> Setup:
    """Setup inputs (checked against a ruleset only by :func:`camelup.rules.setup.new_game`)."""
    setup: Setup = _decode(Setup, value, pointer, _CLASS_CLAUSES[Setup])
    return setup


def roll_from_json(value: Any, pointer: str = "") -> DieRoll:
    """A die roll. Its faces are checked where it is used (``apply``, ``validate_state``)."""
    roll: DieRoll = _decode(DieRoll, value, pointer, _CLASS_CLAUSES[DieRoll])
    return roll


def _tagged(value: Any, pointer: str, by_tag: Mapping[str, type], clause: str) -> type:
    if not isinstance(value, dict):
        raise _malformed(pointer, clause, f"expected an object, got {_show(value)}")
    if "type" not in value:
        raise _malformed(_at(pointer, "type"), clause, "missing key 'type'")
    tag = value["type"]
    if not isinstance(tag, str) or tag not in by_tag:
        raise _malformed(_at(pointer, "type"), clause, f"unknown type {_show(tag)}")
    return by_tag[tag]


def action_from_json(value: Any, pointer: str = "") -> Action:
    """An action, tagged by ``"type"``. Whether it is legal is ``apply``'s business."""
    cls = _tagged(value, pointer, _ACTIONS_BY_TAG, "turn.one-action")
    action: Action = _decode(cls, value, pointer, _CLASS_CLAUSES[cls])
    return action


def _event_clause(cls: type) -> str:
    default = attrs.fields_dict(cls)["clause"].default
    return default if isinstance(default, str) else _EVENT_CLAUSES[TAGS[cls]]


def event_from_json(value: Any, pointer: str = "") -> Event:
    """An event, tagged by ``"type"``."""
    cls = _tagged(value, pointer, _EVENTS_BY_TAG, "turn.one-action")
    event: Event = _decode(cls, value, pointer, _event_clause(cls))
    return event


def _track_from_json(value: Any, pointer: str) -> tuple[tuple[Camel, ...], ...]:
    clause = _STATE_CLAUSES["track"]
    keys = [str(space) for space in range(MIN_SPACE, MAX_SPACE + 1)]
    required = {str(space) for space in range(FIRST_SPACE, LAST_SPACE + 1)}
    obj = _object(value, pointer, clause, keys, optional=set(keys) - required)
    track: list[tuple[Camel, ...]] = [()] * SLOTS
    for key in keys:
        if key in obj:
            track[slot(int(key))] = _decode(tuple[Camel, ...], obj[key], _at(pointer, key), clause)
    return tuple(track)


def _ticket_stacks_from_json(
    value: Any, pointer: str, ruleset: Ruleset
) -> tuple[tuple[int, ...], ...]:
    clause = _STATE_CLAUSES["ticket_stacks"]
    racing = [camel.value for camel in ruleset.racing_camels]
    if isinstance(value, dict):
        for key in value:
            if key not in racing:
                crazy = key in (c.value for c in Camel if c.is_crazy)
                why = "bets.no-crazy" if crazy else f"camels.racing.{ruleset.edition.value}"
                raise _malformed(
                    _at(pointer, key), why, f"no leg tickets for {key!r} in this edition"
                )
    obj = _object(value, pointer, clause, racing)
    return tuple(_decode(tuple[int, ...], obj[key], _at(pointer, key), clause) for key in racing)


def _player_from_json(value: Any, pointer: str) -> tuple[Player, tuple[Camel, ...], int | None]:
    """A player, with the hand and the partner its JSON lists (the state derives both)."""
    obj = _object(
        value, pointer, _STATE_CLAUSES["players"], _PLAYER_CLAUSES, clauses=_PLAYER_CLAUSES
    )

    def member(key: str, tp: Any) -> Any:
        return _decode(tp, obj[key], _at(pointer, key), _PLAYER_CLAUSES[key])

    player = Player(
        money=member("money", int),
        leg_tickets=member("leg_tickets", tuple[LegTicket, ...]),
        pyramid_tickets=member("pyramid_tickets", int),
    )
    where = _at(pointer, "finish_cards")
    _enum_set(Camel, obj["finish_cards"], where, _PLAYER_CLAUSES["finish_cards"])
    hand = _decode(tuple[Camel, ...], obj["finish_cards"], where, _PLAYER_CLAUSES["finish_cards"])
    return player, hand, member("partner", int | None)


def _tiles_from_json(value: Any, pointer: str) -> tuple[Tile, ...]:
    tiles: tuple[Tile, ...] = _decode(tuple[Tile, ...], value, pointer, _STATE_CLAUSES["tiles"])
    for index in range(1, len(tiles)):
        if tiles[index].space < tiles[index - 1].space:
            raise _malformed(
                _at(pointer, index), "tile.place.side", "tiles must be sorted by space"
            )
    return tiles


def state_from_json(value: Any, pointer: str = "") -> State:
    """A state: well formed (else InvalidState "malformed"), possible under the rules (else
    InvalidState from :func:`camelup.validation.validate_state`), and with the members the
    state derives (pyramid, ticket stacks, hands, partners, result) as it derives them."""
    obj = _object(value, pointer, _STATE_ROOT_CLAUSE, _STATE_CLAUSES, clauses=_STATE_CLAUSES)

    def member(key: str, tp: Any) -> Any:
        return _decode(tp, obj[key], _at(pointer, key), _STATE_CLAUSES[key])

    ruleset = ruleset_from_json(obj["ruleset"], _at(pointer, "ruleset"))
    track = _track_from_json(obj["track"], _at(pointer, "track"))
    tiles = _tiles_from_json(obj["tiles"], _at(pointer, "tiles"))
    pyramid = member("pyramid", tuple[Die, ...])
    revealed = member("revealed", tuple[DieRoll, ...])
    stacks = _ticket_stacks_from_json(obj["ticket_stacks"], _at(pointer, "ticket_stacks"), ruleset)
    where = _at(pointer, "players")
    seats = [
        _player_from_json(p, _at(where, i))
        for i, p in enumerate(_array(obj["players"], where, _STATE_CLAUSES["players"]))
    ]
    winner_pile = member("winner_pile", tuple[FinishCard, ...])
    loser_pile = member("loser_pile", tuple[FinishCard, ...])
    to_move, start_player, leg = (
        member("to_move", int),
        member("start_player", int),
        member("leg", int),
    )
    result: GameResult | None = member("result", GameResult | None)
    partnerships, asymmetric = claimed_partnerships([partner for _, _, partner in seats])
    if asymmetric is not None:
        raise asymmetric.invalid_state(pointer)
    state = State(
        ruleset=ruleset,
        track=track,
        tiles=tiles,
        revealed=revealed,
        players=tuple(player for player, _, _ in seats),
        winner_pile=winner_pile,
        loser_pile=loser_pile,
        to_move=to_move,
        start_player=start_player,
        leg=leg,
        partnerships=partnerships,
    )
    validate_state(state, pointer)
    claims = Claims(
        pyramid=pyramid,
        ticket_stacks=stacks,
        hands=tuple(hand for _, hand, _ in seats),
        winners=None if result is None else result.winners,
    )
    disagreement = claims_problem(state, claims)
    if disagreement is not None:
        raise disagreement.invalid_state(pointer)
    return state


def parse_json(text: str | bytes, clause: str = _STATE_ROOT_CLAUSE) -> Any:
    """JSON text (or UTF-8 bytes) as Python values; every defect is an InvalidState "malformed":
    not JSON, not UTF-8, a key twice in one object, NaN or Infinity, nesting too deep, an
    integer too long to convert."""

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, item in pairs:
            if key in out:
                raise _malformed("", clause, f"key {key!r} appears twice in one object")
            out[key] = item
        return out

    def no_constant(name: str) -> Any:
        raise _malformed("", clause, f"{name} is not a JSON number")

    try:
        return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant)
    except json.JSONDecodeError as error:
        raise _malformed("", clause, f"not JSON: {error}") from None
    except UnicodeDecodeError as error:
        raise _malformed(
            "", clause, f"not UTF-8 text: {error.reason} at byte {error.start}"
        ) from None
    except RecursionError:
        raise _malformed("", clause, "not JSON this engine reads: nested too deeply") from None
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise _malformed("", clause, f"not JSON this engine reads: {error}") from None


def loads_state(text: str | bytes) -> State:
    """A state from JSON text."""
    return state_from_json(parse_json(text, _STATE_ROOT_CLAUSE))


# ------------------------------------------------------------------------------------ schemas

SCHEMA_KINDS = ("ruleset", "setup", "roll", "state", "action", "event")


@functools.cache
def load_schema(kind: str) -> dict[str, Any]:
    """The published JSON Schema of ``kind`` (one of :data:`SCHEMA_KINDS`)."""
    if kind not in SCHEMA_KINDS:
        raise ValueError(f"no schema {kind!r}; expected one of {', '.join(SCHEMA_KINDS)}")
    schema: dict[str, Any] = json.loads(
        (schema_directory() / f"{kind}.schema.json").read_text("utf-8")
    )
    return schema


@functools.cache
def schema_validator(kind: str) -> Any:
    """A ``jsonschema`` validator for ``kind``, resolving ``$ref`` between the published files.

    jsonschema is imported here, not when camelup is imported.
    """
    jsonschema = importlib.import_module("jsonschema")  # untyped; imported only here
    referencing = importlib.import_module("referencing")

    resources = [
        (load_schema(k)["$id"], referencing.Resource.from_contents(load_schema(k)))
        for k in SCHEMA_KINDS
    ]
    registry: Any = referencing.Registry().with_resources(resources)
    return jsonschema.Draft202012Validator(load_schema(kind), registry=registry)
