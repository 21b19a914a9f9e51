"""The real engine, whatever mutant is applied in this process.

``camelup conformance mutants`` runs the suite in-process with one rule function of the engine
replaced (:mod:`camelup.harness.mutation`). Whatever judges a reply, the reference states a
reply is compared with and the rules the judge applies to it, must then still be the real
engine's: a mutant is judged, it never judges.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator


def patched() -> bool:
    """Whether a mutant's patch is active in this process (the engine here is wrong)."""
    if "camelup.harness.mutation.apply" not in sys.modules:
        return False  # never loaded, so never applied: the common case costs no import
    from camelup.harness.mutation.apply import active

    return active()


@contextlib.contextmanager
def unpatched() -> Iterator[None]:
    """Run the body on the real engine, whatever mutant is applied around it."""
    if not patched():
        yield
        return
    from camelup.harness.mutation.apply import lifted

    with lifted():
        yield
