"""For the tests of engines: Hypothesis strategies over rule sets, setups and reachable states."""
