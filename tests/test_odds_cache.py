"""The position cache of the leg odds (``camelup.odds.cache.OddsCache``): an answer kept across
calls is the answer of that position under the rules in force, never a stale one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from camelup import State, TileSide
from camelup.model.camels import Camel
from camelup.odds.cache import OddsCache
from camelup.odds.exact import leg_odds
from camelup.rules import movement, ranking
from helpers import build, ruleset


def _position() -> State:
    return build(
        ruleset("first"),
        {5: "B", 8: "G", 10: "O", 11: "Y", 12: "W"},
        tiles=[(7, 1, TileSide.OASIS)],
        revealed=["G", "O", "Y"],
        pyramid_tickets={0: 3},
    )


def test_a_position_asked_again_is_answered_from_the_cache_as_computed() -> None:
    state, cache = _position(), OddsCache()
    first = cache.leg_odds(state)
    assert first == leg_odds(state)
    assert cache.leg_odds(state) is first
    assert (cache.hits, cache.misses) == (1, 1)


def test_other_tiles_or_another_position_are_not_taken_for_a_kept_one() -> None:
    state, cache = _position(), OddsCache()
    kept = cache.leg_odds(state)
    without_tile = cache.leg_odds(state, ())
    assert without_tile == leg_odds(state, ()) != kept
    moved = build(
        ruleset("first"),
        {6: "B", 8: "G", 10: "O", 11: "Y", 12: "W"},
        tiles=[(7, 1, TileSide.OASIS)],
        revealed=["G", "O", "Y"],
        pyramid_tickets={0: 3},
    )
    assert cache.leg_odds(moved) == leg_odds(moved) != kept
    assert cache.misses == 3


def test_a_patched_rule_gets_no_stale_answer_and_the_real_rules_get_theirs_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state, cache = _position(), OddsCache()
    real = cache.leg_odds(state)

    def last_first(track: Sequence[tuple[Camel, ...]]) -> tuple[Camel, ...]:
        return real_ranking(track)[::-1]

    real_ranking = ranking.ranking
    with monkeypatch.context() as patch:
        patch.setattr(ranking, "ranking", last_first)
        patched = cache.leg_odds(state)
        assert patched == leg_odds(state)  # what the patched rules say, not the kept answer
        assert patched.places() != real.places()
    assert cache.leg_odds(state) is real


def test_a_rule_patched_in_the_kernel_gets_no_stale_tile_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state, cache = _position(), OddsCache()
    real = cache.leg_odds(state)
    step = movement.tile_step

    def pays_nobody(*args: Any, **kwargs: Any) -> movement.Moved:
        moved = step(*args, **kwargs)
        return movement.Moved(moved.landing, moved.crossed)

    monkeypatch.setattr(movement, "tile_step", pays_nobody)
    patched = cache.leg_odds(state)
    assert real.tile_weights and not patched.tile_weights
    assert patched == leg_odds(state)
