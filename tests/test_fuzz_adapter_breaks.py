"""An adapter that breaks the protocol part-way through a fuzz run: the findings of the games
judged before the break are kept (unshrunk: shrinking needs the adapter), and a run whose
adapter breaks before any game disagreed still raises AdapterBroke (exit code 4)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from camelup.harness.fuzz import AdapterBroke, Progress, configs_for, fuzz
from camelup.harness.protocol import Broken, InProcessReference, Outcome, Reply

CRASH = "the adapter exited (status 3) while running this case"


class WrongThenBroken(InProcessReference):
    """The reference, less one coin for seat 0 in every initial state, until ``breaking``
    is set: from then on every case ends in a crash."""

    def __init__(self) -> None:
        super().__init__()
        self.breaking = False
        self.probed = False

    def run(self, cases: Sequence[Mapping[str, Any]]) -> Iterator[tuple[int, Outcome]]:
        if self.breaking:
            for index in range(len(cases)):
                yield index, Broken("crash", CRASH)
            return
        probe = not self.probed  # the first call asks which rulesets are played: no steps
        self.probed = True
        for index, outcome in super().run(cases):
            assert isinstance(outcome, Reply)
            body = copy.deepcopy(dict(outcome.body))
            if not probe and "initial_state" in body:
                body["initial_state"]["players"][0]["money"] -= 1
            yield index, Reply(body, outcome.seconds)


def _fuzz(client: WrongThenBroken, games: int) -> Any:
    def after_a_round(_: Progress) -> None:
        client.breaking = True

    return fuzz(
        client,
        client.start(),
        configs_for(["first"]),
        seed=1,
        games=games,
        progress=after_a_round,
    )


def test_the_findings_before_a_break_are_kept_unshrunk() -> None:
    client = WrongThenBroken()
    result = _fuzz(client, games=40)  # two rounds of 20: the adapter breaks in the second
    assert result.broke is not None and str(result.broke) == CRASH
    assert result.games == 20 and result.disagreeing == 20
    assert [f.field for f in result.findings] == ["/players/*/money"]  # grouped by field
    [finding] = result.findings
    assert not finding.confirmed  # not run again: the adapter is broken
    assert finding.shrunk_steps == finding.original_steps


def test_a_break_before_any_disagreement_is_raised() -> None:
    client = WrongThenBroken()
    client.breaking = True
    client.probed = True
    with pytest.raises(AdapterBroke, match="status 3"):
        _fuzz(client, games=20)
