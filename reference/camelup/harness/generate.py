"""``camelup conformance generate``: cases recorded from random games of the reference engine.

For every ruleset family of :data:`camelup.harness.games.CONFIGS`, the file
``generated/<family>.json`` holds one case per seed: a whole random game (setup and every action,
dice rolls written out) played to the end of the race, with the reference's values of a few key
pointers (track, tiles, each player's money, leg, start player, player to move, result) at the
end of every leg, just before it, and after the last step, and the events of the last step.

The output depends on nothing but the seeds and the engine: the same engine writes the same
bytes on every run, so ``generate --check`` can tell in CI whether the committed files are the
ones the engine records today. The files are regenerated, never edited by hand.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from camelup.harness.families import FAMILIES, family_cases
from camelup.harness.games import CONFIGS, RulesetConfig, random_game
from camelup.io.codec import to_json
from camelup.play.engine import apply
from camelup.rules.setup import new_game

AREA = "generated"
FOLDER = "generated"
WIDTH = 100
PACKED = 64  # an object of arrays this short (a track) is packed several members to a line


def case_id(config: RulesetConfig, seed: int) -> str:
    return f"generated.{config.name}/{seed}"


def _game_label(config: RulesetConfig, players: int) -> str:
    label = f"the {config.edition.value} edition"
    if config.modules:
        label += " with " + ", ".join(sorted(m.value for m in config.modules))
    if config.variants:
        label += " (" + ", ".join(sorted(v.value for v in config.variants)) + ")"
    return f"a random {players}-player game of {label}"


def _key_values(state: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {"/track": state["track"], "/tiles": state["tiles"]}
    for seat, player in enumerate(state["players"]):
        values[f"/players/{seat}/money"] = player["money"]
    for key in ("leg", "start_player", "to_move", "result"):
        values[f"/{key}"] = state[key]
    return values


def record(config: RulesetConfig, seed: int, players: int) -> dict[str, Any]:
    """The case of one random game (JSON, keys in the suite's order)."""
    game = random_game(config.ruleset(players), random.Random(seed))
    state = new_game(game.ruleset, game.setup)
    clauses: dict[str, None] = {}
    positions: list[dict[str, Any]] = []
    leg_ends: list[int] = []
    events: list[Any] = []
    for number, action in enumerate(game.actions, start=1):
        result = apply(state, action)
        state = result.state
        events = [to_json(e) for e in result.events]
        for event in events:
            clauses.setdefault(event["clause"], None)
        if any(e["type"] == "leg_scored" for e in events):
            leg_ends.append(number)
        positions.append(to_json(state))
    last = len(game.actions)
    moments = sorted({m for end in leg_ends for m in (end - 1, end) if m >= 1} | {last})
    expect: list[dict[str, Any]] = [
        {"after": m, "state": _key_values(positions[m - 1])} for m in moments
    ]
    expect.append({"after": last, "events": events, "match": "sequence"})
    return {
        "id": case_id(config, seed),
        "description": f"{_game_label(config, players)}, played to its end ({last} steps)",
        "clauses": list(clauses),
        "source": {"kind": "generated", "ref": f"camelup conformance generate, seed {seed}"},
        "ruleset": to_json(game.ruleset),
        "given": {"setup": to_json(game.setup)},
        "steps": [{"action": to_json(a)} for a in game.actions],
        "expect": expect,
    }


def dump(value: Any, indent: int = 0, width: int = WIDTH) -> str:
    """JSON in the style of the hand-written files, deterministic for a given value: arrays and
    objects that fit in ``width`` stay on one line; an object of short arrays (a track, the
    ticket stacks) is packed several members to a line; a step stays on one line."""
    return _dump(value, _flat(value), indent, width)


def _dump(value: Any, flat: str, indent: int, width: int) -> str:
    # ``flat`` is ``value`` on one line, made by the caller, which needed it already: encoding
    # each object member a second time here was a third of the files' writing.
    if not isinstance(value, list | dict) or not value or len(flat) + indent <= width:
        return flat
    if isinstance(value, dict) and set(value) == {"action"}:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + _dump(x, _flat(x), indent + 2, width) for x in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    keys = [_flat(key) for key in value]
    flats = [_flat(x) for x in value.values()]
    members = [key + ": " + text for key, text in zip(keys, flats, strict=True)]
    if all(isinstance(x, list) for x in value.values()) and all(len(m) <= PACKED for m in members):
        lines: list[str] = []
        for member in members:
            if lines and len(lines[-1]) + len(member) + 2 <= width:
                lines[-1] += ", " + member
            else:
                lines.append(pad + member)
        return "{\n" + ",\n".join(lines) + "\n" + " " * indent + "}"
    rows = []
    for key, member, member_flat, text in zip(keys, value.values(), flats, members, strict=True):
        if len(pad) + len(text) <= width:
            rows.append(pad + text)
        else:
            rows.append(pad + key + ": " + _dump(member, member_flat, indent + 2, width))
    return "{\n" + ",\n".join(rows) + "\n" + " " * indent + "}"


# One encoder for every call: json.dumps builds a new one for each call with these options.
_flat = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def generated_files() -> dict[str, str]:
    """File name (below ``generated/``) -> its exact text."""
    out = {}
    for config in CONFIGS:
        cases = [
            record(config, seed, players)
            for seed, players in zip(config.seeds, config.generated, strict=True)
        ]
        out[f"{config.name}.json"] = dump({"area": AREA, "cases": cases}) + "\n"
    for family in FAMILIES:
        cases = family_cases(family)
        out[f"{family.name}.json"] = dump({"area": AREA, "cases": cases}) + "\n"
    return out


def write(suite: Path) -> list[Path]:
    """(Re)write ``<suite>/generated/``; returns the files written. Stale ``*.json`` files
    there are removed."""
    folder = suite / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    files = generated_files()
    for stale in sorted(folder.glob("*.json")):
        if stale.name not in files:
            stale.unlink()
    written = []
    for name, text in files.items():
        path = folder / name
        path.write_text(text, "utf-8", newline="\n")
        written.append(path)
    return written


def check(suite: Path) -> list[str]:
    """One line per file of ``<suite>/generated/`` that differs from what the engine records
    now (missing, changed or unexpected); empty when they all match."""
    folder = suite / FOLDER
    files = generated_files()
    problems = []
    for name, text in sorted(files.items()):
        path = folder / name
        shown = f"{FOLDER}/{name}"
        if not path.is_file():
            problems.append(f"{shown}: missing (run: camelup conformance generate)")
            continue
        current = path.read_bytes()
        if current != text.encode("utf-8"):
            problems.append(
                f"{shown}: differs from the generated cases{_first_diff(current, text)}"
            )
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            if path.name not in files:
                problems.append(f"{FOLDER}/{path.name}: not a generated file (remove it)")
    return problems


def _first_diff(current: bytes, text: str) -> str:
    old = current.decode("utf-8", "replace").splitlines()
    new = text.splitlines()
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            return f" (first at line {number})"
    return f" ({len(old)} lines instead of {len(new)})"
