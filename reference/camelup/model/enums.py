"""The base of the model's enums."""

from __future__ import annotations

import enum


class IdentityEnum(enum.Enum):
    """An enum whose members hash by identity.

    Members are singletons compared by identity, so the identity hash is a correct hash, and a
    C-level one: ``Enum.__hash__`` hashes the member's name in Python on every set or dict
    lookup, which the rules do on their hot paths (a tile's side, a selected variant, a camel
    in a hand).
    """

    __hash__ = object.__hash__
