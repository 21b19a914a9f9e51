"""The generated documentation: ruling, variant and chapter pages, and the static site.

:mod:`camelup.tools.docs.pages` writes the Markdown of ``docs/rulings/`` and ``docs/spec/``
(with the board diagrams of real conformance cases) from the spec's registry, the suite and the
engine's implementation sites; :mod:`camelup.tools.docs.site` turns the Markdown of ``docs/``
into a folder of plain HTML pages with a clause search. ``camelup docs build`` and ``camelup
docs site`` are the commands. This package sits above the harness (it reads the suite) and
below the command line.
"""
