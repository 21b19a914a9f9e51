"""``camelup spec``: check, sync, trace and show the clauses and rulings of ``spec/``."""

from __future__ import annotations

from typing import Any

from camelup.cli.common import Verb
from camelup.cli.spec import check, show, sync, trace

VERBS: tuple[Verb[Any], ...] = (check.VERB, sync.VERB, trace.VERB, show.VERB)
