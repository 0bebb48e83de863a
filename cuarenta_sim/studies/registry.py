"""The study registry: every report's name, game, defaults, option checks and builder.

A game's package registers its studies when its study module is imported
(``register_study(Study(name="odds", game="cuarenta", ...))`` at the end of
:mod:`cuarenta_sim.cuarenta.studies`). This module never imports a game: the registry rides on
the game registry's lazy loading (:data:`cuarenta_sim.game.GAMES`): the first time the study
registry is read (:data:`STUDIES`, :func:`get_study`, :func:`run_study`) it walks the
registered games and imports, by module name, the modules each game names in
:attr:`cuarenta_sim.game.Game.studies` (report name -> ``"module:function"``), checking that
each of those reports was registered with that game and that builder. So a game's study
module may import :mod:`cuarenta_sim.studies` freely and there is no import circle. The
command line (``cuarenta-sim report``) and the docs read the registry: the list of reports,
each one's defaults, the options it takes, and the checks run before any simulation.

Built-in studies, in registration order:

========================  ==========  ================================================
name                      game        what
========================  ==========  ================================================
``quito-vs-cuenca``       cuarenta    paired comparison of the two scorings (R7.2)
``odds``                  cuarenta    exact dealing odds vs simulated; caida rate, risk
``sensitivity``           cuarenta    every switch flipped alone from a base preset
``strategies``            cuarenta    duplicate tournament (head-to-head); folk tactics
``players-guide``         cuarenta    what to do at the table: win odds, caida risk, edges
``cuatrola-bidding``      cuatrola    P(make) and EV of each bid by hand class
========================  ==========  ================================================
"""

from __future__ import annotations

import importlib
import shlex
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .framework import GeneratedReport, Progress, StudySettings

#: Options every study takes (``cuarenta-sim report NAME --n ... --seed ...``).
COMMON_OPTIONS = ("n", "seed", "confidence", "threads")
#: Options a study may take or refuse (:attr:`Study.options`).
STUDY_OPTIONS = (
    "players",
    "policies",
    "chicas",
    "mesas",
    "rules",
    "confirm",
    "confirm_n",
    "precision",
)
#: Confidence level left out of reproduce commands (the command line's default).
DEFAULT_CONFIDENCE = 0.95


def _no_parse(values: dict[str, Any]) -> dict[str, Any]:
    return values


@dataclass(frozen=True)
class Study:
    """One report: what it is, which game it studies, its defaults, checks and builder.

    Attributes
    ----------
    name : str
        Registry key and ``cuarenta-sim report NAME``; also the directory ``reports/NAME``.
    game : str
        The game it studies (``"cuarenta"`` or ``"cuatrola"``).
    title : str
        Short title (help and docs).
    description : str
        One line for ``--help`` and the docs.
    defaults : mapping
        Default of each setting the command line may leave out: ``n`` (required, a positive
        int), and for the options the study takes, ``players`` (tuple of int), ``policies``
        (tuple of str) and ``rules`` (str). A value may be a callable with no argument,
        evaluated when settings are made (e.g. a default that depends on the engine).
    check : callable
        ``check(settings)`` raises ValueError (one line: what is wrong, what is accepted) for
        settings the study cannot run; called by :meth:`settings` and :func:`run_study` before
        any simulation.
    build : callable
        ``build(settings, progress)`` runs the study and returns a :class:`GeneratedReport`.
    options : tuple of str
        The options of :data:`STUDY_OPTIONS` the study takes; giving another one is an error.
    refused : mapping of str to str
        Why an option the study does not take does not apply (shown in the error).
    reproduce : tuple of str
        Options written in the reproduce command after ``--n`` and ``--seed``, in order;
        ``"mesas?"`` writes ``--mesas`` only when it was given.
    parse : callable
        ``parse(values)`` turns the option values (defaults filled; strings as typed on the
        command line or Python values) into :class:`StudySettings` fields, raising ValueError;
        the game's own parsing of policies and rules. Default: unchanged.
    n_unit : str
        What ``--n`` counts, for messages (``"datas"``, ``"hands per bid"``).
    player_counts : tuple of int or None
        Accepted player counts; None: the game's (:attr:`cuarenta_sim.game.Game.player_counts`).
    player_rule : str
        The rule that fixes them, cited in messages (``"R2.1"``).
    steps : callable or None
        ``steps(settings)``: one relative cost (e.g. estimated seconds) per progress message
        :attr:`build` sends, in order; the report's progress shows step i of that many and
        its share of the estimated work. None: unknown.
    """

    name: str
    game: str
    title: str
    description: str
    defaults: Mapping[str, Any]
    check: Callable[[StudySettings], None]
    build: Callable[[StudySettings, Progress | None], GeneratedReport]
    options: tuple[str, ...] = ()
    refused: Mapping[str, str] = field(default_factory=dict)
    reproduce: tuple[str, ...] = ()
    parse: Callable[[dict[str, Any]], dict[str, Any]] = _no_parse
    n_unit: str = "datas"
    player_counts: tuple[int, ...] | None = None
    player_rule: str = ""
    steps: Callable[[StudySettings], Sequence[float]] | None = None

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower() or " " in self.name:
            raise ValueError(f"study name must be lower case without spaces, got {self.name!r}")
        if not self.game:
            raise ValueError(f"study {self.name!r} names no game")
        n = self.defaults.get("n")
        if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
            raise ValueError(
                f"study {self.name!r}: defaults['n'] must be a positive int, got {n!r}"
            )
        for what, names in (("options", self.options), ("refused", tuple(self.refused))):
            bad = [o for o in names if o not in STUDY_OPTIONS]
            if bad:
                raise ValueError(
                    f"study {self.name!r}: {what} {bad} unknown; accepted: "
                    f"{', '.join(STUDY_OPTIONS)}"
                )
        bad = [o for o in self.reproduce if o.rstrip("?") not in self.options]
        if bad:
            raise ValueError(
                f"study {self.name!r}: reproduce names options it does not take: {bad}"
            )

    # ------------------------------------------------------------------ settings
    def settings(
        self,
        *,
        n: int | None = None,
        seed: int = 0,
        players: str | int | Sequence[int] | None = None,
        policies: str | Sequence[str] | None = None,
        chicas: int | None = None,
        mesas: int | None = None,
        rules: str | None = None,
        confidence: float = DEFAULT_CONFIDENCE,
        threads: int | None = None,
        confirm: str | None = None,
        confirm_n: int | None = None,
        precision: float | None = None,
    ) -> StudySettings:
        """Check the options of ``cuarenta-sim report NAME`` and build the settings.

        Every check runs here, before any simulation: the common values, the options this
        study does not take (None means "not given"), the game's parsing (:attr:`parse`) and
        the study's :attr:`check`.

        Parameters
        ----------
        n : int or None
            Size (:attr:`n_unit`), > 0; None: ``defaults["n"]``.
        seed : int
            Non-negative seed of every simulation.
        players : str, int, sequence of int or None
            Player counts (``"2,4"``, ``4``, ``(2, 4)``); None: the default.
        policies : str, sequence of str or None
            Policy specs, comma-separated in a string; None: the default.
        chicas, mesas : int or None
            Games per rule set and player count (studies that take them).
        rules : str or None
            Preset or slug; None: the default.
        confidence : float
            Two-sided confidence level, in (0, 1).
        threads : int or None
            numba threads, 1 to ``NUMBA_NUM_THREADS``.
        confirm : str or None
            Policy list of a confirmatory run (studies that take it); ``"none"`` for none.
        confirm_n : int or None
            Size of the confirmatory run.
        precision : float or None
            Target interval half-width in percentage points (studies that take it): ``n`` is
            sized by :func:`precision_n`, and so are the chicas and mesas of a study that
            plays them (unless given); not together with ``n``.

        Returns
        -------
        StudySettings

        Raises
        ------
        ValueError
            Any bad or inapplicable option; the message names it and says what is accepted.
        """
        import numba

        from ..limits import MAX_RUN, is_whole, whole_number
        from ..stats import z_value

        if n is not None and (not is_whole(n) or not 1 <= n <= MAX_RUN):
            raise ValueError(
                f"--n must be a positive whole number of {self.n_unit} up to {MAX_RUN:,}, got {n!r}"
            )
        n = None if n is None else int(n)
        seed = whole_number(seed, "--seed", 0)
        for option, value in (("chicas", chicas), ("mesas", mesas), ("confirm-n", confirm_n)):
            if value is not None:
                whole_number(value, f"--{option}", 1, MAX_RUN)
        chicas, mesas = (None if v is None else int(v) for v in (chicas, mesas))
        confirm_n = None if confirm_n is None else int(confirm_n)
        top = numba.config.NUMBA_NUM_THREADS
        if threads is not None and (not is_whole(threads) or not 1 <= threads <= top):
            raise ValueError(
                f"--threads must be a whole number from 1 to {top} (NUMBA_NUM_THREADS), "
                f"got {threads!r}"
            )
        z_value(confidence)
        given = {
            "players": players,
            "policies": policies,
            "chicas": chicas,
            "mesas": mesas,
            "rules": rules,
            "confirm": confirm,
            "confirm_n": confirm_n,
            "precision": precision,
        }
        for option, value in given.items():
            if value is not None and option not in self.options:
                reason = self.refused.get(option)
                raise ValueError(
                    f"--{option} does not apply to {self.name}"
                    + (f": {reason}" if reason else "")
                    + f"; got {value!r}"
                )
        values: dict[str, Any] = {
            "n": n,
            "seed": seed,
            "chicas": chicas,
            "mesas": mesas,
            "confidence": confidence,
            "threads": threads,
        }
        values.update(
            (k, v) for k, v in given.items() if k in ("players", "policies", "rules", "confirm")
        )
        if confirm_n is not None:
            values["confirm_n"] = confirm_n
        if precision is not None:
            if n is not None:
                raise ValueError("give --n or --precision, not both")
            values["n"] = precision_n(precision, confidence)
            # The chica and mesa rates get the same half-width: as many chicas and mesas as
            # datas (a study's default share of n, e.g. n // 40 chicas, would leave a handful).
            for level in ("chicas", "mesas"):
                if level in self.options and values[level] is None:
                    values[level] = values["n"]
        for key, default in self.defaults.items():
            if values.get(key) is None:
                values[key] = default() if callable(default) else default
        # A setting with neither a value nor a study default keeps StudySettings' default.
        values = {
            k: v
            for k, v in values.items()
            if v is not None or k in ("chicas", "mesas", "threads", "confirm", "confirm_n")
        }
        if str(values.get("confirm", "")).strip().lower() in ("none", ""):
            if confirm_n is not None:
                raise ValueError(
                    "--confirm-n needs a confirmatory model; drop it or give --confirm MODEL "
                    "(not none)"
                )
            values["confirm"], values["confirm_n"] = None, None
        if "players" in values:
            values["players"] = self.parse_players(values["players"])
        if isinstance(values.get("policies"), str):
            values["policies"] = (values["policies"],)
        settings = StudySettings(**self.parse(values))
        self.check(settings)
        return settings

    def parse_players(self, players: str | int | Sequence[int]) -> tuple[int, ...]:
        """Player counts from ``"2,4"``, ``4`` or ``(2, 4)``.

        Parameters
        ----------
        players : str, int or sequence of int

        Returns
        -------
        tuple of int
            Distinct counts, each in :attr:`player_counts`.

        Raises
        ------
        ValueError
            Anything else; the message lists the accepted values.
        """
        if self.player_counts is not None:
            counts = self.player_counts
        else:
            from ..game import get_game

            counts = get_game(self.game).player_counts
        accepted = ", ".join(str(c) for c in counts)
        if len(counts) > 1:  # "2, 4 or 2,4": each alone, or all of them
            accepted += " or " + ",".join(str(c) for c in counts)
        rule = f" ({self.player_rule})" if self.player_rule else ""
        message = f"--players must be {accepted}{rule}, got {players!r}"
        if isinstance(players, str):
            parts = [p.strip() for p in players.split(",")]
            if not all(p.isdigit() for p in parts):
                raise ValueError(message)
            values = tuple(int(p) for p in parts)
        elif isinstance(players, int) and not isinstance(players, bool):
            values = (players,)
        else:
            values = tuple(players)
        if not values or any(v not in counts for v in values) or len(set(values)) != len(values):
            raise ValueError(message)
        return values

    def command(self, settings: StudySettings) -> str:
        """The ``cuarenta-sim report`` command line that reproduces ``settings``' numbers.

        Parameters
        ----------
        settings : StudySettings

        Returns
        -------
        str
            Shell-quoted; ``--n``, ``--seed``, the :attr:`reproduce` options, and
            ``--confidence`` when not 0.95. Threads are left out (they never change the
            numbers).
        """
        args = [
            "cuarenta-sim",
            "report",
            self.name,
            "--n",
            str(settings.n),
            "--seed",
            str(settings.seed),
        ]
        for option in self.reproduce:
            key = option.rstrip("?")
            if option.endswith("?") and getattr(settings, key) is None:
                continue
            if key == "confirm_n" and settings.confirm is None:
                continue
            value = {
                "players": lambda: ",".join(str(p) for p in settings.players),
                "policies": lambda: (
                    ";".join(settings.models) if settings.models else ",".join(settings.policies)
                ),
                "confirm": lambda: settings.confirm or "none",
                "confirm_n": lambda: str(settings.confirm_n),
                "chicas": lambda: str(settings.n_chicas),
                "mesas": lambda: str(settings.n_mesas),
                "rules": lambda: settings.rules,
            }[key]()
            args += [f"--{key.replace('_', '-')}", value]
        if settings.confidence != DEFAULT_CONFIDENCE:
            args += ["--confidence", f"{settings.confidence:g}"]
        return shlex.join(args)


def precision_n(precision: float, confidence: float = DEFAULT_CONFIDENCE) -> int:
    """Units for a target interval half-width (``--precision``), via ``stats.required_n``.

    ``precision`` is the wanted half-width in percentage points of a proportion estimated
    from independent units (a per-data or per-chica rate), at the worst case ``p = 50%``:
    ``n = z^2 / 4 / h^2`` (:func:`cuarenta_sim.stats.required_n`, ``kind="proportion"``).
    Means, ratios and paired differences then get their own, usually narrower, intervals
    (a paired difference only varies on the pairs that differ).

    Parameters
    ----------
    precision : float
        Half-width in percentage points, in (0, 50); e.g. 0.1 asks for +-0.1 pp.
    confidence : float
        Two-sided level.

    Returns
    -------
    int
        Units to run (at least 2).

    Raises
    ------
    ValueError
        A precision that is not a number in (0, 50).
    """
    from ..limits import finite_number
    from ..stats import required_n

    try:
        ok = 0.0 < finite_number(precision, "--precision") < 50.0
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            "--precision must be a half-width in percentage points between 0 and 50 "
            f"(e.g. 0.1), got {precision!r}"
        )
    return required_n("proportion", float(precision) / 100.0, confidence=confidence)


# --------------------------------------------------------------------------- the registry
_REGISTRY: dict[str, Study] = {}
#: Games whose study modules were imported and checked.
_loaded: set[str] = set()


def register_study(study: Study) -> None:
    """Add a study to the registry (a game's study module calls it at import).

    Parameters
    ----------
    study : Study

    Raises
    ------
    ValueError
        If another study of the same name is registered (registering the same name for the
        same game again, e.g. after a module reload, replaces it).
    """
    if not isinstance(study, Study):
        raise ValueError(f"register_study takes a Study, got {type(study).__name__}")
    old = _REGISTRY.get(study.name)
    if old is not None and old.game != study.game:
        raise ValueError(f"study {study.name!r} is already registered for game {old.game!r}")
    _REGISTRY[study.name] = study


def load_builtin_studies() -> None:
    """Import the study modules every registered game names (once); each registers its studies.

    The games come from :data:`cuarenta_sim.game.GAMES` (itself loaded lazily); for each
    ``name -> "module:function"`` of :attr:`~cuarenta_sim.game.Game.studies` the module is
    imported by name.

    Raises
    ------
    ImportError
        If a study module cannot be imported.
    ValueError
        If a game names a report that its module did not register for that game, or with
        another builder.
    """
    from ..game import GAMES

    for game in GAMES.values():
        if game.name in _loaded:
            continue
        for target in game.studies.values():
            importlib.import_module(target.partition(":")[0])
        # Checked once per game, right after its modules registered their studies.
        for name, target in game.studies.items():
            module, _, function = target.partition(":")
            study = _REGISTRY.get(name)
            if study is None or study.game != game.name:
                raise ValueError(
                    f"game {game.name!r} names report {name!r} ({target}), but {module} did "
                    f"not register it for {game.name}"
                )
            if (study.build.__module__, study.build.__name__) != (module, function):
                raise ValueError(
                    f"report {name!r}: game {game.name!r} names builder {target}, the "
                    f"registered study builds with "
                    f"{study.build.__module__}:{study.build.__name__}"
                )
        _loaded.add(game.name)


class _Studies(Mapping[str, Study]):
    """Read-only view of the registry; loads the built-in studies on first use."""

    def __getitem__(self, name: str) -> Study:
        load_builtin_studies()
        return _REGISTRY[name]

    def __iter__(self) -> Iterator[str]:
        load_builtin_studies()
        return iter(_ordered_names())

    def __len__(self) -> int:
        load_builtin_studies()
        return len(_REGISTRY)

    def __repr__(self) -> str:
        return f"STUDIES({', '.join(self)})"


def _ordered_names() -> list[str]:
    """Study names grouped by game in the games' registry order, each game's in the order its
    :attr:`~cuarenta_sim.game.Game.studies` lists them (then registration order): the same
    order whichever module happened to be imported first."""
    from ..game import GAMES

    rank = {name: i for i, name in enumerate(GAMES)}
    listed = {n: i for game in GAMES.values() for i, n in enumerate(game.studies)}
    names = list(_REGISTRY)

    def key(n: str) -> tuple[int, int, int]:
        game = rank.get(_REGISTRY[n].game, len(rank))
        return (game, listed.get(n, len(listed)), names.index(n))

    return sorted(names, key=key)


#: Every registered study by name, grouped by game in the games' registry order, each game's
#: in the order the game lists them (read-only).
STUDIES: Mapping[str, Study] = _Studies()


def study_names(game: str | None = None) -> tuple[str, ...]:
    """Names of the registered studies, of one game or of all.

    Parameters
    ----------
    game : str or None

    Returns
    -------
    tuple of str
        Grouped by game in the games' registry order, each game's in the order it lists them.
    """
    return tuple(n for n, s in STUDIES.items() if game is None or s.game == game)


def get_study(name: str, game: str | None = None) -> Study:
    """The registered study ``name``.

    Parameters
    ----------
    name : str
        A registered study name.
    game : str or None
        When given, the study must be of this game (``cuarenta-sim report NAME --game G``).

    Returns
    -------
    Study

    Raises
    ------
    ValueError
        Unknown name (the message lists the registered ones), or a study of another game.
    """
    if name not in STUDIES:
        raise ValueError(f"unknown report {name!r}; accepted: {', '.join(study_names())}")
    study = STUDIES[name]
    if game is not None and study.game != game:
        others = study_names(game)
        raise ValueError(
            f"report {name!r} studies {study.game}, not {game}; {game} reports: "
            f"{', '.join(others) if others else 'none'}"
        )
    return study


def run_study(
    name: str, settings: StudySettings, progress: Progress | None = None, *, game: str | None = None
) -> GeneratedReport:
    """Check ``settings`` against study ``name`` and run it.

    Parameters
    ----------
    name : str
        A registered study (:data:`STUDIES`).
    settings : StudySettings
        Sizes, seed, players, policies, rules, confidence, threads (e.g. from
        :meth:`Study.settings`).
    progress : callable, optional
        Receives one-line progress messages.
    game : str or None
        When given, the study must be of this game.

    Returns
    -------
    GeneratedReport

    Raises
    ------
    ValueError
        Unknown study, a study of another game, or settings the study refuses (checked
        before any simulation).
    ClaimError
        If the report's answer sentences fail
        :func:`~cuarenta_sim.studies.claims.check_claims` (a report whose words outrun its
        tables is refused).

    Notes
    -----
    The report's provenance gets ``engine_version`` of the study's game and the
    ``code_hash`` / ``code_files`` of its study and verdict code
    (:func:`cuarenta_sim.studies.codehash.code_record`), so a stale committed report is
    detected by the tests.
    """
    from ..game import get_game
    from .codehash import code_record

    study = get_study(name, game)
    study.check(settings)
    built = study.build(settings, progress)
    built.check()
    prov = built.report.provenance
    prov["engine_version"] = get_game(study.game).engine_version
    prov.update(code_record(study.build.__module__))
    return built
