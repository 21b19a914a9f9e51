"""Leg odds: the exact oracle on the race kernel (``exact``), the plain enumeration through
``apply`` that checks it (``by_apply``), and the answers kept by position across calls for a
caller that asks about many positions (``cache``)."""
