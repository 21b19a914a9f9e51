"""``python -m camelup.adapter``: the reference engine served as an adapter.

The adapter itself is :mod:`camelup.harness.adapter`; this package only gives it its short name.
"""
