"""Run a simulation's chunks locally or on a Dask cluster, and keep them in a resumable store.

Nothing here knows the game: a *task* is any picklable callable ``task(start, stop)`` that
plays the games ``[start, stop)`` of one simulation and returns its chunk's output (frames,
counters...). Because every game depends only on ``(seed, game index)``, a chunk's output does
not depend on where or when it runs, so:

* :func:`execute` runs the chunks one after the other (``backend="local"``) or as Dask tasks
  (``backend="dask"``) and hands every output to the caller **in chunk order**, whatever order
  they complete in: merged results are identical for any number of workers or chunk size;
* a worker that dies mid-task has its task re-run elsewhere by the Dask scheduler; tasks are
  pure (same inputs, same output, files written atomically and identically), so a re-run can
  never count a chunk twice;
* :class:`ChunkStore` keeps the chunks of one run in a directory, each finished chunk marked by
  a small JSON file written (atomically) after its data files; a restart with the same
  settings skips the marked chunks and recomputes the rest.

Dask is optional (extra ``cuarenta_sim[dask]``); it is imported only when used.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib.util
import json
import os
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from .io import write_json_atomic

#: Execution backends accepted by :func:`execute`.
BACKENDS = ("local", "dask")
#: Name of the manifest of a :class:`ChunkStore`.
MANIFEST = "manifest.json"
#: Format tag of the manifest.
STORE_FORMAT = "cuarenta_sim.chunks/1"

Task = Callable[[int, int], Any]


def chunk_ranges(n: int, chunk: int) -> list[tuple[int, int]]:
    """Split ``[0, n)`` into consecutive ranges of ``chunk`` games (the last may be shorter).

    Raises
    ------
    ValueError
        If ``n`` or ``chunk`` is not a positive integer.
    """
    if n <= 0 or chunk <= 0:
        raise ValueError(f"need n > 0 and chunk > 0, got n={n}, chunk={chunk}")
    return [(start, min(start + chunk, n)) for start in range(0, n, chunk)]


# =========================================================================== Dask client
def require_dask() -> None:
    """Import ``dask.distributed`` or fail with how to install it.

    Raises
    ------
    ValueError
        If ``dask[distributed]`` is not installed.
    """
    try:
        import distributed  # noqa: F401
    except ImportError as err:
        raise ValueError(
            "backend 'dask' needs dask[distributed]; install it with "
            "pip install 'cuarenta_sim[dask]'"
        ) from err


#: Seconds allowed to reach a scheduler and complete the Dask handshake.
CONNECT_TIMEOUT_S = 20


async def _probe(address: str) -> None:
    """Open and close one Dask comm to ``address`` within :data:`CONNECT_TIMEOUT_S` seconds.

    ``Client(timeout=...)`` does not bound the handshake with a peer that accepts the
    connection and never answers; ``asyncio.wait_for`` does.
    """
    from distributed.comm import connect

    comm = await asyncio.wait_for(connect(address, timeout=CONNECT_TIMEOUT_S), CONNECT_TIMEOUT_S)
    await comm.close()


def _connect(client_class: Any, address: str) -> Any:
    """``Client(address)`` with a bounded handshake; any failure becomes one ValueError.

    A wrong address can be a closed port (refused), a silent peer (no answer: the timeout) or
    another server, e.g. the dashboard's HTTP port, whose reply Dask misreads as a message
    length (a MemoryError deep inside the comm layer): each is reported the same way.
    """
    try:
        asyncio.run(_probe(address))
        return client_class(address, timeout=CONNECT_TIMEOUT_S)
    except Exception as err:  # every failure means "not a reachable scheduler"
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ValueError(
            f"could not connect to a Dask scheduler at {address!r} within "
            f"{CONNECT_TIMEOUT_S} s ({type(err).__name__}: {reason[:200]}); give the "
            f"scheduler's address, e.g. tcp://host:8786 (not the dashboard port)"
        ) from err


@contextlib.contextmanager
def dask_client(client: Any = None, workers: int | None = None) -> Iterator[Any]:
    """Yield a ``distributed.Client``: the one given, one connected to an address, or one of a
    new ``LocalCluster`` (the embedded default), closing what it opened.

    Parameters
    ----------
    client : distributed.Client, str or None
        An existing client (left open), a scheduler address such as ``"tcp://host:8786"``
        (connected, closed afterwards) or None: a ``LocalCluster`` of ``workers`` processes
        with one thread each (started and closed here; its web server, the dashboard when
        bokeh is installed, on a free port).
    workers : int or None
        Worker processes of the embedded cluster; default the number of cores. Only with
        ``client=None``.

    Raises
    ------
    ValueError
        dask missing, ``workers`` given with a client or address, a bad ``workers``, or an
        address where no Dask scheduler answers within :data:`CONNECT_TIMEOUT_S` seconds.
    """
    require_dask()
    from distributed import Client, LocalCluster

    if client is not None and workers is not None:
        raise ValueError("workers= sizes the embedded LocalCluster; it cannot be used with client=")
    if isinstance(client, Client):
        yield client
        return
    if isinstance(client, str):
        opened = _connect(Client, client)
        try:
            yield opened
        finally:
            opened.close()
        return
    if client is not None:
        raise ValueError(
            f"client must be a distributed.Client, a scheduler address or None, got {client!r}"
        )
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise ValueError(f"workers must be a positive whole number, got {workers!r}")
    n_workers = workers or os.cpu_count() or 1
    # ":0": the scheduler's web server (the dashboard when bokeh is installed) on a free port.
    with (
        LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
        ) as cluster,
        Client(cluster) as opened,
    ):
        yield opened


def bokeh_available() -> bool:
    """True when bokeh (needed by the Dask dashboard) can be imported in this process."""
    return importlib.util.find_spec("bokeh") is not None


def dashboard_link(client: Any) -> str | None:
    """The Dask dashboard URL of ``client``'s scheduler, or None when it serves none (no web
    server, or bokeh missing on the scheduler)."""
    try:
        info = client.scheduler_info()
        has_bokeh = client.run_on_scheduler(bokeh_available)
    except Exception:  # a client that cannot reach its scheduler has no dashboard to show
        return None
    if "dashboard" not in info.get("services", {}) or not has_bokeh:
        return None
    return str(client.dashboard_link)


# =========================================================================== execution
def execute(
    task: Task,
    ranges: Sequence[tuple[int, int]],
    on_result: Callable[[int, Any], None],
    *,
    backend: str = "local",
    client: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Run ``task(start, stop)`` for every range and pass each output on, in range order.

    Parameters
    ----------
    task : callable
        ``task(start, stop) -> output``; picklable for the Dask backend (a module-level
        function or a ``functools.partial`` of one).
    ranges : sequence of (int, int)
        The chunks to run, in order.
    on_result : callable
        ``on_result(i, output)`` is called for ``i = 0, 1, ...`` in order (outputs completed
        out of order wait in memory until their turn).
    backend : str
        ``"local"`` (this process) or ``"dask"`` (tasks on ``client``'s cluster).
    client : distributed.Client or None
        Required with ``backend="dask"`` (see :func:`dask_client`).
    progress : callable or None
        ``progress(start, stop)`` once a chunk has completed (in completion order).

    Raises
    ------
    ValueError
        Unknown backend, or ``backend="dask"`` without a client.
    Exception
        Whatever a task raised (remaining Dask tasks are cancelled).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; accepted: {', '.join(BACKENDS)}")
    if backend == "local":
        for i, (start, stop) in enumerate(ranges):
            output = task(start, stop)
            if progress is not None:
                progress(start, stop)
            on_result(i, output)
        return
    if client is None:
        raise ValueError("backend 'dask' needs a client (see cuarenta_sim.distributed.dask_client)")
    from distributed import as_completed

    token = uuid.uuid4().hex[:12]
    futures = [
        client.submit(task, start, stop, key=f"cuarenta-chunk-{token}-{i}", pure=False)
        for i, (start, stop) in enumerate(ranges)
    ]
    index = {f.key: i for i, f in enumerate(futures)}
    waiting: dict[int, Any] = {}
    next_i = 0
    try:
        for future in as_completed(futures):
            i = index[future.key]
            waiting[i] = future.result()
            future.release()
            if progress is not None:
                progress(*ranges[i])
            while next_i in waiting:
                on_result(next_i, waiting.pop(next_i))
                next_i += 1
    finally:
        pending = [f for f in futures if not f.done()]
        if pending:
            client.cancel(pending)


# =========================================================================== chunk store
class ChunkStore:
    """A directory holding the chunks of one run, resumable after any interruption.

    Layout: ``manifest.json`` (format, the run's identity and its digest), then per chunk
    ``part-<start>-<stop>.<suffix>`` data files and the completion marker
    ``part-<start>-<stop>.done.json`` (identity digest, range, the chunk's small output).
    Every file is written to a temporary name and renamed when complete, and the marker is
    written last, so a chunk is complete exactly when its marker exists and names this run and
    this range; anything else (no marker, a marker of another range, temporary files) is
    recomputed or removed. Chunk boundaries are part of the identity: a restart with another
    chunk size is refused, never mixed.

    Parameters
    ----------
    directory : str or path-like
        The store (created if missing).
    identity : mapping
        JSON-serialisable settings that fix the results (seed, rules, players, policies,
        level, n, chunk size...). A store made with a different identity is refused.
    """

    def __init__(self, directory: str | os.PathLike[str], identity: Mapping[str, Any]) -> None:
        self.directory = Path(directory)
        self.identity = dict(identity)
        canonical = json.dumps(self.identity, sort_keys=True, default=str)
        self.digest = hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def open(self) -> None:
        """Create the store, or check that an existing one belongs to this run.

        Removes leftover temporary files of interrupted writes.

        Raises
        ------
        ValueError
            If the directory exists and is not empty but holds no manifest of this format, or
            its manifest records different settings (the message names them).
        OSError
            If the directory cannot be created or written.
        """
        path = self.directory / MANIFEST
        if self.directory.exists() and not self.directory.is_dir():
            raise ValueError(f"{self.directory} exists and is not a directory")
        if path.exists():
            try:
                manifest = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
                raise ValueError(f"{path} is not a readable chunk-store manifest: {err}") from err
            if not isinstance(manifest, dict) or manifest.get("format") != STORE_FORMAT:
                raise ValueError(f"{path} is not a cuarenta_sim chunk-store manifest")
            theirs = manifest.get("identity", {})
            if manifest.get("digest") != self.digest or theirs != json.loads(
                json.dumps(self.identity, default=str)
            ):
                diff = sorted(
                    k
                    for k in set(theirs) | set(self.identity)
                    if theirs.get(k) != self.identity.get(k)
                )
                detail = ", ".join(
                    f"{k}: {theirs.get(k)!r} there, {self.identity.get(k)!r} now" for k in diff
                )
                raise ValueError(
                    f"{self.directory} holds a run with different settings ({detail}); use "
                    f"another directory or the same settings to resume it"
                )
        else:
            if self.directory.exists() and any(self.directory.iterdir()):
                raise ValueError(
                    f"{self.directory} is not empty and is not a cuarenta_sim chunk store; "
                    f"give a new or empty directory"
                )
            write_json_atomic(
                path, {"format": STORE_FORMAT, "digest": self.digest, "identity": self.identity}
            )
        self.sweep()

    def sweep(self) -> None:
        """Remove temporary files left by interrupted writes (a killed worker's, say); never
        a complete file. Call it when no task of the run is writing."""
        for tmp in self.directory.glob(".*.tmp"):
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()

    @staticmethod
    def stem(start: int, stop: int) -> str:
        """File stem of chunk ``[start, stop)``: ``part-<start>-<stop>``, zero-padded so that
        names sort in chunk order."""
        return f"part-{start:015d}-{stop:015d}"

    def path(self, start: int, stop: int, suffix: str) -> Path:
        """Path of a data file of chunk ``[start, stop)``, e.g. suffix ``"hands.parquet"``."""
        return self.directory / f"{self.stem(start, stop)}.{suffix}"

    def marker(self, start: int, stop: int) -> Path:
        """Path of the completion marker of chunk ``[start, stop)``."""
        return self.path(start, stop, "done.json")

    def load(self, start: int, stop: int) -> Any | None:
        """The output recorded by a complete chunk's marker, or None when it is not complete
        (no marker, an unreadable one, or one of another run or range)."""
        try:
            data = json.loads(self.marker(start, stop).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return None
        if (
            not isinstance(data, dict)
            or data.get("digest") != self.digest
            or data.get("range") != [start, stop]
        ):
            return None
        return data.get("output")

    def complete(self, start: int, stop: int, output: Any) -> None:
        """Mark chunk ``[start, stop)`` complete with its (JSON-serialisable) output; call it
        after every data file of the chunk is in place."""
        write_json_atomic(
            self.marker(start, stop),
            {"digest": self.digest, "range": [start, stop], "output": output},
        )

