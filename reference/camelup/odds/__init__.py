"""Leg odds: the exact oracle on the race kernel (``exact``), and the plain enumeration through
``apply`` that checks it (``by_apply``)."""
