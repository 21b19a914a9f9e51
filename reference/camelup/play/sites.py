"""Every implementation site of the rules, whatever has been imported so far.

``camelup.model.trace.sites()`` lists the sites of the modules already loaded, and ``import
camelup`` loads its public names only on first use (so that the command line's signal handlers
come first), so a tool that checks or shows the sites imports every module of ``model/``,
``rules/`` and ``play/`` through here rather than trusting its own imports to reach them all.
"""

from __future__ import annotations

import importlib
import pkgutil

import camelup.model
import camelup.play
import camelup.rules
from camelup.model.trace import Site, sites


def engine_sites() -> tuple[Site, ...]:
    """The implementation sites of every module of the engine's three lowest layers."""
    for package in (camelup.model, camelup.rules, camelup.play):
        for module in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
    return sites()
