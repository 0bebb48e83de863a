"""``cuarenta-sim serve``: its help, its bad options and the message when the extra is missing."""

from __future__ import annotations

import sys

import pytest

from cuarenta_sim.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_serve_help_names_host_port_and_db(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "serve", "--help")
    assert code == 0
    for option in ("--host", "--port", "--db", "127.0.0.1"):
        assert option in out


def test_serve_without_the_web_extra_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "fastapi", None)  # as if not installed
    code, _, err = run(capsys, "serve", "--port", "8765")
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "fastapi" in err and 'pip install -e ".[web]"' in err


def test_serve_refuses_a_bad_port_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "serve", "--port", "70000")
    assert code == 2 and err.count("\n") == 1 and "--port must be 1..65535" in err
