"""Shared fixtures: nothing global; browser fixtures live in tests/browser/conftest.py."""
