"""The rule behind a failing check, in words and as links: what the reports and ``explain``
print under a failure, so that a reader sees the clause's sentence without running
``camelup spec show`` and knows which pages of ``docs/`` to open.

The links are paths of the repository's ``docs/`` (the site, ``camelup docs site``, mirrors
them with ``.html``), so they work on GitHub and in a checkout alike.
"""

from __future__ import annotations

import re

import attrs

from camelup.spec.registry import Clause, load_registry

_LONGEST = 160  # one terminal line, about


@attrs.frozen
class RuleLinks:
    """A clause's first sentence and the pages of the clause and of the case's ruling."""

    clause: str
    text: str
    clause_page: str
    ruling: str | None
    ruling_page: str | None
    question: str | None

    def line(self) -> str:
        """``rule: "...": docs/spec/07-crazy.md#77-crazyno-wrap; RUL-04 docs/rulings/...``"""
        pages = self.clause_page + (f"; {self.ruling} {self.ruling_page}" if self.ruling else "")
        return f'rule: "{self.text}" ({pages})'

    def markdown(self) -> str:
        """The same, with links: the ruling's carries its question as title."""
        links = f"[`{self.clause}`]({self.clause_page})"
        if self.ruling and self.ruling_page:
            title = f' "{self.question}"' if self.question else ""
            links += f" · [{self.ruling}]({self.ruling_page}{title})"
        return f"rule: {self.text} ({links})"


def _one_sentence(clause: Clause) -> str:
    text = " ".join(re.sub(r"\*\*|`", "", clause.text).split())
    first = re.split(r"(?<=[.;:])\s", text, maxsplit=1)[0]
    return first if len(first) <= _LONGEST else first[: _LONGEST - 1].rsplit(" ", 1)[0] + " …"


def rule_links(clause_id: str, ruling_id: str | None = None) -> RuleLinks | None:
    """The rule of ``clause_id`` (and the case's ruling), or None for an ID the spec lacks."""
    registry = load_registry()
    if clause_id not in registry.clause_ids:
        return None
    clause = registry.clause(clause_id)
    rulings = {ruling.id: ruling for ruling in registry.rulings}
    ruling = rulings.get(ruling_id or "")
    return RuleLinks(
        clause=clause.id,
        text=_one_sentence(clause),
        clause_page=f"docs/spec/{clause.file}#{clause.anchor}",
        ruling=ruling.id if ruling else None,
        ruling_page=f"docs/rulings/{ruling.id}.md" if ruling else None,
        question=ruling.title if ruling else None,
    )
