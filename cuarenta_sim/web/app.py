"""The FastAPI application of ``cuarenta-sim serve``: pages, the JSON API and their errors.

:func:`create_app` builds it over one SQLite file (:class:`~cuarenta_sim.web.store.GameStore`).
The server holds every game (:mod:`cuarenta_sim.web.play`); a client sends only a game id (in
the path) and a play (``{"action": id}`` or ``{"card": "7h"}``), and is sent only what the
human's seat may see. Bodies are capped (:data:`MAX_BODY` bytes, 413 above); malformed JSON is
400, an unknown game 404, a play the rules refuse 422, a play out of turn 409; every error is
``{"error": message}`` in the request's language, never a traceback. Moves of all games run
one at a time (a lock), in a worker thread, so the bots' thinking never runs concurrently.
Routes: ``docs/web.md``. This module imports FastAPI: import it once
:func:`cuarenta_sim.web.require_web` has passed (:func:`cuarenta_sim.web.server.serve` does).
"""

from __future__ import annotations

import base64
import json
import random
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ..cuarenta.rules import PRESETS
from .messages import COOKIE, LANGUAGES, pick_language, text
from .play import BOTS, EPISODES, PlayError, WebGame, new_game, restore
from .store import GameStore, default_db_path
from .views import page_context

#: Largest request body accepted, in bytes.
MAX_BODY = 4096
#: Worlds per decision of a web game's review.
REVIEW_SAMPLES = 64
#: Games kept in memory (the store has them all).
CACHE_SIZE = 256
#: A game id: 16 hex digits.
GAME_ID = re.compile(r"[0-9a-f]{16}")
_STATIC = Path(__file__).parent / "static"


class ApiError(Exception):
    """An error answered as ``{"error": message}`` with an HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _env() -> Environment:
    env = Environment(
        loader=PackageLoader("cuarenta_sim.web", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
    )
    return env


def create_app(
    db: str | Path | None = None, *, max_body: int = MAX_BODY, seed: int | None = None
) -> FastAPI:
    """The web application.

    Parameters
    ----------
    db : str or Path, optional
        The SQLite file of the games (created if missing); default
        :func:`~cuarenta_sim.web.store.default_db_path`.
    max_body : int
        Largest request body, bytes.
    seed : int, optional
        Seed of the deals of new games (tests); default secret random deals.

    Raises
    ------
    ValueError
        The database cannot be opened (the message names it).
    """

    store = GameStore(default_db_path() if db is None else db)
    cache: OrderedDict[str, WebGame] = OrderedDict()
    seeds = None if seed is None else random.Random(seed)
    lock = threading.Lock()
    env = _env()
    app = FastAPI(title="cuarenta-sim", docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=_STATIC), name="static")
    app.state.store = store

    def lang_of(request: Request) -> str:
        return pick_language(request.query_params.get(COOKIE), request.cookies.get(COOKIE))

    def page(request: Request, template: str, status: int = 200, **context: Any) -> Response:
        lang = lang_of(request)
        other = LANGUAGES[1 - LANGUAGES.index(lang)]
        html = env.get_template(template).render(
            t=lambda key, **kw: text(lang, key, **kw), lang=lang, other=other, **context
        )
        response = HTMLResponse(html, status_code=status)
        if request.query_params.get(COOKIE) in LANGUAGES:
            response.set_cookie(COOKIE, lang, max_age=365 * 86400, samesite="lax")
        return response

    def find(game_id: str, lang: str) -> WebGame:
        """The game ``game_id`` (memory, else the store), or a 404 ``ApiError``."""
        if not GAME_ID.fullmatch(game_id):
            raise ApiError(404, text(lang, "err_not_found", id=game_id[:40]))
        game = cache.get(game_id)
        if game is None:
            row = store.load(game_id)
            if row is None:
                raise ApiError(404, text(lang, "err_not_found", id=game_id))
            game = restore(row.id, row.settings, row.state, row.record)
            remember(game)
        return game

    def remember(game: WebGame) -> None:
        cache[game.id] = game
        cache.move_to_end(game.id)
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)

    def save(game: WebGame) -> None:
        status = "over" if game.over else "playing"
        store.save(game.id, game.settings, game.state_json(), game.record, status)

    async def body_of(request: Request, lang: str) -> dict[str, Any]:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > max_body):
            raise ApiError(413, text(lang, "err_too_big", n=max_body))
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > max_body:
                raise ApiError(413, text(lang, "err_too_big", n=max_body))
        if not data.strip():
            return {}
        try:
            obj = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise ApiError(400, text(lang, "err_bad_json", detail=str(err))) from None
        if not isinstance(obj, dict):
            raise ApiError(400, text(lang, "err_not_object", example='{"card": "7h"}'))
        return obj

    def locked(fn: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            with lock:
                return fn()

        return run

    def play_error(lang: str, err: PlayError) -> ApiError:
        if err.key == "err_field":
            return ApiError(err.status, text(lang, "err_field", field="body", detail=str(err)))
        if err.key in ("err_over", "err_not_over"):
            return ApiError(err.status, text(lang, err.key))
        return ApiError(err.status, text(lang, err.key, detail=str(err)))

    def review_of(game: WebGame, lang: str) -> dict[str, Any]:
        from ..cuarenta.review import review_record

        row = store.load(game.id)
        if row is not None and row.review is not None:
            return row.review
        try:
            checked = game.checked_record()
        except PlayError as err:
            raise play_error(lang, err) from None
        try:
            review = review_record(checked, samples=REVIEW_SAMPLES, seed=0)
        except ValueError as err:
            raise ApiError(409, text(lang, "err_review", detail=str(err))) from None
        store.save_review(game.id, review)
        return review

    # ------------------------------------------------------------ errors
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, err: ApiError) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": err.message}, status_code=err.status)
        return page(request, "error.html.j2", err.status, message=err.message)

    @app.exception_handler(HTTPException)
    async def _http_error(request: Request, err: HTTPException) -> Response:
        lang = lang_of(request)
        message = text(lang, "err_page") if err.status_code == 404 else str(err.detail)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=err.status_code)
        return page(request, "error.html.j2", err.status_code, message=message)

    @app.exception_handler(Exception)
    async def _internal(request: Request, err: Exception) -> Response:
        return JSONResponse({"error": text(lang_of(request), "err_internal")}, status_code=500)

    # ------------------------------------------------------------ pages
    @app.get("/", response_class=HTMLResponse)
    async def index(request: Request) -> Response:
        return page(
            request,
            "index.html.j2",
            presets=list(PRESETS),
            bots=list(BOTS),
            episodes=list(EPISODES),
            games=store.recent(),
        )

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    async def game_page(request: Request, game_id: str) -> Response:
        lang = lang_of(request)
        view = await run_in_threadpool(locked(lambda: find(game_id, lang).view()))
        return page(request, "game.html.j2", **page_context(lang, view))

    @app.get("/games/{game_id}/review", response_class=HTMLResponse)
    async def review_page(request: Request, game_id: str) -> Response:
        from ..cuarenta.review_output import figure_png, mistake_rows, summary_rows

        lang = lang_of(request)
        game = find(game_id, lang)
        review = await run_in_threadpool(locked(lambda: review_of(game, lang)))
        png = base64.b64encode(figure_png(review)).decode("ascii")
        return page(
            request,
            "review.html.j2",
            game_id=game.id,
            seats=summary_rows(review),
            mistakes=mistake_rows(review),
            head_seats=text(lang, "review_head_seat").split("|"),
            head_mistakes=text(lang, "review_head_mistakes").split("|"),
            figure=png,
        )

    @app.get("/games")
    async def games_redirect() -> Response:
        return RedirectResponse("/")

    # ------------------------------------------------------------ API
    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {"rules": list(PRESETS), "bots": list(BOTS), "episodes": list(EPISODES)}

    @app.post("/api/games")
    async def create(request: Request) -> Response:
        lang = lang_of(request)
        body = await body_of(request, lang)
        accepted = {"rules", "bot", "episode", "seat"}
        unknown = sorted(set(body) - accepted)
        if unknown:
            raise ApiError(
                422,
                text(
                    lang,
                    "err_unknown_field",
                    field=unknown[0],
                    accepted=", ".join(sorted(accepted)),
                ),
            )

        def make() -> WebGame:
            try:
                game = new_game(
                    str(body.get("rules", "quito")),
                    str(body.get("bot", "heuristic")),
                    body.get("episode", "data"),
                    body.get("seat", 0),
                    None if seeds is None else seeds.randrange(2**62),
                )
            except ValueError as err:
                raise ApiError(
                    422, text(lang, "err_field", field="body", detail=str(err))
                ) from None
            remember(game)
            save(game)
            return game

        game = await run_in_threadpool(locked(make))
        return JSONResponse(game.view(), status_code=201)

    @app.get("/api/games/{game_id}")
    async def show(request: Request, game_id: str) -> dict[str, Any]:
        lang = lang_of(request)
        return await run_in_threadpool(locked(lambda: find(game_id, lang).view()))

    @app.post("/api/games/{game_id}/play")
    async def play(request: Request, game_id: str) -> dict[str, Any]:
        lang = lang_of(request)
        body = await body_of(request, lang)

        def move() -> dict[str, Any]:
            game = find(game_id, lang)
            backup = (game.state.clone(), json.loads(json.dumps(game.record)))
            try:
                game.play(body)
            except PlayError as err:
                game.state, game.record = backup
                raise play_error(lang, err) from None
            except Exception:
                game.state, game.record = backup  # the game did not change
                raise
            save(game)
            return game.view()

        return await run_in_threadpool(locked(move))

    @app.post("/api/games/{game_id}/hint")
    async def hint(request: Request, game_id: str) -> dict[str, Any]:
        lang = lang_of(request)
        await body_of(request, lang)

        def advise() -> dict[str, Any]:
            try:
                return find(game_id, lang).hint()
            except PlayError as err:
                raise play_error(lang, err) from None

        return await run_in_threadpool(locked(advise))

    @app.get("/api/games/{game_id}/record")
    async def record(request: Request, game_id: str) -> dict[str, Any]:
        lang = lang_of(request)
        game = find(game_id, lang)
        if not game.over:
            raise ApiError(409, text(lang, "err_not_over"))
        return game.record

    @app.get("/api/games/{game_id}/review")
    async def review(request: Request, game_id: str) -> dict[str, Any]:
        lang = lang_of(request)
        game = find(game_id, lang)
        return await run_in_threadpool(locked(lambda: review_of(game, lang)))

    return app


__all__ = ["MAX_BODY", "REVIEW_SAMPLES", "ApiError", "create_app"]
