"""``cuarenta-sim scenario --game cuatrola`` answers kind ``solve`` (issue 22); bad input is
one line, exit 2."""

from __future__ import annotations

import json


def test_solve_from_stdin(run_cli) -> None:
    line = json.dumps(
        {
            "kind": "solve",
            "trump": "o",
            "hands": [[], ["3c"], ["Ao"], ["Rc"]],
            "trick": ["Ac"],
            "seat": 1,
        }
    )
    r = run_cli("scenario", "--game", "cuatrola", "-", stdin=line + "\n")
    assert r.code == 0, r.err
    out = json.loads(r.out.splitlines()[0])
    assert out["values"] == [{"card": "3c", "value": -46}] and out["best"] == -46


def test_bad_solve_is_one_line_exit_2(run_cli) -> None:
    line = json.dumps({"kind": "solve", "trump": "o", "hands": [["Ao"]], "seat": 0})
    r = run_cli("scenario", "--game", "cuatrola", "-", stdin=line + "\n")
    r.assert_bad_input()
    assert "hands must be a list of 4 card lists" in r.err
