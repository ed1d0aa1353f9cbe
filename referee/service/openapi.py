"""The service's OpenAPI description (served at ``/openapi.json``, rendered at ``/docs``).

As strict as the server: every request the schemas allow is well-formed (the server may
still refuse it with 422 when a game's rules do: an illegal move, a deck that is not a
legal deck, an unknown rule set), and every request they do not allow is refused (400,
or 422 for a field out of range). A field given as null is the same as one left out.
"""

from __future__ import annotations

from typing import Any

from referee.jobs import registry
from referee.service.creation import MAX_NAME, MAX_SEATS

#: A listing's cursor, as its ``next`` writes it (``endpoints.CURSOR``).
CURSOR_PATTERN = "^[0-9]{1,16}(\\.[0-9]{1,20})?_[0-9a-f]{1,64}$"
MAX_ROUNDS = 100


def _error(description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description,
                           "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    if headers:
        out["headers"] = headers
    return out


def _json(ref: str, description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "type": [schema["type"], "null"]}


_TABLE_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
_TOKEN = {"name": "token", "in": "query", "schema": {"type": "string"}}
_AUTH: list[dict[str, list[str]]] = [{"seat": []}]
_TEXT = {"text/plain": {"schema": {"type": "string"}}}
_HTML = {"description": "HTML", "content": {"text/html": {"schema": {"type": "string"}}}}
_RETRY = {"Retry-After": {"required": True, "description": "seconds to wait before trying again",
                          "schema": {"type": "string", "pattern": "^[0-9]+$"}}}
_503 = _error("the database is unavailable (a lost connection, a full disk): nothing was changed; try "
              "again after Retry-After seconds", _RETRY)
_404 = _error("no such table")


def build() -> dict[str, Any]:
    """The description, with the games, rule sets, notations and questions the registry lists."""
    games = registry.games()
    titles = " and ".join(g.title for g in games)
    rules = "; ".join(f"{', '.join(g.rule_sets)} ({g.title})" for g in games)
    notations = " or ".join(g.notation.name for g in games)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Pitboss live referee", "version": "1",
                 "description": f"Live {titles} tables, every move judged by the same engines as "
                                "`pitboss validate`; each seat sees only what it may see."},
        "components": {
            "securitySchemes": {"seat": {"type": "http", "scheme": "bearer",
                                         "description": "A seat token, as the table's creation answered it."}},
            "schemas": {"Error": _ERROR, "NewTable": _new_table([g.name for g in games], rules),
                        "NewTableAnswer": _NEW_TABLE_ANSWER, "Listing": _LISTING, "Move": _MOVE,
                        "MoveAnswer": _MOVE_ANSWER, "View": _VIEW, "Solve": _solve()},
        },
        "paths": {**_table_paths(), **_job_paths(notations), **_page_paths()},
    }


_ERROR = {"type": "object", "required": ["error"],
          "properties": {"error": {"type": "string"}, "detail": {}, "rule": {"type": ["string", "null"]}}}


def _new_table(games: list[str], rules: str) -> dict[str, Any]:
    name = {"type": "string", "minLength": 1, "maxLength": MAX_NAME,
            "description": "a player's name: printable characters of any script, no surrounding space, "
                           "no line break, control character, quote or bracket (a game may allow fewer)"}
    return {"type": "object", "required": ["game", "seats"], "additionalProperties": False, "properties": {
        "game": {"type": "string", "enum": games},
        "rules": _nullable({"type": "string", "description": f"a rule set: {rules}"}),
        "options": _nullable({"type": "string", "description": "rule toggles, as the record's Options tag "
                                                               "writes them"}),
        "seats": {"type": "array", "minItems": 1, "maxItems": MAX_SEATS, "uniqueItems": True, "items": name,
                  "description": "the players' names in seat order (each game says how many it takes)"},
        "bots": _nullable({"type": "object", "description": "seats the server plays itself, by name",
                           "additionalProperties": {"type": "string", "enum": ["random", "greedy"]}}),
        "decks": _nullable({"type": "object", "additionalProperties": {"type": "string"},
                            "description": "decks by seat name, as a Deck tag writes them"}),
        "rounds": _nullable({"type": "integer", "minimum": 1,
                             "description": "rounds to play (a game may take fewer)"}),
        "seed": _nullable({"type": "integer", "minimum": 0, "maximum": 2**63 - 1}),
        "move_limit": _nullable({"type": "integer", "minimum": 1,
                                 "description": "plies after which a game the rules have not ended stops, as a "
                                                "valid record with [Termination \"move limit\"] and the result * "
                                                "(games that need one; default 1000)"}),
        "clock": _nullable({"type": "object", "required": ["move_seconds"], "additionalProperties": False,
                            "properties": {"move_seconds": {"type": "number", "minimum": 0.05,
                                                            "maximum": 604800}}}),
    }}


_NEW_TABLE_ANSWER = {"type": "object", "required": ["id", "game", "rules", "options", "seats", "url"], "properties": {
    "id": {"type": "string"}, "game": {"type": "string"}, "rules": {"type": "string"}, "options": {"type": "string"},
    "seats": {"type": "array", "items": {"type": "object", "required": ["name", "token", "bot"], "properties": {
        "name": {"type": "string"}, "token": {"type": "string"}, "bot": {"type": ["string", "null"]}}}},
    "url": {"type": "string"}}}

_LISTING = {"type": "object", "required": ["tables", "next"], "properties": {
    "tables": {"type": "array", "items": {"type": "object", "required": ["id", "game", "rules", "seats", "status"],
                                          "properties": {"id": {"type": "string"}, "game": {"type": "string"},
                                                         "rules": {"type": "string"}, "status": {"type": "string"},
                                                         "seats": {"type": "array", "items": {"type": "string"}}}}},
    "next": {"type": ["string", "null"], "pattern": CURSOR_PATTERN}}}

_MOVE = {"type": "object", "required": ["move"], "additionalProperties": False, "properties": {
    "move": {"type": "string", "description": "the move in notation, as the seat's legal list writes it"},
    "ply": {"type": ["integer", "null"], "minimum": 0,
            "description": "the table's ply as the client last saw it: stale (409) if a move since then "
                           "changed what this seat may do"}}}

_MOVE_ANSWER = {"type": "object", "required": ["accepted", "ply"], "properties": {
    "accepted": {"type": "boolean"}, "ply": {"type": "integer"}, "move": {"type": "string"},
    "drawn": {"type": "string"}, "events": {"type": "array", "items": {"type": "string"}},
    "status": {"type": "string"}, "result": {}, "counted_as": {"type": "string"},
    "rule": {"type": ["string", "null"]}, "message": {"type": ["string", "null"]}}}

_VIEW = {"type": "object", "required": ["id", "game", "rules", "status", "ply", "seats", "moves"], "properties": {
    "id": {"type": "string"}, "game": {"type": "string"}, "rules": {"type": "string"},
    "options": {"type": "string"}, "status": {
        "type": "string", "enum": ["waiting", "playing", "finished", "interrupted"],
        "description": "interrupted: a table played over another protocol (the contest's, pitboss serve "
                       "--NAME) whose connections ended with the process that held them; its record is what "
                       "was played"},
    "ply": {"type": "integer"}, "round": {"type": ["integer", "null"]},
    "to_move": {"type": ["string", "null"]}, "seats": {"type": "array", "items": {"type": "object"}},
    "table": {"type": "object"}, "moves": {"type": "array", "items": {"type": "string"}},
    "result": {}, "seat": {"type": "string"}, "hand": {"type": "array", "items": {"type": "string"}},
    "deck_left": {"type": "integer"}, "legal": {"type": "array", "items": {"type": "string"}},
    "moves_from": {"type": "integer", "description": "a contest table: the ply of the first of its "
                                                     "moves, which are the game in play's"},
    "contest": {"type": "object", "description": "a contest table: its games, points, protocols"},
    "reports": {"type": "array", "items": {"type": "object"},
                "description": "a contest table: what its clients did wrong (player, name, kind, message, "
                               "game, turn, at)"}}}


def _solve() -> dict[str, Any]:
    """``/v1/solve``'s body: the record, the question, the options every game takes and
    each game's question options (``referee.service.jobs.solve`` checks the same)."""
    from referee.jobs.solve.ask import question_names, question_options

    properties: dict[str, Any] = {
        "record": {"type": "string", "description": "the record's text"},
        "question": {"type": "string", "enum": question_names()},
        "game": _nullable({"type": "integer", "minimum": 1}), "ply": _nullable({"type": "integer", "minimum": 0}),
        "round": _nullable({"type": "integer", "minimum": 1}),
        "method": _nullable({"type": "string", "enum": ["auto", "z3", "search"]}),
        "timeout": _nullable({"type": "number", "exclusiveMinimum": 0, "description": "seconds (at most 30 used)"}),
    }
    for name, declared in question_options().items():
        option = declared[0]
        schema: dict[str, Any] = {"type": "integer" if option.type is int else "string",
                                  "description": " ".join(o.help for o in declared)}
        if option.type is int:
            schema["minimum"] = option.min if option.min is not None else 0
        properties[name] = _nullable(schema)
    return {"type": "object", "required": ["record", "question"], "additionalProperties": False,
            "properties": properties}


def _table_paths() -> dict[str, Any]:
    seat_view = _json("View", "the seat's view")
    return {
        "/healthz": {"get": {"summary": "Up, and the database can commit", "responses": {
            "200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}},
            "503": {"description": "the database cannot commit now (it says why)", "headers": _RETRY,
                    "content": {"application/json": {"schema": {"type": "object"}}}}}}},
        "/v1/tables": {
            "post": {"summary": "Create a table", "requestBody": {"required": True, "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/NewTable"}}}},
                "responses": {"201": _json("NewTableAnswer", "the table, with each seat's token (shown only here)"),
                              "400": _error("malformed body"), "413": _error("body too big"),
                              "422": _error("a field the rules do not allow"),
                              "429": _error("this client address has its limit of unfinished tables", _RETRY),
                              "503": _error("the database is unavailable, or the service holds its limit of "
                                            "unfinished tables: nothing was changed; try again after "
                                            "Retry-After seconds", _RETRY)}},
            "get": {"summary": "List tables, newest first", "parameters": [
                {"name": "cursor", "in": "query", "description": "the previous page's next",
                 "schema": {"type": "string", "pattern": CURSOR_PATTERN}}],
                "responses": {"200": _json("Listing", "{tables, next}"), "400": _error("bad cursor"),
                              "503": _503}}},
        "/v1/tables/{id}": {"get": {"summary": "The public view (spectators)", "parameters": [_TABLE_ID],
                                    "responses": {"200": _json("View", "view"), "404": _404, "503": _503}}},
        "/v1/tables/{id}/view": {"get": {
            "summary": "A seat's view: its hand and legal moves", "security": _AUTH, "parameters": [_TABLE_ID],
            "responses": {"200": seat_view, "401": _error("missing or unknown token"), "404": _404,
                          "429": _error("too many requests from this token"), "503": _503}}},
        "/v1/tables/{id}/moves": {"post": {
            "summary": "Play a move (notation), committed before it is answered, with the moves the rules "
                       "then make themselves", "security": _AUTH, "parameters": [_TABLE_ID],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Move"}}}},
            "responses": {"200": _json("MoveAnswer", "accepted (or, where the rules say so, counted as a pass)"),
                          "400": _error("malformed body or move"), "401": _error("missing or unknown token"),
                          "403": _error("a move line naming another seat"), "404": _404,
                          "409": _error("stale ply or finished table"), "413": _error("body over 64 KiB"),
                          "422": _json("MoveAnswer", "illegal: {accepted: false, rule, message, ply}"),
                          "429": _error("too many requests from this token"), "503": _503}}},
        "/v1/tables/{id}/events": {"get": {
            "summary": "WebSocket: the reader's view, then one message per move, then the end (?token= for a seat)",
            "description": "First `{type: view, ...the reader's view}`; then per move `{type: move, ply, seat, "
                           "move, view}`, whose view leaves out `moves` (the history: `move` is its new entry, "
                           "null when the move adds none); then `{type: end, result}`. A reader that falls "
                           "behind (its unsent events past a backlog, 1 MiB by default, or its connection taking "
                           "nothing for 30 s) is closed with 4408 and reconnects for a fresh view.",
            "parameters": [_TABLE_ID, _TOKEN],
            "responses": {"101": {"description": "WebSocket"}, "404": _404,
                          "426": _error("a plain request, not a WebSocket upgrade"), "503": _503}}},
    }


def _job_paths(notations: str) -> dict[str, Any]:
    return {
        "/v1/tables/{id}/record": {"get": {
            "summary": f"The record ({notations}); the public part until finished", "parameters": [_TABLE_ID],
            "responses": {"200": {"description": "record", "content": _TEXT}, "404": _404, "503": _503}}},
        "/v1/tables/{id}/picture": {"get": {
            "summary": "The table drawn as `pitboss show --svg` draws it", "parameters": [_TABLE_ID, _TOKEN],
            "responses": {"200": {"description": "SVG", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                          "401": _error("unknown token"), "404": _404, "503": _503}}},
        "/v1/validate": {"post": {
            "summary": "What `pitboss validate --json` prints for the record in the body",
            "requestBody": {"content": _TEXT},
            "responses": {"200": {"description": "{summary, games}",
                                  "content": {"application/json": {"schema": {"type": "object"}}}},
                          "400": _error("not UTF-8"), "413": _error("body over 8 MiB")}}},
        "/v1/annotate": {"post": {
            "summary": "What `pitboss annotate --json` prints",
            "parameters": [{"name": "rules", "in": "query", "schema": {"type": "string"}},
                           {"name": "explain_all", "in": "query", "schema": {"type": "boolean"}}],
            "requestBody": {"content": _TEXT},
            "responses": {"200": {"description": "{summary, records}",
                                  "content": {"application/json": {"schema": {"type": "object"}}}},
                          "400": _error("not UTF-8, or explain_all not true or false"),
                          "413": _error("body over 8 MiB"), "422": _error("cannot annotate")}}},
        "/v1/solve": {"post": {
            "summary": "What `pitboss solve --json` prints",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Solve"}}}},
            "responses": {"200": {"description": "the answer",
                                  "content": {"application/json": {"schema": {"type": "object"}}}},
                          "400": _error("malformed body"), "413": _error("body over 8 MiB"),
                          "422": _error("a question the position cannot be asked")}}},
    }


def _page_paths() -> dict[str, Any]:
    return {
        "/": {"get": {"summary": "Web page: the tables, and a form that starts a new one",
                      "responses": {"200": _HTML, "503": _503}}},
        "/tables/{id}": {"get": {"summary": "Web page: watch a table live, or play it with a seat's token (#token=...)",
                                 "parameters": [_TABLE_ID], "responses": {"200": _HTML, "404": _404, "503": _503}}},
        "/tables/{id}/replay": {"get": {"summary": "Web page: a finished table's record replayed move by move "
                                                   "(what `pitboss show --html` writes)",
                                        "parameters": [_TABLE_ID],
                                        "responses": {"200": _HTML, "404": _404,
                                                      "409": _error("the table is not finished"), "503": _503}}},
    }
