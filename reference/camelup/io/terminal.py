"""Whether to colour text for a stream: ``--color auto|always|never``, honouring ``NO_COLOR``
(https://no-color.org). An option given on the command line beats the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import IO

__all__ = ["use_color"]


def use_color(
    choice: str, stream: IO[str] | None, environ: Mapping[str, str] | None = None
) -> bool:
    """Whether to colour text: ``always``/``never`` as asked; ``auto`` only on a terminal, and
    not when ``NO_COLOR`` is set to anything but "" (https://no-color.org) or TERM is dumb."""
    if choice != "auto":
        return choice == "always"
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", "") != "" or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
