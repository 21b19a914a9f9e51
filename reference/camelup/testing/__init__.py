"""For the tests of engines: the in-process adapter class that runs the conformance suite in
pytest (:mod:`camelup.testing.adapter`, :mod:`camelup.testing.plugin`), and Hypothesis
strategies over rule sets, setups and reachable states (:mod:`camelup.testing.strategies`)."""

from camelup.testing.adapter import Adapter, InProcessAdapter, load_adapter

__all__ = ["Adapter", "InProcessAdapter", "load_adapter"]
