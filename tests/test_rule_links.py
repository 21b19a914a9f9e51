"""A failure names its rule in words and links its pages: the human and Markdown reports and
``explain`` quote the failing clause's first sentence and point at the clause's page and, for
a case that assumes a ruling, the ruling's page."""

from __future__ import annotations

from pathlib import Path

import pytest

from camelup.harness.rule_links import rule_links
from camelup.spec.registry import load_registry
from commands import PYTHON, run_cli

REPO = Path(__file__).resolve().parent.parent
TOY = f"{PYTHON} {REPO / 'docs' / 'toy_adapter.py'}"
CASE = "tile.land.crazy-reversed/crazy-carrying-racing"  # the toy adapter gets it wrong


def test_the_rule_is_one_line_of_the_clause_and_its_pages_exist() -> None:
    rule = rule_links("tile.land.crazy-reversed", "RUL-11")
    assert rule is not None
    clause = load_registry().clause("tile.land.crazy-reversed")
    assert rule.text.startswith("For a unit whose moving camel is a crazy camel")
    assert "\n" not in rule.line() and rule.text in " ".join(clause.text.split())
    page, anchor = rule.clause_page.split("#")
    assert f"`{clause.id}`" in (REPO / page).read_text("utf-8") and anchor == clause.anchor
    assert rule.ruling_page is not None and (REPO / rule.ruling_page).is_file()
    assert rule.question == "Which way does a tile move a unit led by a crazy camel?"
    assert rule_links("no.such-clause") is None
    assert rule_links("tile.land.crazy-reversed", None) is not None


@pytest.mark.parametrize("fmt", ["human", "markdown"])
def test_a_failure_in_the_reports_quotes_its_rule_and_links_it(
    capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    status, out, _ = run_cli(
        capsys, "conformance", "run", "--adapter", TOY, "--id", CASE, "--format", fmt
    )
    assert status == 1
    # The toy picks the wrong crazy camel: the failure is named after the reference's events
    # (the crazy-camel choice), and its rule is the one quoted.
    assert "rule: " in out and "If exactly one of the two crazy camels carries racing" in out
    assert "docs/spec/07-crazy.md#73-crazyselectonly-carrier" in out
    assert "docs/rulings/RUL-11.md" in out
    if fmt == "markdown":
        assert '[RUL-11](docs/rulings/RUL-11.md "Which way does a tile move' in out


def test_explain_quotes_the_rule_of_the_first_divergence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(capsys, "conformance", "explain", CASE, "--adapter", TOY)
    assert status == 1
    fail = out.index(f"FAIL {CASE}")
    assert out[fail:].splitlines()[1].startswith('  rule: "If exactly one of the two crazy camels')
