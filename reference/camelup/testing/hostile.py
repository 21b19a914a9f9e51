"""A Hypothesis strategy for hostile JSON documents: the defects of the CLI audits, combined.

Each document is an array whose members are drawn from the defects below, in random order,
among harmless values, so that a test can check that the reader's verdict never depends on
which defect comes first (the audit's exit 70 came from a duplicate key *before* deep nesting).
:func:`hostile_documents` draws the text with the list of defects it holds.
"""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import strategies as st

from camelup.io.gate import MAX_NESTING

__all__ = ["DEFECTS", "Hostile", "hostile_documents"]


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


# Each defect is a JSON array member (or a part of one) that the reader must refuse.
DEFECTS: dict[str, str] = {
    "duplicate key": '{"a": 1, "a": 2}',
    "NaN": "NaN",
    "Infinity": "-Infinity",
    "long integer": "9" * 5000,
    "number beyond a double": "-1e400",
    "lone surrogate": '"\\ud800"',
    "too deep": _deep(MAX_NESTING + 1),
    "far too deep": _deep(20 * MAX_NESTING),
    "deep in a key's value": '{"k": ' + "[" * (MAX_NESTING + 5) + "]" * (MAX_NESTING + 5) + "}",
}
HARMLESS = ('{"x": [1, 2]}', '"[[[[ text, not nesting"', "0", "null", '{"":{"":[]}}')
DEEP = frozenset({"too deep", "far too deep", "deep in a key's value"})


class Hostile(NamedTuple):
    text: str
    defects: tuple[str, ...]

    @property
    def too_deep(self) -> bool:
        return bool(DEEP.intersection(self.defects))


@st.composite
def hostile_documents(draw: st.DrawFn) -> Hostile:
    """A JSON array holding one to four defects (at least one) among harmless members."""
    defects = draw(st.lists(st.sampled_from(sorted(DEFECTS)), min_size=1, max_size=4))
    members = [DEFECTS[d] for d in defects]
    members += draw(st.lists(st.sampled_from(HARMLESS), max_size=3))
    order = draw(st.permutations(range(len(members))))
    return Hostile("[" + ", ".join(members[i] for i in order) + "]", tuple(defects))
