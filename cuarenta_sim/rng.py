"""Reproducible randomness: per-(game, data, stream) generators, in numba and in pure Python.

Contract (``docs/engine_contract.md``, section "Randomness"):

* ``root = root_from_seed(seed)``: a uint64 from ``numpy.random.SeedSequence(seed)``.
* Every random draw belongs to one **stream** of one data: ``stream_key(root, game, data,
  stream)`` mixes the four integers with splitmix64; the key seeds a xoshiro256** generator.
  ``game`` is the hand index at level ``data`` and the chica / mesa index otherwise; ``data``
  is the data's position inside that game (0 at level ``data``).
* Streams: :data:`STREAM_DECK` shuffles the deck, ``STREAM_POLICY + seat`` feeds the seat's
  policy, :data:`STREAM_GAME` draws the first dealer of a chica or mesa (R3.4).
* Never a shared stream: a draw depends only on (root, game, data, stream), so results are
  identical whatever the threads, chunks or workers.

All arithmetic is modulo 2**64. The numba functions work on ``np.uint64`` scalars and return
new states as tuples, so the hot loop allocates nothing. :class:`PyRng` is the pure-Python twin
used by the reference engine; the unit tests pin both to golden vectors.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB

STREAM_DECK = 0
STREAM_POLICY = 1  # + seat (0..3)
STREAM_GAME = 8
STREAM_SEARCH = 16  # + seat: reserved for lookahead policies' private sampling
STREAM_POSITION = 24  # random test positions (cuarenta.reference.positions.random_position)

_U_GOLDEN = np.uint64(GOLDEN)
_U_M1 = np.uint64(_M1)
_U_M2 = np.uint64(_M2)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U17 = np.uint64(17)
_U7 = np.uint64(7)
_U45 = np.uint64(45)
_U5 = np.uint64(5)
_U9 = np.uint64(9)
_U64 = np.uint64(64)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U3 = np.uint64(3)


def root_from_seed(seed: int | None) -> tuple[int, int | None]:
    """Return ``(root, entropy)``: the uint64 root of all streams and the entropy used.

    Parameters
    ----------
    seed : int or None
        A non-negative integer; ``None`` draws fresh OS entropy, which is returned so that
        the run can be recorded and reproduced (pass it back as ``seed``).

    Returns
    -------
    (int, int or None)
        ``root`` in ``[0, 2**64)`` and the seed actually used.

    Raises
    ------
    ValueError
        If ``seed`` is negative or not an integer.
    """
    if seed is None:
        ss = np.random.SeedSequence()
        seed = int(ss.entropy)  # type: ignore[arg-type]
    elif isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    ss = np.random.SeedSequence(int(seed))
    return int(ss.generate_state(1, dtype=np.uint64)[0]), int(seed)


# ------------------------------------------------------------------ pure-Python twin
def mix64(z: int) -> int:
    """splitmix64 step: the output for state ``z`` (the state is incremented first)."""
    z = (z + GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def stream_key_py(root: int, game: int, data: int, stream: int) -> int:
    """Key of one stream: ``mix64(mix64(mix64(root ^ game) ^ data) ^ stream)``."""
    k = mix64((root ^ game) & MASK64)
    k = mix64(k ^ data)
    return mix64(k ^ stream)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class PyRng:
    """Pure-Python xoshiro256** seeded from a stream key; twin of the numba generator.

    Parameters
    ----------
    key : int
        A uint64 from :func:`stream_key_py`. The state words are the splitmix64 outputs for
        ``key, key + GOLDEN, key + 2*GOLDEN, key + 3*GOLDEN``.
    """

    __slots__ = ("s",)

    def __init__(self, key: int) -> None:
        self.s = [mix64((key + i * GOLDEN) & MASK64) for i in range(4)]

    @classmethod
    def for_stream(cls, root: int, game: int, data: int, stream: int) -> PyRng:
        """Return the generator of one stream (see the module docstring)."""
        return cls(stream_key_py(root, game, data, stream))

    def next64(self) -> int:
        """Return the next uint64 (xoshiro256**)."""
        s = self.s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def randbelow(self, n: int) -> int:
        """Return an unbiased integer in ``[0, n)`` by rejection (``n >= 1``)."""
        threshold = ((1 << 64) - n) % n
        while True:
            r = self.next64()
            if r >= threshold:
                return r % n


def shuffled_deck_py(root: int, game: int, data: int) -> list[int]:
    """Return the deck (card ids 0..39) of one data, shuffled by its deck stream.

    Fisher-Yates from the top: for ``i = 39 .. 1``, swap position ``i`` with
    ``randbelow(i + 1)``. The numba twin shuffles ranks with the same swaps.
    """
    rng = PyRng.for_stream(root, game, data, STREAM_DECK)
    deck = list(range(40))
    for i in range(39, 0, -1):
        j = rng.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ------------------------------------------------------------------ numba generator
@njit(cache=True, inline="always")
def nb_mix64(z: np.uint64) -> np.uint64:
    """numba twin of :func:`mix64` (uint64 in, uint64 out)."""
    z = z + _U_GOLDEN
    z = (z ^ (z >> _U30)) * _U_M1
    z = (z ^ (z >> _U27)) * _U_M2
    return z ^ (z >> _U31)


@njit(cache=True)
def nb_stream_key(root: np.uint64, game: np.int64, data: np.int64, stream: np.int64) -> np.uint64:
    """numba twin of :func:`stream_key_py`."""
    k = nb_mix64(root ^ np.uint64(game))
    k = nb_mix64(k ^ np.uint64(data))
    return nb_mix64(k ^ np.uint64(stream))


@njit(cache=True)
def nb_seed(key: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """Return the xoshiro256** state ``(s0, s1, s2, s3)`` for a stream key."""
    return (
        nb_mix64(key),
        nb_mix64(key + _U_GOLDEN),
        nb_mix64(key + _U2 * _U_GOLDEN),
        nb_mix64(key + _U3 * _U_GOLDEN),
    )


@njit(cache=True, inline="always")
def _nb_rotl(x: np.uint64, k: np.uint64) -> np.uint64:
    return (x << k) | (x >> (_U64 - k))


@njit(cache=True)
def nb_next(state: np.ndarray) -> np.uint64:
    """Advance a xoshiro256** state held in ``state[0:4]`` (uint64 array) and return a draw."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _nb_rotl(s1 * _U5, _U7) * _U9
    t = s1 << _U17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _nb_rotl(s3, _U45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(cache=True)
def nb_randbelow(state: np.ndarray, n: np.int64) -> np.int64:
    """Unbiased integer in ``[0, n)`` (``n >= 1``) from the generator in ``state[0:4]``."""
    un = np.uint64(n)
    while True:
        r = nb_next(state)
        # r >= (2**64 - n) % n, the rejection threshold, which is below n: the division that
        # computes it is only needed when r < n.
        if r >= un or r >= (_U0 - un) % un:
            return np.int64(r % un)


@njit(cache=True)
def nb_init_stream(
    state: np.ndarray, root: np.uint64, game: np.int64, data: np.int64, stream: np.int64
) -> None:
    """Seed ``state[0:4]`` (a uint64 array) for one stream, in place."""
    s0, s1, s2, s3 = nb_seed(nb_stream_key(root, game, data, stream))
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3


@njit(cache=True)
def nb_shuffled_ranks(
    deck: np.ndarray, state: np.ndarray, root: np.uint64, game: np.int64, data: np.int64
) -> None:
    """Fill ``deck`` (uint8[40]) with the ranks of the data's shuffled deck, in place.

    Same swaps as :func:`shuffled_deck_py`, applied to ranks (``card // 4``); ``state`` is a
    scratch uint64[4] array for the deck stream.
    """
    nb_init_stream(state, root, game, data, STREAM_DECK)
    for c in range(40):
        deck[c] = c // 4
    for i in range(39, 0, -1):
        j = nb_randbelow(state, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp


# ------------------------------------------------------------------ any deck size
def shuffled_cards_py(root: int, game: int, data: int, n_cards: int) -> list[int]:
    """Return card ids ``0 .. n_cards - 1`` shuffled by the deck stream of one data.

    Same Fisher-Yates as :func:`shuffled_deck_py` (which is the case ``n_cards = 40``), for
    games with other decks (Cuatrola's 20 cards). The numba twin is
    :func:`nb_shuffled_cards`.
    """
    rng = PyRng.for_stream(root, game, data, STREAM_DECK)
    deck = list(range(n_cards))
    for i in range(n_cards - 1, 0, -1):
        j = rng.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@njit(cache=True)
def nb_shuffled_cards(
    deck: np.ndarray, state: np.ndarray, root: np.uint64, game: np.int64, data: np.int64
) -> None:
    """Fill ``deck`` (an integer array of length n) with card ids ``0..n-1`` shuffled as
    :func:`shuffled_cards_py` does, in place; ``state`` is a scratch uint64[4] array."""
    nb_init_stream(state, root, game, data, STREAM_DECK)
    n = deck.shape[0]
    for c in range(n):
        deck[c] = c
    for i in range(n - 1, 0, -1):
        j = nb_randbelow(state, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
