"""The web tests' `client`: every answer it receives is checked against the live /openapi.json
(contract_check.py)."""

import pytest
from contract_check import ContractClient


@pytest.fixture(scope="session")
def client() -> ContractClient:
    return ContractClient()
