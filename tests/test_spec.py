"""`camelup spec check` and the registry: the real spec is clean, and each kind of defect in a
small broken spec is caught and located (file and line)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from camelup.cli import main
from camelup.spec.registry import load_registry, parse_spec, spec_directory

REPO = Path(__file__).resolve().parent.parent
DOSSIER = REPO.parent / "shared" / "research" / "rules-dossier.md"

CHAPTER = """# 1 Test chapter

### 1.1 `alpha.one`

- **Rule sets:** first, second
- **Level:** must
- **Code:** engine
- **Sources:** R2 §1, grade A
- **Dossier:** E2.A1.1

The first rule.

### 1.2 `alpha.two`

- **Rule sets:** second
- **Variant:** some-variant
- **Level:** may
- **Code:** none: a permission
- **Sources:** R2 §2, grade A
- **Dossier:** E2.A1.2

The second rule.
"""

RULINGS = """# Rulings

### RUL-01 A question

- **Dossier:** X-01
- **Clauses:** `alpha.one`, `alpha.two`
- **Defines variant:** `some-variant` (second) — the other reading
- **Question:** Which?
- **Ruling:** This one.
- **Why:** Because.
- **Sources:** R2, grade A.
- **Alternatives:** The other, as variant `some-variant`.
"""


def write_spec(tmp_path: Path, chapter: str = CHAPTER, rulings: str = RULINGS) -> Path:
    (tmp_path / "01-test.md").write_text(chapter, "utf-8")
    (tmp_path / "rulings.md").write_text(rulings, "utf-8")
    main(["spec", "sync", "--spec", str(tmp_path)])
    return tmp_path


def messages(directory: Path) -> list[str]:
    return [str(p) for p in parse_spec(directory).problems]


def test_the_bundled_spec_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spec", "check"]) == 0
    assert "OK" in capsys.readouterr().out


def test_the_fixture_spec_is_clean(tmp_path: Path) -> None:
    directory = write_spec(tmp_path)
    assert messages(directory) == []
    registry = parse_spec(directory)
    assert registry.clause("alpha.two").variant == "some-variant"
    assert registry.rulings_for("alpha.one")[0].id == "RUL-01"
    assert "[RUL-01](rulings.md#rul-01-a-question)" in (directory / "01-test.md").read_text("utf-8")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "### 1.2 `alpha.two`",
            "### 1.2 `alpha.one`",
            r"01-test.md:\d+: duplicate clause ID alpha.one",
        ),
        ("### 1.2 `alpha.two`", "### 1.2 `Alpha..Two`", r"01-test.md:\d+: malformed clause ID"),
        ("### 1.2 `alpha.two`", "### 1.3 `alpha.two`", r"display number 1.3 should be 1.2"),
        ("- **Sources:** R2 §2, grade A\n", "", r"clause alpha.two has no source"),
        ("- **Rule sets:** second\n", "", r"clause alpha.two has no rule sets"),
        ("- **Rule sets:** second\n", "- **Rule sets:** third\n", r"unknown rule set third"),
        ("- **Level:** may", "- **Level:** should", r"has level 'should'"),
        ("- **Code:** none: a permission", "- **Code:** maybe", r"Code must be"),
        (
            "- **Variant:** some-variant",
            "- **Variant:** no-such-variant",
            r"names variant no-such-variant, which no ruling defines",
        ),
    ],
)
def test_each_chapter_defect_is_caught(tmp_path: Path, old: str, new: str, expected: str) -> None:
    directory = write_spec(tmp_path)
    chapter = directory / "01-test.md"
    text = chapter.read_text("utf-8")
    assert old in text
    chapter.write_text(text.replace(old, new, 1), "utf-8")
    found = messages(directory)
    assert any(re.search(expected, m) for m in found), found


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "`alpha.one`, `alpha.two`",
            "`alpha.one`, `alpha.three`",
            r"rulings.md:\d+: ruling RUL-01 names unknown clause alpha.three",
        ),
        (
            "as variant `some-variant`",
            "as variant `other-variant`",
            r"ruling RUL-01 names unknown variant other-variant",
        ),
        (
            "- **Defines variant:** `some-variant` (second) — the other reading\n",
            "",
            r"names variant some-variant, which no ruling defines",
        ),
        ("### RUL-01 A question", "### RULING-1 A question", r"malformed ruling heading"),
        ("- **Why:** Because.\n", "", r"ruling RUL-01 has no Why"),
    ],
)
def test_each_ruling_defect_is_caught(tmp_path: Path, old: str, new: str, expected: str) -> None:
    directory = write_spec(tmp_path)
    rulings = directory / "rulings.md"
    text = rulings.read_text("utf-8")
    assert old in text
    rulings.write_text(text.replace(old, new, 1), "utf-8")
    found = messages(directory)
    assert any(re.search(expected, m) for m in found), found


def test_a_variant_defined_twice_is_caught(tmp_path: Path) -> None:
    second = RULINGS.split("\n", 1)[1].replace("RUL-01", "RUL-02")
    directory = write_spec(tmp_path, rulings=RULINGS + second)
    assert any("variant some-variant is defined twice" in m for m in messages(directory))


def test_stale_backlinks_are_caught_and_sync_fixes_them(tmp_path: Path) -> None:
    directory = write_spec(tmp_path)
    rulings = directory / "rulings.md"
    rulings.write_text(
        rulings.read_text("utf-8").replace("`alpha.one`, `alpha.two`", "`alpha.one`"), "utf-8"
    )
    assert any("back-links are stale" in m for m in messages(directory))
    assert main(["spec", "sync", "--spec", str(directory)]) == 0
    assert messages(directory) == []


def test_check_exits_non_zero_with_one_line_per_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write_spec(tmp_path)
    chapter = directory / "01-test.md"
    chapter.write_text(chapter.read_text("utf-8").replace("`alpha.two`", "`alpha.one`"), "utf-8")
    assert main(["spec", "check", "--spec", str(directory)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert re.match(r".*01-test.md:\d+: duplicate clause ID alpha.one", err[0])
    assert err[-1].startswith("spec check: ")


def test_a_copy_of_the_real_spec_round_trips_through_sync(tmp_path: Path) -> None:
    copy = tmp_path / "spec"
    shutil.copytree(spec_directory(), copy)
    assert main(["spec", "sync", "--spec", str(copy)]) == 0
    for path in spec_directory().glob("*.md"):
        assert (copy / path.name).read_text("utf-8") == path.read_text("utf-8"), path.name


def _dossier_items() -> tuple[set[str], set[str]]:
    text = DOSSIER.read_text("utf-8")
    clauses = set(re.findall(r"^- ((?:E1|E2|WW)(?:\.[A-Z0-9]+)+) ", text, re.M))
    rows = set(re.findall(r"^\| ((?:X)-\d\d) \|", text, re.M))
    rows |= set(re.findall(r"^- \*\*(EC-\d\d) ", text, re.M))
    return clauses, rows


@pytest.mark.skipif(
    not DOSSIER.is_file(), reason="../shared/research/rules-dossier.md is not beside the repo"
)
def test_every_dossier_item_has_a_home() -> None:
    """Every clause of dossier §2 is stated by a clause or listed with a reason it needs none;
    every conflict (§3) and edge case (§4) is settled by a ruling."""
    registry = load_registry()
    clauses, rows = _dossier_items()
    assert len(clauses) > 140 and len(rows) == 15 + 46  # the parse found the lists
    homed = {item for clause in registry.clauses for item in clause.dossier} | set(
        registry.no_clause
    )
    assert sorted(clauses - homed) == []
    ruled = [item for ruling in registry.rulings for item in ruling.dossier]
    assert sorted(rows - set(ruled)) == []
    assert len(ruled) == len(set(ruled)), "a dossier row is settled by two rulings"


def test_the_ruleset_schema_names_exactly_the_models_variants(tmp_path: Path) -> None:
    """A variant is named in the code and in the published schema; spec check holds them equal."""
    from camelup.io.resources import schema_directory
    from camelup.spec.agreement import schema_enum_problems

    assert schema_enum_problems() == []
    shutil.copytree(schema_directory(), tmp_path, dirs_exist_ok=True)
    schema = tmp_path / "ruleset.schema.json"
    document = json.loads(schema.read_text("utf-8"))
    document["properties"]["variants"]["items"]["enum"].remove("final-scoring-net")
    schema.write_text(json.dumps(document), "utf-8")
    (problem,) = schema_enum_problems(tmp_path)
    assert problem.startswith("ruleset.schema.json: /properties/variants lists")
    assert "final-scoring-net" in problem and "camelup.model.ruleset.Variant" in problem


def test_spec_sync_writes_the_schemas_enums_from_the_model(tmp_path: Path) -> None:
    """A new variant is named by hand in the model only: sync writes it into the schema, byte
    for byte as the schema is kept, and leaves an agreeing schema untouched."""
    from camelup.io.resources import schema_directory
    from camelup.spec.agreement import schema_enum_problems, sync_schema_enums

    shutil.copytree(schema_directory(), tmp_path, dirs_exist_ok=True)
    schema = tmp_path / "ruleset.schema.json"
    kept = schema.read_text("utf-8")
    assert sync_schema_enums(tmp_path) == []
    document = json.loads(kept)
    document["properties"]["variants"]["items"]["enum"].remove("final-scoring-net")
    document["properties"]["modules"]["items"]["enum"].append("camel-bazaar")
    schema.write_text(json.dumps(document), "utf-8")
    assert len(schema_enum_problems(tmp_path)) == 2
    assert sync_schema_enums(tmp_path) == [schema]
    assert schema.read_text("utf-8") == kept
    assert schema_enum_problems(tmp_path) == []


def test_trace_in_a_fresh_process_finds_every_site_that_the_docs_find() -> None:
    # `import camelup` loads its names on first use, so a process that imports nothing else
    # must still see every rule's site: `spec trace` is CI's gate, and it once passed only in
    # processes where other tests had loaded the rules first.
    from commands import run_camelup

    done = run_camelup("spec", "trace", cwd=REPO)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "0 problem(s)" in done.stdout


def test_every_site_points_at_its_code_on_either_build() -> None:
    # A site names the .py file and the line where its function starts (its first decorator),
    # on the compiled build (benchmarks/compiled/) too, where a function has no code object
    # and the site is found in the source the build compiled: `spec trace` and the docs' links
    # to code read it.
    from camelup.play.sites import engine_sites

    found = engine_sites()
    assert len(found) > 100
    for site in found:
        assert site.file.endswith(".py") and site.line > 0, site
        lines = Path(site.file).read_text("utf-8").splitlines()[site.line - 1 :]
        if "implements_value(" in lines[0]:
            assert f'"{site.clause}"' in lines[0], site
            continue
        name = site.qualname.rsplit(".", 1)[-1]
        assert lines[0].lstrip().startswith(("@", "def ")), site
        first_def = next(line.strip() for line in lines if line.lstrip().startswith("def "))
        assert first_def.startswith(f"def {name}("), site
