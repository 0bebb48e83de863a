"""A play-by-play text of one simulated Cuatrola hand or game, checkable by eye.

:func:`replay` plays hand or game ``index`` of a seeded run with the reference engine (the same
deal and plays as record ``index`` of ``simulate(game="cuatrola", ...)``) and
:func:`format_hands` writes, per hand: the dealer, mano and trump card (C1.4), the cards dealt
to each seat, the bids (C2), the contract and who sits out (C2.2), every trick with its cards,
winner and points (C3, C1.3), the cantes (C4), and the hand's result: contract made or failed,
tricks, points and the game points scored (C5), then the game's winner (C6).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...limits import game_index
from ...rng import root_from_seed
from ..cards import SUIT_NAMES, format_card, format_cards, from_mask
from ..contracts import CONTRACTS, DECLARATIONS, NONE
from ..policies import resolve_bid_policies, resolve_play_policies
from ..rules import CuatrolaRules, resolve_rules
from ..trace_format import KIND_BID, KIND_CANTE, KIND_DEAL, KIND_END, KIND_PLAY, KIND_TRICK
from .game import GameRecord, HandRecord, play_game, play_hand


def _pairs(a: int, b: int) -> str:
    return f"pair 0 {a}, pair 1 {b}"


def format_hands(
    hands: Sequence[HandRecord], trace: Sequence[tuple[int, ...]], label: str = "Hand {hand}"
) -> list[str]:
    """Lines describing each hand of ``hands`` from its reference trace rows.

    Parameters
    ----------
    hands : sequence of HandRecord
        The hands played, in order (their ``dealt`` masks give the cards dealt).
    trace : sequence of tuple of int
        The trace rows of those hands (``docs/cuatrola_contract.md`` section 6, columns
        :data:`cuarenta_sim.cuatrola.trace_format.TRACE_COLUMNS`).
    label : str
        How a hand is introduced; ``{hand}`` is replaced by its position in the trace.

    Returns
    -------
    list of str
        One line per step; pairs are 0 (seats 0, 2) and 1 (seats 1, 3).
    """
    by_hand = {h.hand: h for h in hands}
    lines: list[str] = []
    trick: list[str] = []
    trump = 0
    for kind, hand, seat, card, value, a, b, s0, s1 in trace:
        if kind == KIND_DEAL:
            rec = by_hand[hand]
            trump = value
            if lines:
                lines.append("")
            lines.append(
                f"{label.format(hand=hand)}: dealer seat {seat}, mano seat {(seat + 1) % 4}; trump "
                f"{SUIT_NAMES[trump]} (the dealer's last card, {format_card(card)}); scores "
                f"{_pairs(s0, s1)}"
            )
            for s in range(4):
                cards = " ".join(format_cards(from_mask(rec.dealt[s])))
                lines.append(f"  seat {s} (pair {s % 2}): {cards}")
        elif kind == KIND_BID:
            lines.append(f"  bid: seat {seat} {DECLARATIONS[value]}")
        elif kind == KIND_PLAY:
            if not trick:
                lines.append(f"  trick {value + 1}:")
            trick.append(f"seat {seat} {format_card(card)}")
        elif kind == KIND_TRICK:
            lines[-1] += " " + ", ".join(trick)
            trick = []
            lines.append(
                f"    won by seat {seat} (pair {seat % 2}) for {value} points; points so far "
                f"{_pairs(a, b)}"
            )
        elif kind == KIND_CANTE:
            what = "trump suit" if card == trump else "plain suit"
            lines.append(
                f"    cante: seat {seat} sings rey and caballo of {SUIT_NAMES[card]} ({what}), "
                f"{value} points; {_pairs(a, b)}"
            )
        elif kind == KIND_END:
            rec = by_hand[hand]
            if card == NONE:
                head = "no contract (all passed)"
            else:
                outcome = "made" if value == 1 else "failed"
                head = f"{CONTRACTS[card]} by seat {seat} (pair {seat % 2}) {outcome}"
            lines.append(
                f"  result: {head}; tricks {_pairs(*rec.tricks)}; points {_pairs(*rec.points)} "
                f"plus cantes {_pairs(*rec.cantes)}; game points {_pairs(a, b)}; scores "
                f"{_pairs(s0, s1)}"
            )
    return lines


def replay(
    rules: CuatrolaRules | str | dict,
    players: int,
    policies: str | Sequence[str],
    seed: int,
    level: str,
    index: int,
    bid_policies: str | Sequence[str] = "threshold",
) -> str:
    """Play hand (level ``"hand"``) or game (level ``"game"``) ``index`` of a seeded run with
    the reference engine and return its play-by-play text.

    Parameters
    ----------
    rules : CuatrolaRules, str or dict
        Preset name, slug, dict or rules.
    players : int
        Must be 4 (C1.1).
    policies, bid_policies : str or sequence of str
        Play and bidding policies, as for ``simulate(game="cuatrola")``.
    seed : int
        Non-negative seed of the run.
    level : str
        ``"hand"`` or ``"game"``.
    index : int
        Hand or game index within the run, >= 0.

    Returns
    -------
    str
        A header (rules, seed, policies), then per hand the deal, bids, tricks, cantes and
        result (:func:`format_hands`), and at level game the winner.

    Raises
    ------
    ValueError
        Bad rules, players, policies, seed, level or index.
    """
    ruleset = resolve_rules(rules)
    if isinstance(players, bool) or players != 4:
        raise ValueError(f"Cuatrola is played by 4 (C1.1); players must be 4, got {players!r}")
    plays = resolve_play_policies(policies)
    bids = resolve_bid_policies(bid_policies)
    index = game_index(index)
    if level not in ("hand", "game"):
        raise ValueError(f"unknown Cuatrola level {level!r}; accepted: hand, game")
    if seed is None:
        raise ValueError("a replay needs an explicit seed (a non-negative integer)")
    root, _ = root_from_seed(seed)
    trace: list[tuple[int, ...]] = []
    head = [
        f"Cuatrola, rules {ruleset.slug()}, seed {seed}, level {level}, {level} {index}",
        f"play policies (seats 0-3): {', '.join(p.name() for p in plays)}",
        f"bidding policies (seats 0-3): {', '.join(p.name() for p in bids)}",
        "",
    ]
    if level == "hand":
        rec = play_hand(ruleset, root, index, 0, index % 4, [0, 0], plays, bids, trace)
        return "\n".join(head + format_hands([rec], trace, label=f"Hand {index}"))
    game: GameRecord = play_game(ruleset, root, index, plays, bids, trace)
    lines = [*head, f"Game {index}: first dealer seat {game.first_dealer}, to {ruleset.target}"]
    lines.append("")
    lines += format_hands(game.hands, trace, label=f"Game {index}, hand {{hand}}")
    lines.append("")
    if game.truncated:
        lines.append(
            f"Game {index} truncated after {len(game.hands)} hands, scores {_pairs(*game.scores)}"
        )
    else:
        lines.append(
            f"Game {index} won by pair {game.winner} (seats {game.winner} and "
            f"{game.winner + 2}), scores {_pairs(*game.scores)}, after {len(game.hands)} hands"
        )
    return "\n".join(lines)
