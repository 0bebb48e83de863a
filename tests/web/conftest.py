"""Fixtures of the web app's tests: an app over a fresh SQLite file and its TestClient."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta_sim.web.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database file of the test's own."""
    return tmp_path / "games.sqlite"


@pytest.fixture
def make_client(db: Path) -> Callable[..., TestClient]:
    """``make_client()``: a TestClient of a new app on :func:`db` (a "restart")."""

    def make(**kwargs: Any) -> TestClient:
        return TestClient(create_app(db, seed=7), **kwargs)

    return make


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """A TestClient of the app on the test's database."""
    return make_client()


@pytest.fixture
def start(client: TestClient) -> Callable[..., dict[str, Any]]:
    """``start(**settings)``: create a game (a data against the random bot by default)
    and return its view."""

    def make(**body: Any) -> dict[str, Any]:
        settings = {"rules": "quito", "bot": "random", "episode": "data", **body}
        response = client.post("/api/games", json=settings)
        assert response.status_code == 201, response.text
        return response.json()

    return make
