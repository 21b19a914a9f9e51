"""The ``--last-failed`` record, kept for ``run``'s import: it lives in
:mod:`camelup.harness.last_failed` (import it from there)."""

from camelup.harness.last_failed import FILE, only_failed, path, recorded, update

__all__ = ["FILE", "only_failed", "path", "recorded", "update"]
