"""Play: the engine (``apply``, ``legal_actions``, ``chance_outcomes``) and state validation,
both built on the rules."""
