"""Atomic file output (cuarenta_sim.io): a file appears complete or not at all."""

import json
import os
from pathlib import Path

import pytest

from cuarenta_sim import io


def _listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_write_text_creates_parents_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "out.txt"
    io.write_text_atomic(target, "hola ♥\n")
    assert target.read_text(encoding="utf-8") == "hola ♥\n"
    assert _listing(target.parent) == ["out.txt"]


def test_write_text_replaces_an_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    io.write_text_atomic(target, "new")
    assert target.read_text() == "new"
    assert _listing(tmp_path) == ["out.txt"]


def test_temporary_is_a_hidden_sibling_of_the_destination(tmp_path: Path) -> None:
    target = tmp_path / "hands.parquet"
    with io.atomic_path(target) as tmp:
        assert tmp.parent == tmp_path
        assert tmp.name.startswith(".hands.parquet.") and tmp.name.endswith(".tmp")
        assert not target.exists()
        tmp.write_bytes(b"data")
    assert target.read_bytes() == b"data"
    assert not tmp.exists()


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt()])
def test_failure_inside_the_block_leaves_nothing(tmp_path: Path, error: BaseException) -> None:
    target = tmp_path / "out.bin"
    with pytest.raises(type(error)), io.atomic_path(target) as tmp:
        tmp.write_bytes(b"half written")
        raise error
    assert _listing(tmp_path) == []


def test_failure_keeps_the_previous_file_intact(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_text("complete old report")
    with pytest.raises(ValueError), io.atomic_path(target) as tmp:
        tmp.write_text("partial")
        raise ValueError("interrupted")
    assert target.read_text() == "complete old report"
    assert _listing(tmp_path) == ["report.md"]


def test_failed_rename_removes_the_temporary(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()
    (target / "inside").write_text("x")  # a non-empty directory cannot be replaced by a file
    with pytest.raises(OSError), io.atomic_path(target) as tmp:
        tmp.write_text("content")
    assert _listing(tmp_path) == ["taken"]


def test_interrupted_rename_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupt at the very last step (the rename) still leaves no partial file."""

    def interrupted(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    target = tmp_path / "out.json"
    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        io.write_json_atomic(target, {"a": 1})
    assert _listing(tmp_path) == []


def test_write_json_is_sorted_indented_and_newline_terminated(tmp_path: Path) -> None:
    target = tmp_path / "provenance.json"
    io.write_json_atomic(target, {"b": 1, "a": [1, 2], "path": Path("x/y")})
    text = target.read_text()
    assert text.endswith("}\n")
    assert text.index('"a"') < text.index('"b"') < text.index('"path"')
    assert json.loads(text) == {"a": [1, 2], "b": 1, "path": "x/y"}
    assert '\n  "a": [' in text


def test_unwritable_destination_raises_oserror(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(OSError):
        io.write_text_atomic(blocker / "child.txt", "x")
    assert _listing(tmp_path) == ["file"]
