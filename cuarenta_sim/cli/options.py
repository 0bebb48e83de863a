"""Every command-line option, declared once as an ``Annotated`` alias, and the help layout.

Options are grouped in ``--help`` into panels: :data:`BASIC` (what is simulated),
:data:`OUTPUT` (what is printed and written) and :data:`SCALE_OUT` (where and how it runs; never
changes the numbers). :class:`PanelCommand` prints one section per panel in plain text (no
terminal markup, so help reads the same in a pipe).

Defaults that depend on the game (rules, players, policies, level, ``--n``) are ``None`` here
and taken from the :class:`cuarenta_sim.game.Game` of ``--game``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

BASIC = "Basic options"
OUTPUT = "Output options"
SCALE_OUT = "Scale-out options"
#: Panel order in ``--help``; options without a panel are listed under :data:`BASIC`.
PANELS = (BASIC, OUTPUT, SCALE_OUT)


class PanelCommand(TyperCommand):
    """A command whose ``--help`` lists its options in panels (Basic, Output, Scale-out)."""

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """Write the arguments, then one help section per panel of :data:`PANELS`."""
        arguments: list[tuple[str, str]] = []
        panels: dict[str, list[tuple[str, str]]] = {name: [] for name in PANELS}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append(record)
            else:
                panel = getattr(param, "rich_help_panel", None) or BASIC
                panels.setdefault(panel, []).append(record)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        for name, records in panels.items():
            if records:
                with formatter.section(name):
                    formatter.write_dl(records)


def _opt(flag: str, help: str, panel: str = BASIC, **kwargs: Any) -> Any:
    return typer.Option(flag, help=help, rich_help_panel=panel, **kwargs)


# ---------------------------------------------------------------- basic: what is simulated
GameOpt = Annotated[
    str, _opt("--game", "Game: cuarenta (default) or cuatrola (see 'presets --game').")
]
RulesOpt = Annotated[
    str | None,
    _opt(
        "--rules",
        "Preset or slug, e.g. 'quito(max_sum_cards=2)'; default the game's first preset "
        "(cuarenta quito, cuatrola ro; list: presets --game GAME).",
    ),
]
PlayersOpt = Annotated[
    int | None, _opt("--players", "Number of players: Cuarenta 2 (default) or 4; Cuatrola 4.")
]
PoliciesOpt = Annotated[
    str | None,
    _opt(
        "--policies",
        "Play policies, comma-separated: one for every seat, one per side or one per seat; "
        "parameters in parentheses, e.g. 'pimc(samples=8)'. Default greedy (see policies).",
    ),
]
LevelOpt = Annotated[
    str | None,
    _opt(
        "--level",
        "Unit simulated: Cuarenta data (default; a hand), chica (game) or mesa (match); "
        "Cuatrola hand (default) or game.",
    ),
]
NOpt = Annotated[
    int | None,
    _opt("--n", "Number of hands (the hand level) or games to simulate; default 1,000,000."),
]
SeedOpt = Annotated[int, _opt("--seed", "Non-negative seed; same seed, same decks.")]
IndexOpt = Annotated[
    int, _opt("--index", "Which hand (hand level) or game of the run, from 0 to 2**63 - 1.")
]

# ---------------------------------------------------------------- output
ConfidenceOpt = Annotated[
    float, _opt("--confidence", "Two-sided confidence level of the intervals.", OUTPUT)
]
ProgressOpt = Annotated[
    bool,
    _opt(
        "--progress/--no-progress",
        "Progress on stderr: a bar on a terminal, a plain line every 10 s otherwise.",
        OUTPUT,
    ),
]
ForceOpt = Annotated[bool, _opt("--force", "Overwrite existing output files.", OUTPUT)]
OutFileOpt = Annotated[
    Path | None,
    _opt(
        "--out",
        "Write the hand records as Parquet to this .parquet file (game levels: the games too, "
        "to NAME.games.parquet). Any other suffix is refused.",
        OUTPUT,
    ),
]
ReportDirOpt = Annotated[
    Path | None,
    _opt("--report", "Write report.md and provenance.json into this directory.", OUTPUT),
]
ReportOutOpt = Annotated[
    Path, _opt("--out", "Parent directory of the report directory OUT/NAME.", OUTPUT)
]
TournamentOutOpt = Annotated[
    Path | None,
    _opt("--out", "Directory for matches.csv, ratings.csv and provenance.json.", OUTPUT),
]

# ---------------------------------------------------------------- scale-out
ThreadsOpt = Annotated[
    int | None, _opt("--threads", "Worker threads (default: all cores).", SCALE_OUT)
]
BackendOpt = Annotated[
    str,
    _opt("--backend", "Where the chunks run: local (this process) or dask (a cluster).", SCALE_OUT),
]
SchedulerOpt = Annotated[
    str | None,
    _opt(
        "--scheduler",
        "With --backend dask: address of a running Dask scheduler, e.g. tcp://host:8786 "
        "(default: start a local cluster).",
        SCALE_OUT,
    ),
]
WorkersOpt = Annotated[
    int | None,
    _opt(
        "--workers",
        "With --backend dask and no --scheduler: worker processes of the local cluster "
        "(default: one per core).",
        SCALE_OUT,
    ),
]
ChunkSizeOpt = Annotated[
    int | None,
    _opt(
        "--chunk-size",
        "Games per chunk (a Dask task); never changes the results.",
        SCALE_OUT,
    ),
]
AggregatesOnlyOpt = Annotated[
    bool,
    _opt(
        "--aggregates-only",
        "Keep only per-chunk counters: memory stays flat as --n grows; with --dataset they "
        "are saved there and the run is resumable.",
        SCALE_OUT,
    ),
]
DatasetOpt = Annotated[
    Path | None,
    _opt(
        "--dataset",
        "Directory of a resumable run: per-chunk Parquet records (none with "
        "--aggregates-only) and counters; rerun the same command to finish an interrupted run.",
        SCALE_OUT,
    ),
]

# ---------------------------------------------------------------- report and tournament
StudyGameOpt = Annotated[
    str | None,
    _opt("--game", "Only accept reports of this game (default: the report's own game)."),
]
StudyNOpt = Annotated[
    int | None,
    _opt(
        "--n",
        "Size of the study: hands per rule set and player count (strategies: chicas per pair "
        "of policies; cuatrola-bidding: hands per bid); default the study's.",
    ),
]
StudyPlayersOpt = Annotated[
    str | None,
    _opt("--players", "Player counts: 2, 4 or 2,4 (default: the study's)."),
]
StudyPoliciesOpt = Annotated[
    str | None,
    _opt(
        "--policies",
        "Policies of the study (default: the study's; see policies). Rule studies take a "
        "player panel: models separated by ';', e.g. 'learned;heuristic;greedy' (the first "
        "is the headline); each model is a policy list for the seats, all on the same decks.",
    ),
]
ConfirmOpt = Annotated[
    str | None,
    _opt(
        "--confirm",
        "Rule studies: a confirmatory model run at --confirm-n beside the panel (default: the "
        "study's, 'none' for none).",
    ),
]
ConfirmNOpt = Annotated[
    int | None,
    _opt(
        "--confirm-n",
        "Datas of the confirmatory run at level data (default: the study's; quito-vs-cuenca "
        "sizes its chicas to a stated detectable difference and plays datas with 2 players "
        "only).",
    ),
]
PrecisionOpt = Annotated[
    float | None,
    _opt(
        "--precision",
        "Size --n for this target interval half-width (at --confidence), in percentage points, "
        "of a rate per unit "
        "(worst case 50%; stats.required_n), e.g. 0.1; a study's --chicas and --mesas get the "
        "same count unless given. Not with --n.",
    ),
]
StudyRulesOpt = Annotated[
    str | None, _opt("--rules", "Rules of the study, where it takes them (default: the study's).")
]
ChicasOpt = Annotated[
    int | None,
    _opt(
        "--chicas",
        "Chicas per rule set and player count (default: the study's share of n).",
    ),
]
MesasOpt = Annotated[
    int | None,
    _opt(
        "--mesas",
        "Mesas per rule set and player count (default: the study's share of n).",
    ),
]
CompetitorsOpt = Annotated[
    str,
    _opt(
        "--policies",
        "Competing policy specs, comma-separated (at least two), e.g. "
        "'random,greedy,heuristic,pimc' or 'heuristic,pimc(samples=8)'.",
    ),
]
PairChicasOpt = Annotated[
    int, _opt("--chicas", "Chicas per pair of policies (even: duplicate pairs).")
]
PairMesasOpt = Annotated[int, _opt("--mesas", "Mesas per pair (even; 0 skips the mesa level).")]
