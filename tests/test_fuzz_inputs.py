"""Fuzzing the JSON boundaries: whatever comes in, only CamelUpError (with a pointer) comes out.

- ``camelup.io.codec``'s ``*_from_json`` get random JSON values and valid documents (states reached
  by play, their rulesets, setups, actions, events and rolls) with one thing changed: a value
  replaced by a random or a nearby one, a key removed or added, an array item dropped,
  repeated or moved. Each load returns a value that round-trips, or raises a CamelUpError whose
  code and clause are well formed and whose JSON pointer leads into the document. Any other
  exception fails the test. ``loads_state`` gets text.
- The command line (``camelup.cli.main``) gets bad files: ``camelup conformance validate FILE``
  exits 3 with one line per problem, never a traceback and never an internal error.
- ``camelup conformance run`` (a real subprocess) meets adapters that misbehave as real ones do
  (``faux_adapters/evil.py``: children left behind, output without newlines, deep replies,
  control characters) and real SIGINT and SIGTERM: it ends with the documented exit code and a
  report its readers accept, and leaves no process of the adapter running.

The tests at the end pin bugs this fuzzing found in the codec (all fixed): invalid UTF-8,
JSON nested too deeply and integers too long to print used to escape as other exceptions.
"""

from __future__ import annotations

import builtins
import contextlib
import copy
import functools
import io
import json
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import camelup.testing.strategies as cst
from camelup import (
    CamelUpError,
    DieRoll,
    InvalidState,
    Ruleset,
    Setup,
    apply,
    legal_actions,
    new_game,
)
from camelup.cli import main
from camelup.harness.suite import load_suite, suite_directory
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
from camelup.model.camels import Camel, Die
from camelup.model.ruleset import Edition, Module, Variant
from camelup.model.state import Pile, TileSide
from camelup.spec.registry import load_registry

# The fuzz tests draw ten times the profile's number of examples: they are cheap.
_EXAMPLES = settings().max_examples  # of the profile loaded by conftest.py
FUZZ = settings(max_examples=10 * _EXAMPLES)
CLI = settings(max_examples=max(10, _EXAMPLES))

LOADERS: dict[str, Callable[[Any], Any]] = {
    "ruleset": ruleset_from_json,
    "setup": setup_from_json,
    "roll": roll_from_json,
    "state": state_from_json,
    "action": action_from_json,
    "event": event_from_json,
}
CLAUSES = load_registry().clause_ids
CODE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
BUILTIN_ERRORS = {
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
}
INTERNAL_ERROR = re.compile(r"^camelup: (\w+): ", re.MULTILINE)

# Names and keys of the format, so that random values often look almost right.
ENUM_NAMES = sorted(
    {m.value for e in (Camel, Die, TileSide, Pile, Edition, Module, Variant) for m in e}
    | set(TAGS.values())
)


def _keys(value: Any, found: set[str]) -> set[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            _keys(item, found)
    elif isinstance(value, list):
        for item in value:
            _keys(item, found)
    return found


# ------------------------------------------------------------------------------ strategies

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**64), 2**64),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(ENUM_NAMES),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(
            st.one_of(st.text(max_size=8), st.sampled_from(ENUM_NAMES)), inner, max_size=6
        ),
    ),
    max_leaves=25,
)
ODD_VALUES: list[Any] = [None, True, False, 0, -1, 1, 2, 5, 8, 17, 2**31, 1.5, "", "x", [], {}, [0]]


ANYTHING = st.one_of(st.sampled_from(ODD_VALUES), json_values)
# nearby() builds its strategies once per value (once per length for an array), not once per
# draw: hypothesis validates each new strategy object, which cost a third of these tests' time.


@attrs.frozen
class _Order:
    """Indices into an array: the array reordered, an item repeated or dropped."""

    indices: tuple[int, ...]


@functools.cache
def _nearby_scalar(kind: type, value: Any) -> st.SearchStrategy[Any]:
    alike: st.SearchStrategy[Any]
    if kind is bool:
        alike = st.just(not value)
    elif kind is int:
        alike = st.one_of(
            st.integers(value - 3, value + 3), st.sampled_from([-1, 0, 5, 8, 17, 20, 2**31])
        )
    else:
        alike = st.sampled_from(ENUM_NAMES)
    return st.one_of(alike, alike, ANYTHING)


@functools.cache
def _nearby_array(length: int) -> st.SearchStrategy[Any]:
    indices = tuple(range(length))
    alike = st.one_of(
        st.permutations(indices).map(tuple),
        st.just((*indices, 0)),
        st.just(indices[1:]),
        st.just(indices[:-1]),
    ).map(_Order)
    return st.one_of(alike, alike, ANYTHING)


def nearby(value: Any) -> st.SearchStrategy[Any]:
    """Values like ``value`` but probably wrong: mostly of the same type (a neighbouring number,
    another name, the array reordered, shortened or lengthened), sometimes anything."""
    if isinstance(value, (bool, int, str)):
        return _nearby_scalar(type(value), value)
    if isinstance(value, list) and value:
        items = list(value)
        return _nearby_array(len(items)).map(
            lambda drawn: [items[i] for i in drawn.indices] if isinstance(drawn, _Order) else drawn
        )
    return ANYTHING


def paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every place in a JSON document, the root first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(paths(item, (*prefix, index)))
    return found


def at(doc: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


@st.composite
def valid_documents(draw: st.DrawFn, kind: str | None = None) -> tuple[str, Any]:
    """(kind, document): the canonical JSON of a value reached by play."""
    if kind is None:
        kind = draw(st.sampled_from(sorted(LOADERS)), label="kind")
    value: Any
    if kind in ("ruleset", "setup"):  # no game needed: playing one cost most of an example
        ruleset = draw(cst.rulesets(), label="ruleset")
        value = ruleset if kind == "ruleset" else draw(cst.setups(ruleset))
        return kind, to_json(value)
    state = draw(cst.states(max_steps=40), label="state")
    if kind == "state":
        value = state
    elif kind == "roll":
        rolls = [cst.a_chance_outcome(state)]
        if state.revealed:
            rolls.append(st.sampled_from(state.revealed))
        value = draw(st.one_of(rolls))
    elif kind == "action":
        value = draw(st.one_of(cst.a_legal_action(state), cst.invalid_actions(state)))
    else:
        action = draw(cst.a_legal_action(state)) if not state.is_over else None
        events = apply(state, action).events if action is not None else ()
        if not events:  # the race is over: take any event of a fresh legal action instead
            fresh = draw(cst.states(state.ruleset, max_steps=0))
            events = apply(fresh, legal_actions(fresh)[0]).events
        value = draw(st.sampled_from(events))
    return kind, to_json(value)


@st.composite
def mutated_documents(draw: st.DrawFn, kind: str | None = None) -> tuple[str, Any]:
    """A valid document with one thing changed."""
    kind, doc = draw(valid_documents(kind))
    doc = copy.deepcopy(doc)
    path = draw(st.sampled_from(paths(doc)), label="path")
    target = at(doc, path)
    how = draw(st.sampled_from(["replace", "remove", "add", "replace"]), label="how")
    if how == "replace" or not path:
        replacement = draw(nearby(target), label="replacement")
        if not path:
            return kind, replacement
        at(doc, path[:-1])[path[-1]] = replacement
    elif how == "remove":
        del at(doc, path[:-1])[path[-1]]
    elif isinstance(target, dict):
        key = draw(st.one_of(st.sampled_from(sorted(_keys(doc, set()))), st.text(max_size=5)))
        target[key] = draw(json_values)
    elif isinstance(target, list):
        target.insert(draw(st.integers(0, len(target))), draw(json_values))
    else:
        at(doc, path[:-1])[path[-1]] = [target]
    return kind, doc


# ------------------------------------------------------------------------------- the checks


def resolves(doc: Any, pointer: str) -> bool:
    """Whether the RFC 6901 ``pointer`` leads into ``doc``, or names a key missing from an
    object that is there (a missing key is reported where it should be)."""
    if pointer == "":
        return True
    assert pointer.startswith("/"), pointer
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]
    for index, token in enumerate(tokens):
        last = index == len(tokens) - 1
        if isinstance(doc, dict):
            if token not in doc:
                return last
            doc = doc[token]
        elif isinstance(doc, list):
            if not token.isdigit() or int(token) >= len(doc):
                return False
            doc = doc[int(token)]
        else:
            return False
    return True


def load(kind: str, doc: Any) -> Any:
    """Load ``doc``: either a value that round-trips, or a well-formed CamelUpError."""
    try:
        value = LOADERS[kind](doc)
    except CamelUpError as error:
        assert CODE.match(error.code), error
        assert error.clause in CLAUSES, f"unknown clause in {error}"
        assert isinstance(error.pointer, str), f"no pointer: {error!r}"
        assert resolves(doc, error.pointer), f"the pointer leads nowhere: {error}"
        return None
    assert LOADERS[kind](json.loads(json.dumps(to_json(value)))) == value
    return value


# ---------------------------------------------------------------------------- the loaders


@FUZZ
@given(kind=st.sampled_from(sorted(LOADERS)), doc=json_values)
def test_random_json_raises_only_camelup_errors(kind: str, doc: Any) -> None:
    load(kind, doc)


@FUZZ
@given(kind=st.sampled_from(sorted(LOADERS)), data=st.data())
def test_random_objects_with_the_right_keys_raise_only_camelup_errors(
    kind: str, data: st.DataObject
) -> None:
    """Objects with every key of the format, each holding a random value."""
    _, base = data.draw(valid_documents(kind))
    if isinstance(base, dict):
        doc = {key: data.draw(nearby(value), label=key) for key, value in base.items()}
        load(kind, doc)


@FUZZ
@given(mutated_documents())
def test_a_document_with_one_change_raises_only_camelup_errors(case: tuple[str, Any]) -> None:
    kind, doc = case
    load(kind, doc)


@FUZZ
@given(mutated_documents("state"))
def test_a_state_with_one_change_raises_only_camelup_errors(case: tuple[str, Any]) -> None:
    kind, doc = case
    load(kind, doc)


@FUZZ
@given(valid_documents())
def test_valid_documents_load(case: tuple[str, Any]) -> None:
    kind, doc = case
    if kind == "state":
        assert load(kind, doc) is not None


@FUZZ
@given(data=st.data())
def test_loads_state_takes_any_text(data: st.DataObject) -> None:
    state = data.draw(cst.states(max_steps=30))
    text = dumps(state)
    edits = st.tuples(st.integers(0, len(text)), st.integers(0, 3), st.text(max_size=3))
    start, removed, inserted = data.draw(edits)
    candidates = st.one_of(
        st.text(),
        st.just(text[:start] + inserted + text[start + removed :]),
        st.just(text[:start]),
    )
    broken = data.draw(candidates)
    as_bytes = data.draw(st.booleans())
    try:
        loaded = loads_state(broken.encode("utf-8", "surrogatepass") if as_bytes else broken)
    except CamelUpError as error:
        assert isinstance(error.pointer, str) and error.clause in CLAUSES
    else:
        assert loaded == loads_state(dumps(loaded))


# ---------------------------------------------------------------------------- the command line


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def assert_no_crash(stdout: str, stderr: str) -> None:
    assert "Traceback" not in stdout + stderr
    crashes = [name for name in INTERNAL_ERROR.findall(stderr) if name in BUILTIN_ERRORS]
    assert not crashes, f"an internal error reached the user: {stderr}"


case_like = st.fixed_dictionaries(
    {"area": json_values, "cases": st.lists(json_values, max_size=3)},
    optional={"comment": json_values},
)


@CLI
@given(
    content=st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
        json_values.map(lambda v: json.dumps(v).encode()),
        case_like.map(lambda v: json.dumps(v).encode()),
    )
)
def test_conformance_validate_reports_bad_files_one_line_per_problem(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.json"
        path.write_bytes(content)
        code, stdout, stderr = run_cli("conformance", "validate", str(path))
    assert_no_crash(stdout, stderr)
    try:
        parsed = json.loads(content.decode("utf-8"))
    except ValueError:  # not UTF-8 or not JSON: one problem, one line
        assert code == 3, (code, stdout, stderr)
        assert len(stderr.splitlines()) == 1, stderr
        return
    if not isinstance(parsed, dict):
        assert code == 3, (code, stdout, stderr)
    else:
        assert code in (0, 3), (code, stdout, stderr)
    assert (code == 3) == bool(stderr)
    for line in stderr.splitlines():
        assert line.strip() and "case.json" in line, line


@CLI
@given(clause=st.text(max_size=30))
def test_spec_show_of_any_id_never_crashes(clause: str) -> None:
    code, stdout, stderr = run_cli("spec", "show", "--", clause)  # "--": ids may start with -
    assert_no_crash(stdout, stderr)
    if clause in CLAUSES:
        assert code == 0
    else:
        assert code != 0 and len(stderr.splitlines()) == 1


# ------------------------------------------------------------- bugs fuzzing found, now fixed


# Found by fuzzing (fixed): loads_state(bytes) lets UnicodeDecodeError out on invalid UTF-8.
def test_loads_state_of_invalid_utf8() -> None:
    with pytest.raises(InvalidState):
        loads_state(b'{"ruleset": "\xff"}')


# Found by fuzzing (fixed): loads_state lets RecursionError out on deeply nested JSON.
def test_loads_state_of_deeply_nested_json() -> None:
    with pytest.raises(InvalidState):
        loads_state("[" * 100_000 + "]" * 100_000)


# Found by fuzzing (fixed): loads_state lets ValueError out on an integer of more than 4300 digits.
def test_loads_state_of_a_huge_integer() -> None:
    with pytest.raises(InvalidState):
        loads_state('{"leg": ' + "1" * 5000 + "}")


# Found by fuzzing (fixed): an int of more than 4300 digits makes the error message itself raise.
@pytest.mark.parametrize(
    ("kind", "doc"),
    [
        ("ruleset", {"edition": "first", "players": 10**5000, "modules": [], "variants": []}),
        ("action", {"type": 10**5000}),
        ("roll", 10**5000),
    ],
    ids=["ruleset-players", "action-type", "roll"],
)
def test_huge_integers(kind: str, doc: Any) -> None:
    with pytest.raises(CamelUpError):
        LOADERS[kind](doc)


# Found by fuzzing (fixed): a bad finish card was reported at its index in the sorted hand,
# not in the document.
def test_finish_card_pointer() -> None:
    ruleset = Ruleset(Edition.FIRST, 2)
    racing = ruleset.racing_camels
    state = new_game(ruleset, Setup(tuple(DieRoll(Die(c.value), 1) for c in racing), racing))
    doc = to_json(state)
    doc["players"][0]["finish_cards"] = ["green", "red", "blue", "orange", "yellow", "white"]
    with pytest.raises(InvalidState) as caught:
        state_from_json(doc)
    assert caught.value.pointer == "/players/0/finish_cards/1", caught.value


# Found by fuzzing (fixed): a partner of -1 was reported at /players/-1/partner, a pointer
# leading nowhere, rather than at the seat that names it; and accepted where partnerships are
# in play.
@pytest.mark.parametrize("players", [4, 6])  # partnerships not in play; in play
def test_a_partner_that_is_no_seat_is_reported_at_the_seat_naming_it(players: int) -> None:
    ruleset = Ruleset(Edition.SECOND, players)
    racing = ruleset.racing_camels
    crazy = (DieRoll(Die.GREY, 1, Camel.CRAZY_WHITE), DieRoll(Die.GREY, 2, Camel.CRAZY_BLACK))
    rolls = tuple(DieRoll(Die(c.value), 1) for c in racing)
    state = new_game(ruleset, Setup(rolls, racing, 0, crazy, Camel.CRAZY_WHITE))
    doc = to_json(state)
    doc["players"][1]["partner"] = -1
    with pytest.raises(InvalidState) as caught:
        state_from_json(doc)
    assert caught.value.pointer == "/players/1/partner", caught.value
    assert caught.value.code == ("bad-partner" if players == 6 else "no-partnerships")


# Found by fuzzing (fixed): a deeply nested or 5000-digit case file made `conformance validate`
# exit 1 with 'camelup: RecursionError/ValueError' instead of a problem line and exit 3.
@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"area": "x", "cases": [' + "1" * 5000 + "]}"],
    ids=["deep", "huge-int"],
)
def test_conformance_validate_of_pathological_json(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.json"
        path.write_text(text)
        code, stdout, stderr = run_cli("conformance", "validate", str(path))
    assert_no_crash(stdout, stderr)
    assert code == 3


# ------------------------------------------------- the command line against evil adapters

EVIL = Path(__file__).parent / "faux_adapters" / "evil.py"
EVIL_CASES = [
    "turn.order/wraps-to-seat-zero",
    "turn.order/not-your-turn",
    "turn.game-over/no-action-after-end",
]
# What each misbehaviour may end with: a protocol break (4), a failed start (5), interrupted.
EVIL_EXITS = {
    "exit-leaving-child": {5},
    "child-then-hang": {4},
    "flood": {4},
    "deep": {4},
    "control": {4},
    "stall": {130, 143},  # interrupted once two cases are answered
}


def _parses(fmt: str, text: str) -> None:
    """The report is one its format's readers accept."""
    import junitparser
    from tap.parser import Parser

    if fmt == "jsonl":
        lines = [json.loads(line) for line in text.splitlines()]
        assert lines[0]["report"] == 1 and "counts" in lines[-1]
    elif fmt == "junit":
        assert junitparser.JUnitXml.fromstring(text).tests >= 1
    elif fmt == "tap":
        parsed = list(Parser().parse_text(text))
        for line in parsed:
            if line.category == "test" and not line.ok and "# SKIP" not in text:
                assert line.yaml_block is None or isinstance(line.yaml_block, dict)
    else:
        assert text.splitlines()[-1].endswith(" skipped") or "Error" in text


@pytest.fixture(scope="module")
def turn_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A suite of the two case files that hold the ``turn`` cases, and nothing else: ``--id
    turn`` selects the same eight cases from it as from the whole suite, which each run would
    otherwise read whole (44 files, 766 cases: 1.2 of the 2.8 s of CPU a run costs)."""
    suite = tmp_path_factory.mktemp("turn-suite")
    for path in sorted(suite_directory().glob("cases/*/*.json")):
        if '"id": "turn' in path.read_text("utf-8"):
            target = suite / path.relative_to(suite_directory())
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
    return suite


def test_the_turn_suite_holds_the_cases_the_adapters_misbehave_on(turn_suite: Path) -> None:
    suite = load_suite(turn_suite)  # every file naming a turn case is copied whole, by its text
    assert not suite.problems and set(EVIL_CASES) <= {c.id for c in suite.cases}


@pytest.mark.parametrize("mode", sorted(EVIL_EXITS))  # each misbehaviour, surely
@settings(max_examples=2, deadline=None)
@given(
    case=st.sampled_from(EVIL_CASES),
    fmt=st.sampled_from(["human", "jsonl", "junit", "tap", "markdown"]),
    number=st.sampled_from([signal.SIGINT, signal.SIGTERM]),
)
def test_the_runner_survives_adapters_that_misbehave_as_real_ones_do(
    turn_suite: Path, mode: str, case: str, fmt: str, number: signal.Signals
) -> None:
    """Children left behind, output without newlines, replies nested deep, control
    characters, interruptions: a documented exit code, a report its readers accept, no
    traceback, no internal error, and no process of the adapter left running."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "adapter.log"
        crash = next(c for c in EVIL_CASES if c != case)  # control: errored on one, crash on one
        target = f"{case},{crash}" if mode == "control" else case
        adapter = shlex.join([sys.executable, str(EVIL), mode, str(log), target])
        report = Path(folder) / "report"
        argv = [
            sys.executable, "-m", "camelup", "conformance", "run", "--suite", str(turn_suite),
            "--id", "turn", "--timeout", "1", "--format", fmt, "-o", str(report),
            "--adapter", adapter,
        ]  # fmt: skip
        process = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, cwd=folder)
        if mode == "stall":
            _wait(lambda: _logged(log, "served") >= 2, process)
            process.send_signal(number)
        _, stderr = process.communicate(timeout=120)
        expected = {128 + number} if mode == "stall" else EVIL_EXITS[mode]
        assert process.returncode in expected, (mode, process.returncode, stderr)
        assert_no_crash("", stderr)
        assert "\x1b" not in stderr
        _parses(fmt, report.read_text("utf-8"))
        pids = [int(line.split()[1]) for line in log.read_text().splitlines() if line[:4] == "pid "]
        _wait(lambda: not any(_alive(pid) for pid in pids), None)


def _logged(log: Path, kind: str) -> int:
    if not log.exists():
        return 0
    return sum(line.startswith(kind + " ") for line in log.read_text().splitlines())


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _wait(condition: Callable[[], bool], process: subprocess.Popen[str] | None) -> None:
    """Wait for ``condition`` (a hang guard of two minutes, not a timing assertion)."""
    import time

    deadline = time.monotonic() + 120
    while not condition():
        assert process is None or process.poll() is None, "the run ended before the signal"
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)
