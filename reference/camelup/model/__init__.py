"""The data model: camels, track, dice, rulesets, the state and its pieces, actions, events and
errors. Nothing here knows a rule beyond what a piece is; the rules are in :mod:`camelup.rules`."""
