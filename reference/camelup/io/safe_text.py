"""Text from outside made safe to show: on a terminal, in a TAP YAML block, in a human report.

An adapter's stderr, its ``implementation.name``, a case file or a reply may hold control
characters: ESC sequences that clear the screen or set a terminal's title, NUL, a carriage
return that overwrites a line. A leaf module (it imports nothing of camelup), for the reports
and for the command line alike.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and lone surrogates (which no UTF-8 output
# can carry): each is outside YAML's printable set or acts on a terminal.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character (but tab and newline) and lone surrogate written
    as a ``\\xNN`` or ``\\uXXXX`` escape."""
    return _UNPRINTABLE.sub(_escape, text)
