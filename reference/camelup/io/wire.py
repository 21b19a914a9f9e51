"""What the code needs to know about the JSON wire, read from the published schemas' annotations,
so that no Python table repeats them.

* ``"x-set": ORDER`` on an array of ``state.schema.json`` (or of a schema it refers to): the array
  stands for a set, compared in any order. ``ORDER`` names its canonical order: ``"camels"`` (the
  edition's racing camels in the suite's order, then the grey die), ``"space"`` (by the items'
  ``space``), ``"value"`` (by value).
* ``"x-clause"`` on a definition of ``action.schema.json``: the rule of what that kind of action
  does (the clause a difference no event explains is named after).

The annotations are read once, on first use.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from camelup.io.schemas import bundled

Tokens = tuple[str, ...]
ANY = "*"  # a path token standing for any array index or object key
SET_ORDERS = frozenset({"camels", "space", "value"})


@attrs.frozen
class WireFacts:
    """The annotations of the published schemas that the judge reads."""

    sets: tuple[tuple[Tokens, str], ...]  # (path into a state, its x-set order)
    action_clauses: Mapping[str, str]  # action type -> the x-clause of its definition

    def set_order(self, tokens: Tokens) -> str | None:
        """The canonical order of the set at ``tokens`` of a state, or None: no set there."""
        for path, order in self.sets:
            if len(path) == len(tokens) and all(
                p in (ANY, t) for p, t in zip(path, tokens, strict=True)
            ):
                return order
        return None

    def action_clause(self, kind: object, default: str = "turn.one-action") -> str:
        """The clause of what an action of type ``kind`` does (``default`` for an unknown one)."""
        return self.action_clauses.get(str(kind), default)


@functools.cache
def facts() -> WireFacts:
    documents = bundled().documents
    sets = tuple(
        (tokens, str(node["x-set"]))
        for tokens, node in _locations(documents, "state", documents["state"], ())
        if "x-set" in node
    )
    unknown = sorted({order for _, order in sets} - SET_ORDERS)
    if unknown:
        raise ValueError(f"state.schema.json: unknown x-set order(s): {', '.join(unknown)}")
    action_clauses = {
        str(definition["properties"]["type"]["const"]): str(definition["x-clause"])
        for definition in documents["action"].get("$defs", {}).values()
        if "x-clause" in definition and "const" in definition.get("properties", {}).get("type", {})
    }
    return WireFacts(sets, action_clauses)


def _locations(
    documents: Mapping[str, Any], name: str, node: Any, tokens: Tokens, depth: int = 0
) -> Iterator[tuple[Tokens, Mapping[str, Any]]]:
    """Every schema location reachable from ``node`` (of the file ``name``) with the path of
    the instance member it describes, following ``$ref`` between files."""
    if not isinstance(node, dict) or depth > 12:
        return
    yield tokens, node
    reference = node.get("$ref")
    if isinstance(reference, str):
        target_name, target = _resolve(documents, name, reference)
        yield from _locations(documents, target_name, target, tokens, depth + 1)
    for key, member in node.get("properties", {}).items():
        yield from _locations(documents, name, member, (*tokens, key), depth + 1)
    for keyword in ("items", "additionalProperties"):
        yield from _locations(documents, name, node.get(keyword), (*tokens, ANY), depth + 1)
    for keyword in ("anyOf", "oneOf", "allOf"):
        for branch in node.get(keyword, []):
            yield from _locations(documents, name, branch, tokens, depth + 1)


def _resolve(documents: Mapping[str, Any], name: str, reference: str) -> tuple[str, Any]:
    """The schema ``reference`` (``roll.schema.json#/$defs/die``, ``#/$defs/player``) points to."""
    file, _, fragment = reference.partition("#")
    target_name = file.removesuffix(".schema.json") if file else name
    node: Any = documents[target_name]
    for part in fragment.split("/")[1:]:
        node = node[part]
    return target_name, node


__all__ = ["ANY", "SET_ORDERS", "Tokens", "WireFacts", "facts"]
