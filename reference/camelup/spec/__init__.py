"""The clause registry, parsed from the Markdown in ``spec/`` (the single source of truth)."""
