"""The web app's message catalogue: every string a page or an API error shows, Spanish first.

One dictionary per language (:data:`CATALOGUE`); :func:`text` looks a key up and fills its
``{placeholders}``; :func:`pick_language` reads the ``lang`` query parameter, then the
``lang`` cookie, and falls back to Spanish (the players are mostly Ecuadorian). A key missing
from English falls back to Spanish; a key missing from Spanish is a bug (``KeyError``).
"""

from __future__ import annotations

#: Languages offered, the first is the default.
LANGUAGES = ("es", "en")
#: Name of the cookie (and of the query parameter) that keeps the language.
COOKIE = "lang"

CATALOGUE: dict[str, dict[str, str]] = {
    "es": {
        "title": "Cuarenta",
        "new_game": "Nueva partida",
        "start": "Empezar",
        "rules": "Reglas",
        "bot": "Rival (bot)",
        "episode": "Partida",
        "episode_data": "una data",
        "episode_chica": "una chica",
        "seat": "Su asiento",
        "seat_0": "asiento 0",
        "seat_1": "asiento 1",
        "games": "Partidas guardadas",
        "no_games": "Todavía no hay partidas.",
        "open": "abrir",
        "status_playing": "en juego",
        "status_over": "terminada",
        "you": "Usted",
        "the_bot": "Bot",
        "your_hand": "Su mano",
        "bot_hand": "Mano del bot: {n} cartas",
        "table": "Mesa",
        "table_empty": "La mesa está vacía.",
        "score": "Tanteador",
        "target": "a {n} puntos",
        "data_deal": "Data {data}, reparto {deal}; da: {dealer}",
        "your_turn": "Le toca jugar. Elija una jugada:",
        "bot_turn": "Le toca al bot.",
        "game_over": "Partida terminada: {a} - {b}.",
        "you_won": "¡Usted ganó!",
        "bot_won": "Ganó el bot.",
        "draw": "Empate.",
        "review": "Ver el análisis de la partida",
        "hint": "Pista",
        "hint_value": "valor {v}",
        "hint_best": "mejor jugada",
        "thinking": "Pensando…",
        "plays_legal": "Jugadas posibles",
        "trail": "{card} a la mesa",
        "match": "{card} levanta {base}",
        "sum": "{card} suma {base}",
        "run": "escalera {ranks}",
        "caida": "caída",
        "caida_en_ronda": "caída en ronda",
        "limpia": "limpia",
        "points": "+{n} puntos",
        "claim": "+{n} al final del reparto",
        "no_points": "sin puntos",
        "events": "Lo que pasó",
        "ev_play": "{who} jugó {what}",
        "ev_ronda": "{who} cantó ronda de {rank} (+{n})",
        "ev_doble": "{who} cantó doble ronda de {rank} (+{n})",
        "ev_claims": "Se acreditan las caídas en ronda: {a} - {b}",
        "ev_end": "Fin de la data: cartas {a} - {b}, puntos {pa} - {pb}",
        "piles": "Cartas levantadas: usted {a}, bot {b}",
        "language": "English",
        "back": "Volver al inicio",
        "review_title": "Análisis de la partida",
        "review_note": (
            "Puntos perdidos: lo que cada jugada dejó en promedio frente a la mejor, "
            "vista desde la información de quien jugó."
        ),
        "review_seats": "Por jugador",
        "review_mistakes": "Los errores más grandes",
        "review_head_seat": "asiento|nombre|decisiones|puntos perdidos|por decisión|exactas|"
        "caídas dadas|perdido en retrospectiva (decisiones)",
        "review_head_mistakes": "jugada #|data|reparto|asiento|jugó|aconsejada|puntos perdidos|"
        "exacta",
        "record": "Registro de la partida (JSON)",
        "figure_alt": "Puntos perdidos por decisión",
        "err_not_found": "No existe la partida {id}.",
        "err_bad_json": "El cuerpo no es JSON válido: {detail}",
        "err_not_object": "El cuerpo debe ser un objeto JSON, p. ej. {example}.",
        "err_too_big": "El cuerpo es demasiado grande: como máximo {n} bytes.",
        "err_field": "Campo {field}: {detail}",
        "err_unknown_field": "Campo desconocido {field}; se aceptan: {accepted}.",
        "err_illegal": "Jugada no permitida: {detail}",
        "err_not_your_turn": "No le toca jugar: {detail}",
        "err_over": "La partida ya terminó.",
        "err_not_over": "La partida no ha terminado: el análisis y el registro vienen al final.",
        "err_review": "No se puede analizar esta partida: {detail}",
        "err_internal": "Error interno del servidor; la partida no cambió.",
        "err_page": "Página no encontrada.",
    },
    "en": {
        "title": "Cuarenta",
        "new_game": "New game",
        "start": "Start",
        "rules": "Rules",
        "bot": "Opponent (bot)",
        "episode": "Game",
        "episode_data": "one data",
        "episode_chica": "one chica",
        "seat": "Your seat",
        "seat_0": "seat 0",
        "seat_1": "seat 1",
        "games": "Saved games",
        "no_games": "No games yet.",
        "open": "open",
        "status_playing": "playing",
        "status_over": "over",
        "you": "You",
        "the_bot": "Bot",
        "your_hand": "Your hand",
        "bot_hand": "Bot's hand: {n} cards",
        "table": "Table",
        "table_empty": "The table is empty.",
        "score": "Score",
        "target": "to {n} points",
        "data_deal": "Data {data}, deal {deal}; dealer: {dealer}",
        "your_turn": "Your turn. Choose a play:",
        "bot_turn": "The bot is to play.",
        "game_over": "Game over: {a} - {b}.",
        "you_won": "You won!",
        "bot_won": "The bot won.",
        "draw": "A draw.",
        "review": "See the game's review",
        "hint": "Hint",
        "hint_value": "value {v}",
        "hint_best": "best play",
        "thinking": "Thinking…",
        "plays_legal": "Legal plays",
        "trail": "{card} to the table",
        "match": "{card} takes {base}",
        "sum": "{card} sums {base}",
        "run": "run {ranks}",
        "caida": "caida",
        "caida_en_ronda": "caida en ronda",
        "limpia": "limpia",
        "points": "+{n} points",
        "claim": "+{n} at the end of the deal",
        "no_points": "no points",
        "events": "What happened",
        "ev_play": "{who} played {what}",
        "ev_ronda": "{who} announced a ronda of {rank} (+{n})",
        "ev_doble": "{who} announced a doble ronda of {rank} (+{n})",
        "ev_claims": "Caida-en-ronda claims credited: {a} - {b}",
        "ev_end": "End of the data: cards {a} - {b}, points {pa} - {pb}",
        "piles": "Cards captured: you {a}, bot {b}",
        "language": "Español",
        "back": "Back to the start",
        "review_title": "Review of the game",
        "review_note": (
            "Points lost: what each play gave away on average against the best one, from "
            "the information of the seat that played."
        ),
        "review_seats": "Per player",
        "review_mistakes": "The largest mistakes",
        "review_head_seat": "seat|name|decisions|points lost|per decision|exact|caidas given|"
        "hindsight lost (decisions)",
        "review_head_mistakes": "play #|data|deal|seat|played|advised|points lost|exact",
        "record": "Game record (JSON)",
        "figure_alt": "Points lost per decision",
        "err_not_found": "There is no game {id}.",
        "err_bad_json": "The body is not valid JSON: {detail}",
        "err_not_object": "The body must be a JSON object, e.g. {example}.",
        "err_too_big": "The body is too large: at most {n} bytes.",
        "err_field": "Field {field}: {detail}",
        "err_unknown_field": "Unknown field {field}; accepted: {accepted}.",
        "err_illegal": "Illegal play: {detail}",
        "err_not_your_turn": "It is not your turn: {detail}",
        "err_over": "The game is over.",
        "err_not_over": "The game is not over: its review and record come at the end.",
        "err_review": "This game cannot be reviewed: {detail}",
        "err_internal": "Internal server error; the game did not change.",
        "err_page": "Page not found.",
    },
}


def text(lang: str, key: str, **values: object) -> str:
    """The message ``key`` in ``lang`` with its placeholders filled.

    Parameters
    ----------
    lang : str
        One of :data:`LANGUAGES` (anything else reads as Spanish).
    key : str
        A key of the Spanish catalogue.
    **values
        Values of the message's ``{placeholders}``.

    Raises
    ------
    KeyError
        ``key`` is not in the catalogue.
    """
    table = CATALOGUE.get(lang, CATALOGUE["es"])
    message = table.get(key, CATALOGUE["es"][key])
    return message.format(**values) if values else message


def pick_language(query: str | None, cookie: str | None) -> str:
    """The language of a request: the ``lang`` query parameter, else the cookie, else ``es``."""
    for value in (query, cookie):
        if value in LANGUAGES:
            return str(value)
    return LANGUAGES[0]


__all__ = ["CATALOGUE", "COOKIE", "LANGUAGES", "pick_language", "text"]
