"""Fixtures shared by every test folder (none today: each folder's conftest holds its own)."""
