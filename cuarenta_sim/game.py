"""The game contract and the registry of games: :class:`Game`, :func:`register`,
:func:`get_game`, :data:`GAMES`.

A game is a subpackage (``cuarenta_sim.cuarenta``, ``cuarenta_sim.cuatrola``) whose
``__init__`` builds one :class:`Game` -- a frozen table of the game's rules, levels, policies
and the callables the shared layer needs -- and calls :func:`register`. Everything above the
games (the simulation pipeline :mod:`cuarenta_sim.simulation`, the scenario dispatcher, reports,
the command line) reads the registry and never imports a game module, so adding a game is
adding one package and one registration (``pgx.make(env_id)``, OpenSpiel's
``register_game``).

The built-in games are loaded lazily: the first look-up in :data:`GAMES` (or
:func:`get_game`) imports the packages named in :data:`BUILTIN_GAMES` with
:func:`importlib.import_module`. Importing this module imports no game.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .core import Core

#: The game of a scenario or command that names none (``docs/cuarenta.md`` section F).
DEFAULT_GAME = "cuarenta"
#: Packages of the built-in games, imported on the first look-up in the registry.
BUILTIN_GAMES = ("cuarenta_sim.cuarenta", "cuarenta_sim.cuatrola")


class RunSpec(Protocol):
    """What the pipeline reads of a game's simulation spec (built by ``Game.make_spec``).

    A spec is picklable (it travels to Dask workers) and fixes every record of a simulation
    together with the game index: ``run_range(spec, start, stop)`` depends on nothing else.

    Attributes
    ----------
    level : str
        The level name (one of ``Game.levels``).
    keep_hands : bool
        Whether per-hand records are produced.
    """

    level: str
    keep_hands: bool

    def provenance(self) -> dict[str, Any]:
        """JSON-ready description of the rules and players: ``rules`` (slug),
        ``rules_switches``, ``players`` and the policies (game-specific keys)."""

    def default_chunk(self) -> int:
        """Games (or hands) per chunk when the caller gives no ``chunk_size``."""

    def records_per_game(self) -> float:
        """Upper estimate of hand records per game (1 at a hand level), for the memory check."""


@dataclass(frozen=True)
class GameOption:
    """An extra simulation option of one game (e.g. Cuatrola's bidding policies).

    Attributes
    ----------
    name : str
        Keyword of :func:`cuarenta_sim.simulation.simulate` and of ``Game.make_spec``.
    default : Any
        Value used when the option is not given.
    flag : str
        Command-line flag, e.g. ``"--bid-policies"``.
    help : str
        One line for ``--help``.
    """

    name: str
    default: Any
    flag: str
    help: str


@dataclass(frozen=True)
class LazyCall:
    """A picklable callable that imports ``module`` on its first call and calls ``attr`` there.

    Lets a game register callables of its heavy modules (numba kernels, pandas frames) without
    importing them at registration.

    Attributes
    ----------
    module : str
        Absolute module name, e.g. ``"cuarenta_sim.cuarenta.simulation"``.
    attr : str
        Dotted attribute path inside the module, e.g. ``"Aggregates.from_dict"``.
    """

    module: str
    attr: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        target: Any = importlib.import_module(self.module)
        for part in self.attr.split("."):
            target = getattr(target, part)
        return target(*args, **kwargs)


def pipeline_hooks(package: str) -> dict[str, LazyCall]:
    """The pipeline callables of a game package laid out like the built-in games, as
    :class:`Game` keyword arguments: ``make_spec``, ``run_range`` and ``frames``
    (``<package>.simulation``'s ``make_spec``, ``run_range``, ``range_frames``),
    ``aggregate_frames`` and ``aggregates_from_dict`` (``<package>.aggregates``'
    ``aggregate_frames``, ``Aggregates.from_dict``), each imported on first call.

    Parameters
    ----------
    package : str
        The game package, e.g. ``"cuarenta_sim.cuatrola"`` (``__package__`` of its
        ``definition`` module).

    Returns
    -------
    dict of str to LazyCall
    """
    simulation, aggregates = f"{package}.simulation", f"{package}.aggregates"
    return {
        "make_spec": LazyCall(simulation, "make_spec"),
        "run_range": LazyCall(simulation, "run_range"),
        "frames": LazyCall(simulation, "range_frames"),
        "aggregate_frames": LazyCall(aggregates, "aggregate_frames"),
        "aggregates_from_dict": LazyCall(aggregates, "Aggregates.from_dict"),
    }


@dataclass(frozen=True)
class Unsupported:
    """The default of a :class:`Game` hook the game does not provide (a game may fill only
    its core and rules: the toy game of the tests). Calling it raises ``NotImplementedError``
    naming the hook.

    Attributes
    ----------
    hook : str
        The field name, e.g. ``"make_spec"``.
    """

    hook: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"this game provides no {self.hook!r} (cuarenta_sim.game.Game)")


@dataclass(frozen=True)
class Game:
    """One game's contract with the shared layer: tables and callables, no behaviour.

    Attributes
    ----------
    name : str
        Registry key and ``--game`` value, e.g. ``"cuarenta"``.
    title : str
        Display name, e.g. ``"Cuarenta"``.
    spec_doc : str
        Path of the rules spec, e.g. ``"docs/cuarenta.md"``.
    engine_version : int
        Bumped whenever the game's simulated behaviour changes (recorded in provenance).
    player_counts : tuple of int
        Accepted numbers of players; ``default_players`` is one of them.
    default_players : int
    levels : tuple of str
        Simulation levels, the hand level first (``("data", "chica", "mesa")``).
    default_level : str
    units : mapping of str to (str, str)
        Level -> (singular, plural) name of one simulated unit, e.g. ``"data": ("data",
        "datas")``.
    default_rules : str
        Default preset name.
    presets : mapping of str to rule set
        Preset name -> rule-set object.
    resolve_rules : callable
        ``resolve_rules(rules)``: a preset name, slug, dict or rule-set object -> rule set;
        ``ValueError`` on bad input.
    rules_rows : callable
        ``rules_rows(rule_set) -> [[switch, value, base preset value], ...]``.
    presets_rows : callable
        ``presets_rows() -> (header, rows)``: one row per switch, one column per preset.
    default_policies : str
        Default ``policies`` argument.
    policy_table : callable
        ``policy_table() -> (header, rows)`` of the game's policies (the ``policies`` command).
    options : mapping of str to GameOption
        Extra keyword options of :func:`~cuarenta_sim.simulation.simulate` for this game.
    studies : mapping of str to str
        Report name -> ``"module:function"`` of its builder
        (``function(settings, progress) -> GeneratedReport``), imported when the report runs.
    make_spec : callable
        ``make_spec(rules, players, policies, level, root, keep_hands, **options)`` -> a
        picklable :class:`RunSpec`; validates players, policies, level and options
        (``ValueError``); ``rules`` is already resolved.
    run_range : callable
        ``run_range(spec, start, stop)`` -> the game's raw output of games ``[start, stop)``
        (numba kernel, current numba threads).
    frames : callable
        ``frames(spec, output) -> (hands, games)``: tidy frames of one range with absolute
        indices (either may be None). A ``games`` frame has the columns ``hands`` (hands
        played) and ``truncated`` (bool, cut short by the engine's cap).
    aggregates_from_dict : callable
        ``aggregates_from_dict(data)``: the game's aggregates from their ``to_dict()`` form
        (chunk markers of a dataset, Dask task outputs).
    aggregate_frames : callable
        ``aggregate_frames(level, hands, games)`` -> an ``aggregates`` instance (no provenance).
    summaries : callable
        ``summaries(results_or_aggregates, confidence) -> {title: estimate frame}``.
    evaluate : callable
        The scenario judge: ``evaluate(obj) -> dict`` (never raises; ``{"error": ...}``).
    replay : callable
        ``replay(rules, players, policies, seed, level, index, **options) -> str``: one
        simulated hand or game, play by play, from the reference engine.
    warmup : callable
        Compile (or load from numba's cache) the game's kernels.
    default_n : int
        Default number of units of :func:`~cuarenta_sim.simulation.simulate`.
    record_bytes : int
        Upper estimate of the memory of one hand record in ``Results.hands`` (bytes).
    core : callable or None
        ``core()`` -> the game's step-level core (:class:`cuarenta_sim.core.Core`: new state,
        legal actions, apply, observation, returns, clone, resample, JSON), imported on first
        call (a :class:`LazyCall`); the PettingZoo and OpenSpiel adapters of
        :mod:`cuarenta_sim.rl` play any game that has one. ``None``: the game has no core.
    tournament_module : str or None
        Dotted name of the module that plays the game's duplicate tournaments
        (:func:`cuarenta_sim.tournament.game_tournament`, the ``tournament`` command): it
        provides ``check_tournament(settings)`` (ValueError before any game),
        ``cuarenta_tournament``-style ``tournament(settings, progress) -> TournamentResult``,
        ``tournament_text(result)`` (console tables) and ``tournament_identity(settings)``
        (canonical policies and rules for the provenance). ``None``: the game has no
        duplicate match player, and ``tournament --game NAME`` is refused.

    The pipeline hooks (``make_spec`` .. ``warmup``) default to :class:`Unsupported`: a game
    that registers only its rules and core still plays through the RL adapters.
    """

    name: str
    title: str
    spec_doc: str
    engine_version: int
    player_counts: tuple[int, ...]
    default_players: int
    levels: tuple[str, ...]
    default_level: str
    units: Mapping[str, tuple[str, str]]
    default_rules: str
    presets: Mapping[str, Any]
    resolve_rules: Callable[[Any], Any]
    rules_rows: Callable[[Any], list[list[str]]]
    presets_rows: Callable[[], tuple[list[str], list[list[str]]]]
    default_policies: str
    policy_table: Callable[[], tuple[list[str], list[list[str]]]]
    make_spec: Callable[..., RunSpec] = Unsupported("make_spec")
    run_range: Callable[[Any, int, int], Any] = Unsupported("run_range")
    frames: Callable[[Any, Any], tuple[Any, Any]] = Unsupported("frames")
    aggregates_from_dict: Callable[[Mapping[str, Any]], Any] = Unsupported("aggregates_from_dict")
    aggregate_frames: Callable[..., Any] = Unsupported("aggregate_frames")
    summaries: Callable[..., dict[str, Any]] = Unsupported("summaries")
    evaluate: Callable[[Any], dict[str, Any]] = Unsupported("evaluate")
    replay: Callable[..., str] = Unsupported("replay")
    warmup: Callable[[], None] = Unsupported("warmup")
    default_n: int = 1000
    record_bytes: int = 64
    core: Callable[[], Core] | None = None
    tournament_module: str | None = None
    options: Mapping[str, GameOption] = field(default_factory=dict)
    studies: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.default_players not in self.player_counts:
            raise ValueError(f"game {self.name!r}: default_players not in player_counts")
        if self.default_level not in self.levels or set(self.units) != set(self.levels):
            raise ValueError(f"game {self.name!r}: default_level and units must match levels")

    def unit(self, level: str, plural: bool = True) -> str:
        """Name of one simulated unit of ``level`` (plural by default), e.g. ``"datas"``."""
        return self.units[level][1 if plural else 0]


_REGISTRY: dict[str, Game] = {}
_LOCK = threading.RLock()
_LOADED = False


def register(game: Game) -> None:
    """Add ``game`` to the registry (called by the game package's ``__init__``).

    Registering the same object twice is a no-op (a re-imported package).

    Raises
    ------
    ValueError
        If ``game`` is not a :class:`Game` or another game already has its name.
    """
    if not isinstance(game, Game):
        raise ValueError(f"register() takes a Game, got {type(game).__name__}")
    with _LOCK:
        other = _REGISTRY.get(game.name)
        if other is not None and other is not game:
            raise ValueError(f"a game named {game.name!r} is already registered")
        _REGISTRY[game.name] = game


def unregister(name: str) -> None:
    """Remove the game called ``name`` from the registry (a test's own game, once done).

    Raises
    ------
    ValueError
        No game of that name is registered.
    """
    with _LOCK:
        if name not in _REGISTRY:
            raise ValueError(f"no game named {name!r} is registered")
        del _REGISTRY[name]


def _load_builtin() -> None:
    """Import the built-in game packages once (each registers itself)."""
    global _LOADED
    if _LOADED:
        return
    with _LOCK:
        if not _LOADED:
            for module in BUILTIN_GAMES:
                importlib.import_module(module)
            _LOADED = True


class _Registry(Mapping[str, Game]):
    """Read-only view of the registered games, by name in alphabetical order (registration
    order depends on which game module was imported first); loads the built-in games on first
    use."""

    def __getitem__(self, name: str) -> Game:
        _load_builtin()
        return _REGISTRY[name]

    def __iter__(self) -> Iterator[str]:
        _load_builtin()
        return iter(sorted(_REGISTRY))

    def __len__(self) -> int:
        _load_builtin()
        return len(_REGISTRY)

    def __repr__(self) -> str:
        return f"GAMES({', '.join(self)})"


#: Every registered game by name: ``GAMES["cuatrola"]``, ``list(GAMES)``.
GAMES: Mapping[str, Game] = _Registry()


def get_game(name: object) -> Game:
    """Return the registered game called ``name``.

    Raises
    ------
    ValueError
        Unknown game: ``"unknown game 'x'; accepted: cuarenta, cuatrola"``.
    """
    if isinstance(name, Game):
        return name
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    raise ValueError(f"unknown game {name!r}; accepted: {', '.join(GAMES)}")
