"""Leg odds: the exact oracle on the race kernel (``exact``), whole races played by dice on it
(``races``), the plain enumeration through ``apply`` that checks it (``by_apply``), and the
answers kept by position across calls for a caller that asks about many positions
(``cache``)."""
