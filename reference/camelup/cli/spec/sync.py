"""``camelup spec sync``: regenerate the Rulings back-links in the chapter files and, for the
bundled spec, the ruleset schema's enums from the model."""

from __future__ import annotations

import attrs

from camelup.cli.common import Verb, options_from
from camelup.cli.spec.folder import add_spec, spec_directory
from camelup.io import exits


@attrs.frozen
class SyncOptions:
    spec: str | None


def handle(options: SyncOptions) -> int:
    from camelup.spec.agreement import sync_schema_enums
    from camelup.spec.registry import sync_backlinks

    directory = spec_directory(options.spec, rulings=True)
    changed = sync_backlinks(directory)
    if directory.resolve() == spec_directory(None).resolve():  # the schema goes with this spec
        changed += sync_schema_enums()
    for path in changed:
        print(f"updated {path}")
    print(f"spec sync: {len(changed)} file(s) updated")
    return exits.OK


VERB = Verb(
    name="sync",
    summary="regenerate the Rulings back-links of the chapters and the ruleset schema's enums",
    example="camelup spec sync && git diff spec/",
    exit_codes=(
        (exits.OK, "the back-links are written (the files that changed are listed)"),
        (exits.USAGE, "usage error: bad option, no such folder, not a spec folder"),
    ),
    add_arguments=add_spec,
    options=options_from(SyncOptions),
    handle=handle,
)
