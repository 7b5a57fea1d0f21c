"""The documentation's tests: run every example of the README and of docs/."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``slow`` marker these tests use (the suite's list may already hold it)."""
    config.addinivalue_line("markers", "slow: takes seconds to minutes; left out of the fast tier")
