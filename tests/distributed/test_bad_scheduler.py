"""An address where no Dask scheduler answers fails fast with one clear error (no hang)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from cuarenta_sim import distributed


@pytest.fixture(params=["silent", "http"])
def fake_scheduler(request: pytest.FixtureRequest) -> Iterator[str]:
    """A TCP server that accepts connections and never answers, or answers with HTTP."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    stop = threading.Event()
    clients: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            clients.append(conn)
            if request.param == "http":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in clients:
        conn.close()
    server.close()


def test_wrong_peer_is_a_clear_error(fake_scheduler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT_S", 2)
    with (
        pytest.raises(ValueError, match="could not connect to a Dask scheduler at"),
        distributed.dask_client(fake_scheduler),
    ):
        pass
