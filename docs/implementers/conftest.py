# camelup's conformance suite, case by case, as tests of this project
from minimal_adapter import MinimalAdapter

from camelup.testing.plugin import add_suite


def pytest_configure(config):
    add_suite(config, MinimalAdapter, "docs/implementers/minimal-expectations.toml")
