"""A real model's trace for the export tests, made once (skipped where the weights are missing)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def minilm_trace(minilm: Any) -> Any:
    return minilm.trace("by the river bank")
