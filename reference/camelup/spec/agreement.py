"""Where the code restates a fact of the spec for speed or independence, check they agree.

The library must import without the Markdown, so the variants' rule sets are written in
:data:`camelup.model.ruleset.VARIANT_RULE_SETS` too; and the published ruleset schema lists the
editions, modules and variants as enums, for implementations that read no Python.
``camelup spec check`` runs both checks; ``camelup spec sync`` writes the schema's enums from
the model, so a new variant is named by hand in one place of code only.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path

from camelup.io.jsonio import read_json_file
from camelup.io.resources import schema_directory
from camelup.model.ruleset import VARIANT_RULE_SETS, Edition, Module, Variant
from camelup.spec.registry import Registry


def variant_problems(registry: Registry) -> list[str]:
    """One line per variant whose rule sets in the code differ from the rulings register."""
    problems = []
    in_code = {variant.value: variant for variant in Variant}
    for name in sorted(set(in_code) | set(registry.variants)):
        defined = registry.variants.get(name)
        if defined is None:
            problems.append(f"variant {name} is in the code but no ruling defines it")
            continue
        if name not in in_code:
            problems.append(f"variant {name} ({defined.ruling}) is not in camelup.model.ruleset")
            continue
        editions, modules = VARIANT_RULE_SETS[in_code[name]]
        code = {e.value for e in editions} | {m.value for m in modules}
        if code != set(defined.rule_sets):
            problems.append(
                f"variant {name}: {defined.ruling} defines it for {sorted(defined.rule_sets)},"
                f" camelup.model.ruleset for {sorted(code)}"
            )
    return problems


_IN_CODE: dict[str, type[Enum]] = {"edition": Edition, "modules": Module, "variants": Variant}


def _enums(properties: dict[str, dict[str, object]]) -> dict[str, list[str]]:
    """The enum lists of ``ruleset.schema.json``'s members, the very lists (edited in place)."""
    return {
        "edition": properties["edition"]["enum"],  # type: ignore[dict-item]
        "modules": properties["modules"]["items"]["enum"],  # type: ignore[index]
        "variants": properties["variants"]["items"]["enum"],  # type: ignore[index]
    }


def schema_enum_problems(schema_folder: Path | None = None) -> list[str]:
    """One line per member of ``ruleset.schema.json`` whose enum differs from the model's enum:
    the schema must name exactly the editions, modules and variants the code knows."""
    path = (schema_folder or schema_directory()) / "ruleset.schema.json"
    listed = _enums(read_json_file(path)["properties"])
    problems = []
    for member, enum in _IN_CODE.items():
        wanted = [item.value for item in enum]
        if listed[member] != wanted:
            problems.append(
                f"{path.name}: /properties/{member} lists {listed[member]},"
                f" {enum.__module__}.{enum.__name__} has {wanted}: run `camelup spec sync`"
            )
    return problems


def sync_schema_enums(schema_folder: Path | None = None) -> list[Path]:
    """Write the model's editions, modules and variants into ``ruleset.schema.json``'s enums;
    returns the file if it changed (the schema is written as it is kept: two-space JSON)."""
    path = (schema_folder or schema_directory()) / "ruleset.schema.json"
    document = read_json_file(path)
    listed = _enums(document["properties"])
    if all(listed[member] == [item.value for item in enum] for member, enum in _IN_CODE.items()):
        return []
    for member, enum in _IN_CODE.items():
        listed[member][:] = [item.value for item in enum]
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")
    return [path]
