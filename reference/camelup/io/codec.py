"""Canonical JSON for rulesets, setups, die rolls, states, actions and events.

The format is fixed by the published JSON Schemas (``conformance/schema/``): snake_case keys,
integers only, enums by value, stacks bottom to top. :func:`to_json` turns any of these values
into plain dicts, lists, ints, strings and None; the ``*_from_json`` functions turn such data
back into values, so that ``x_from_json(to_json(x)) == x``.

Loading is three steps. First the published schema is the gate (:mod:`camelup.io.schemas`):
a document that does not follow it raises :class:`~camelup.model.errors.InvalidState` with code
``"malformed"``, the JSON pointer of the offending value and the clause the schema location
names. Then a cattrs converter structures the document into the typed model; it cannot fail
on a document the schema accepted (an integral number such as ``3.0`` is the integer 3, as
JSON Schema says). Last, what no schema can say is checked by the rules: a ruleset by the
:class:`~camelup.model.ruleset.Ruleset` constructor (raising
:class:`~camelup.model.errors.InvalidRuleset`, with the pointer set), a state by
:func:`camelup.play.validation.validate_state`, and the order of a state's tiles here.

>>> from camelup import Camel, TakeLegTicket
>>> to_json(TakeLegTicket(0, Camel.BLUE))
{'type': 'take_leg_ticket', 'player': 0, 'camel': 'blue'}
>>> action_from_json({"type": "take_leg_ticket", "player": 0, "camel": 1})
Traceback (most recent call last):
...
camelup.model.errors.InvalidState: malformed at /camel: expected one of ... got 1 [bet.leg.take-top]
"""

from __future__ import annotations

import enum
import json
import operator
import re
import typing
from collections.abc import Callable, Sequence, Set
from fractions import Fraction
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_unstructure_fn
from cattrs.strategies import configure_tagged_union

from camelup.io import schemas
from camelup.io.jsonio import JSONInputError, parse_json
from camelup.model.actions import ACTION_TYPES, Action
from camelup.model.camels import Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.errors import CamelUpError, InvalidRuleset, InvalidState
from camelup.model.events import Event
from camelup.model.ruleset import Ruleset
from camelup.model.state import FinishCard, GameResult, LegTicket, Player, State, Tile
from camelup.model.track import FIRST_SPACE, LAST_SPACE, MIN_SPACE, SLOTS, slot
from camelup.play.validation import (
    Claims,
    claimed_partnerships,
    claims_problem,
    validate_state,
)
from camelup.rules.setup import Setup

__all__ = [
    "TAGS",
    "action_from_json",
    "dumps",
    "event_from_json",
    "loads_state",
    "roll_from_json",
    "ruleset_from_json",
    "setup_from_json",
    "state_as_written",
    "state_from_json",
    "to_json",
]

EVENT_TYPES: tuple[type, ...] = typing.get_args(Event)


TAGS: dict[type, str] = {
    cls: re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    for cls in (*ACTION_TYPES, *EVENT_TYPES)
}
"""The ``"type"`` tag of each action and event class: its name in snake_case."""

_RULESET_POINTERS = {
    "player-count": "/players",
    "module-edition": "/modules",
    "variant-ruleset": "/variants",
}


# --------------------------------------------------------------------------------- converter


def _integer(value: Any, _: Any) -> int:
    """An integer the schema accepted: an int, or an integral float (``3.0``)."""
    return value if type(value) is int else int(value)


def _enum_hook(kind: type[enum.Enum]) -> Callable[[Any, Any], Any]:
    members = {member.value: member for member in kind}
    return lambda value, _: members[value]


def _is_array(kind: Any) -> bool:
    """``tuple[X, ...]`` or ``frozenset[X]``."""
    origin: Any = typing.get_origin(kind)
    return origin in (tuple, frozenset) and typing.get_args(kind)[1:] in ((), (Ellipsis,))


def _array_hook(kind: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    item = typing.get_args(kind)[0]
    hook = converter.get_structure_hook(item)
    collect = typing.get_origin(kind)
    return lambda value, _: collect([hook(member, item) for member in value])


def _converter() -> cattrs.Converter:
    """The one converter between the model and JSON values: attrs classes as objects of their
    fields (an unknown key refused), enums by value, tuples and frozensets as arrays, actions
    and events tagged by ``"type"``, a leg ticket's reward as ``{"ticket", "reward"}``, and a
    racing die's roll without its ``"colour"``."""
    converter = cattrs.Converter(
        forbid_extra_keys=True,
        detailed_validation=False,
        unstruct_collection_overrides={Sequence: list, Set: list},
    )
    converter.register_structure_hook(int, _integer)
    # Faster than the general hooks (on the adapter's and the loader's path): an enum member by
    # a dict lookup, an array's items each by a hook found once.
    converter.register_structure_hook_factory(
        lambda kind: isinstance(kind, type) and issubclass(kind, enum.Enum), _enum_hook
    )
    converter.register_structure_hook_factory(_is_array, lambda kind: _array_hook(kind, converter))
    # And back: an enum member's value read at C speed (Enum.value is a Python-level descriptor).
    converter.register_unstructure_hook_factory(
        lambda kind: isinstance(kind, type) and issubclass(kind, enum.Enum),
        lambda _: operator.attrgetter("_value_"),
    )
    reward = tuple[LegTicket, int]
    converter.register_structure_hook_func(
        lambda kind: kind == reward,
        lambda value, _: (
            converter.structure(value["ticket"], LegTicket),
            _integer(value["reward"], int),
        ),
    )
    converter.register_unstructure_hook_func(
        lambda kind: kind == reward,
        lambda pair: {"ticket": converter.unstructure(pair[0]), "reward": pair[1]},
    )
    converter.register_unstructure_hook(
        DieRoll, make_dict_unstructure_fn(DieRoll, converter, _cattrs_omit_if_default=True)
    )
    configure_tagged_union(Action, converter, tag_generator=TAGS.__getitem__, tag_name="type")
    configure_tagged_union(Event, converter, tag_generator=TAGS.__getitem__, tag_name="type")
    return converter


CONVERTER = _converter()


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
    if value is None or type(value) in (int, str, bool):
        return value
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    encode = _ENCODERS.get(type(value)) or _encoder(type(value))
    return encode(value)


_ENCODERS: dict[type, Callable[[Any], Any]] = {}


def _encoder(kind: type) -> Callable[[Any], Any]:
    """The converter's hook for ``kind``, looked up once (dispatching on every call costs
    more than the encoding of a small value); an action or event gets its tag first."""
    if not (attrs.has(kind) or issubclass(kind, enum.Enum)):
        raise TypeError(f"camelup.io.codec: no JSON form for {kind.__name__}")
    hook = CONVERTER.get_unstructure_hook(kind)
    tag = TAGS.get(kind)
    encode = hook if tag is None else (lambda value: {"type": tag, **hook(value)})
    _ENCODERS[kind] = encode
    return encode


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


# The state is on the hot path of the runner: its encoder is written out, with the member
# encoders looked up once.
_LEG_TICKET = CONVERTER.get_unstructure_hook(LegTicket)
_TILE = CONVERTER.get_unstructure_hook(Tile)
_ROLL = CONVERTER.get_unstructure_hook(DieRoll)
_CARD = CONVERTER.get_unstructure_hook(FinishCard)


def _state_to_json(state: State) -> dict[str, Any]:
    racing, hands = state.ruleset.racing_camels, state.hands
    track = {}
    for index, stack in enumerate(state.track):
        space = index + MIN_SPACE
        if stack or FIRST_SPACE <= space <= LAST_SPACE:
            # _value_ is what Enum.value returns, without its descriptor call per camel.
            track[str(space)] = [camel._value_ for camel in stack]
    players = [
        {
            "money": p.money,
            "leg_tickets": [_LEG_TICKET(t) for t in p.leg_tickets],
            "pyramid_tickets": p.pyramid_tickets,
            "finish_cards": [c._value_ for c in racing if c in hands[seat]],  # racing order
            "partner": state.partner_of(seat),
        }
        for seat, p in enumerate(state.players)
    ]
    return {
        "ruleset": _ruleset_to_json(state.ruleset),
        "track": track,
        "tiles": [_TILE(tile) for tile in state.tiles],
        "pyramid": [die._value_ for die in state.pyramid],
        "revealed": [_ROLL(roll) for roll in state.revealed],
        "ticket_stacks": {
            camel._value_: list(stack)
            for camel, stack in zip(racing, state.ticket_stacks, strict=False)
        },
        "players": players,
        "winner_pile": [_CARD(card) for card in state.winner_pile],
        "loser_pile": [_CARD(card) for card in state.loser_pile],
        "to_move": state.to_move,
        "start_player": state.start_player,
        "leg": state.leg,
        "result": None if state.result is None else {"winners": list(state.result.winners)},
    }


# ----------------------------------------------------------------------------------- decoding


def _gate(kind: str, value: Any, pointer: str, checked: bool) -> None:
    """Raise InvalidState "malformed" unless ``value`` follows the published schema ``kind``
    (or is ``checked``: part of a document that was checked against its schema as a whole)."""
    if checked:
        return
    violation = schemas.check(kind, value)
    if violation is not None:
        clause = violation.clause or schemas.DEFAULT_CLAUSES[kind]
        raise InvalidState("malformed", clause, violation.message, pointer + violation.pointer)


def ruleset_from_json(value: Any, pointer: str = "", *, checked: bool = False) -> Ruleset:
    """A ruleset; raises InvalidState when malformed and InvalidRuleset when not allowed."""
    _gate("ruleset", value, pointer, checked)
    return _ruleset(value, pointer)


def _ruleset(document: Any, pointer: str) -> Ruleset:
    try:
        return CONVERTER.structure(document, Ruleset)
    except InvalidRuleset as error:
        where = pointer + _RULESET_POINTERS.get(error.code, "")
        raise InvalidRuleset(error.code, error.clause, error.message, where) from None


def setup_from_json(value: Any, pointer: str = "", *, checked: bool = False) -> Setup:
    """Setup inputs (checked against a ruleset only by :func:`camelup.rules.setup.new_game`)."""
    _gate("setup", value, pointer, checked)
    return CONVERTER.structure(value, Setup)


def roll_from_json(value: Any, pointer: str = "", *, checked: bool = False) -> DieRoll:
    """A die roll. Its faces are checked where it is used (``apply``, ``validate_state``)."""
    _gate("roll", value, pointer, checked)
    return CONVERTER.structure(value, DieRoll)


def action_from_json(value: Any, pointer: str = "", *, checked: bool = False) -> Action:
    """An action, tagged by ``"type"``. Whether it is legal is ``apply``'s business."""
    _gate("action", value, pointer, checked)
    action: Action = CONVERTER.structure(value, Action)  # type: ignore[arg-type]
    return action


def event_from_json(value: Any, pointer: str = "", *, checked: bool = False) -> Event:
    """An event, tagged by ``"type"``."""
    _gate("event", value, pointer, checked)
    event: Event = CONVERTER.structure(value, Event)  # type: ignore[arg-type]
    return event


_PLAYER_FIELDS = tuple(field.name for field in attrs.fields(Player))


def _state(document: dict[str, Any], pointer: str) -> State:
    """The one place a state is built from its (schema-checked) JSON: each member structured,
    then one constructor call. The members the state derives are left out; a seat's partner
    becomes the state's pairs (InvalidState when the two seats disagree)."""
    ruleset = _ruleset(document["ruleset"], pointer + "/ruleset")
    track: list[tuple[Camel, ...]] = [()] * SLOTS
    for space, stack in document["track"].items():
        track[slot(int(space))] = tuple(map(Camel, stack))
    seats = document["players"]
    partnerships, asymmetric = claimed_partnerships([seat["partner"] for seat in seats])
    if asymmetric is not None:
        raise asymmetric.invalid_state(pointer)

    def member(key: str, kind: Any) -> Any:
        return CONVERTER.structure(document[key], kind)

    return State(
        ruleset=ruleset,
        track=tuple(track),
        tiles=member("tiles", tuple[Tile, ...]),
        revealed=member("revealed", tuple[DieRoll, ...]),
        players=tuple(
            CONVERTER.structure({key: seat[key] for key in _PLAYER_FIELDS}, Player)
            for seat in seats
        ),
        winner_pile=member("winner_pile", tuple[FinishCard, ...]),
        loser_pile=member("loser_pile", tuple[FinishCard, ...]),
        to_move=member("to_move", int),
        start_player=member("start_player", int),
        leg=member("leg", int),
        partnerships=partnerships,
    )


def _claims(document: dict[str, Any], ruleset: Ruleset) -> Claims:
    """What the JSON says about the members the state derives (kept on the wire for readers)."""
    stacks, result = document["ticket_stacks"], document["result"]
    return Claims(
        pyramid=tuple(map(Die, document["pyramid"])),
        ticket_stacks=tuple(
            CONVERTER.structure(stacks[camel.value], tuple[int, ...])
            for camel in ruleset.racing_camels
        ),
        hands=tuple(tuple(map(Camel, seat["finish_cards"])) for seat in document["players"]),
        winners=None if result is None else CONVERTER.structure(result, GameResult).winners,
    )


def state_from_json(value: Any, pointer: str = "", *, checked: bool = False) -> State:
    """A state: well formed (else InvalidState "malformed"), possible under the rules (else
    InvalidState from :func:`camelup.play.validation.validate_state`), and with the members the
    state derives (pyramid, ticket stacks, hands, partners, result) as it derives them."""
    _gate("state", value, pointer, checked)
    state = _state(value, pointer)
    for index in range(1, len(state.tiles)):  # a set in the model, an ordered tuple in State
        if state.tiles[index].space < state.tiles[index - 1].space:
            message = "tiles must be sorted by space"
            raise InvalidState("malformed", "tile.place.side", message, f"{pointer}/tiles/{index}")
    validate_state(state, pointer)
    disagreement = claims_problem(state, _claims(value, state.ruleset))
    if disagreement is not None:
        raise disagreement.invalid_state(pointer)
    return state


def state_as_written(value: Any, pointer: str = "") -> State:
    """A state built from its JSON as written, for showing a state that an implementation got
    wrong: the shape is checked (InvalidState "malformed"), the rules are not, and the
    members a state derives (pyramid, ticket stacks, hands, result) are derived, not read."""
    _gate("state", value, pointer, False)
    return _state(value, pointer)


def loads_state(text: str | bytes) -> State:
    """A state from JSON text; text that is not JSON camelup reads is InvalidState "malformed"
    (with the pointer where the reader can tell: a key twice, ``NaN``, ...)."""
    try:
        value = parse_json(text)
    except JSONInputError as error:
        clause = schemas.DEFAULT_CLAUSES["state"]
        raise InvalidState("malformed", clause, error.message, error.pointer) from None
    return state_from_json(value)
