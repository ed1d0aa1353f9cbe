"""The service's OpenAPI description (served at ``/openapi.json``, rendered at ``/docs``)."""

from __future__ import annotations

from typing import Any

from referee.jobs import registry


def _error(description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


_TABLE_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
_AUTH: list[dict[str, list[str]]] = [{"seat": []}]
_JSON_OBJECT = {"application/json": {"schema": {"type": "object"}}}
_TEXT = {"text/plain": {"schema": {"type": "string"}}}

def build() -> dict[str, Any]:
    """The description, with the games, rule sets and notations the registry lists."""
    games = registry.games()
    titles = " and ".join(g.title for g in games)
    rules = "; ".join(f"{', '.join(g.rule_sets)} ({g.title})" for g in games)
    notations = " or ".join(g.notation.name for g in games)
    doc = _describe(titles, rules, notations)
    doc["components"]["schemas"]["NewTable"]["properties"]["game"]["enum"] = [g.name for g in games]
    return doc


def _describe(titles: str, rules: str, notations: str) -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "Pitboss live referee", "version": "1",
                 "description": f"Live {titles} tables, every move judged by the same engines as "
                                "`pitboss validate`; each seat sees only what it may see."},
        "components": _components(rules),
        "paths": _paths(notations),
    }


def _components(rules: str) -> dict[str, Any]:
    return {
        "securitySchemes": {"seat": {"type": "http", "scheme": "bearer",
                                     "description": "A seat token, as the table's creation answered it."}},
        "schemas": {
            "Error": {"type": "object", "properties": {"error": {"type": "string"}, "detail": {},
                                                       "rule": {"type": ["string", "null"]}},
                      "required": ["error"]},
            "NewTable": {"type": "object", "required": ["game", "seats"], "properties": {
                "game": {"type": "string"},
                "rules": {"type": "string", "description": f"a rule set: {rules}"},
                "options": {"type": "string", "description": "rule toggles, as the record's Options tag writes them"},
                "seats": {"type": "array", "items": {"type": "string"}},
                "bots": {"type": "object", "additionalProperties": {"type": "string", "enum": ["random", "greedy"]}},
                "decks": {"type": "object", "additionalProperties": {"type": "string"}},
                "rounds": {"type": "integer", "minimum": 1},
                "seed": {"type": "integer", "minimum": 0},
                "move_limit": {"type": "integer", "minimum": 1,
                               "description": "plies after which a game the rules have not ended stops, as a "
                                              "valid record with [Termination \"move limit\"] and the result * "
                                              "(games that need one; default 1000)"},
                "clock": {"type": "object", "properties": {"move_seconds": {"type": "number"}}}}},
            "Move": {"type": "object", "required": ["move"], "properties": {
                "move": {"type": "string", "description": "the move in notation, as the seat's legal list writes it"},
                "ply": {"type": "integer"}}},
            "MoveAnswer": {"type": "object", "properties": {
                "accepted": {"type": "boolean"}, "ply": {"type": "integer"}, "move": {"type": "string"},
                "drawn": {"type": "string"}, "events": {"type": "array", "items": {"type": "string"}},
                "status": {"type": "string"}, "result": {}, "counted_as": {"type": "string"},
                "rule": {"type": "string"}, "message": {"type": "string"}}},
            "View": {"type": "object", "properties": {
                "id": {"type": "string"}, "game": {"type": "string"}, "rules": {"type": "string"},
                "options": {"type": "string"}, "status": {
                    "type": "string", "enum": ["waiting", "playing", "finished", "interrupted"],
                    "description": "interrupted: a table played over another protocol (the contest's, "
                                   "pitboss serve --NAME) whose connections ended with the process that held "
                                   "them; its record is what was played"},
                "ply": {"type": "integer"}, "round": {"type": ["integer", "null"]},
                "to_move": {"type": ["string", "null"]}, "seats": {"type": "array", "items": {"type": "object"}},
                "table": {"type": "object"}, "moves": {"type": "array", "items": {"type": "string"}},
                "result": {}, "seat": {"type": "string"}, "hand": {"type": "array", "items": {"type": "string"}},
                "deck_left": {"type": "integer"}, "legal": {"type": "array", "items": {"type": "string"}},
                "moves_from": {"type": "integer", "description": "a contest table: the ply of the first of its "
                               "moves, which are the game in play's"},
                "contest": {"type": "object", "description": "a contest table: its games, points, protocols"},
                "reports": {"type": "array", "items": {"type": "object"},
                            "description": "a contest table: what its clients did wrong (player, name, kind, "
                                           "message, game, turn, at)"}}},
        },
    }


def _paths(notations: str) -> dict[str, Any]:
    return {**_table_paths(notations), **_job_paths(), **_page_paths()}


def _table_paths(notations: str) -> dict[str, Any]:
    """The service's health and its live tables."""
    return {
        "/healthz": {"get": {"summary": "Up and accepting requests", "responses": {"200": {"description": "ok"}}}},
        "/v1/tables": {
            "post": {"summary": "Create a table", "requestBody": {"required": True, "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/NewTable"}}}},
                "responses": {"201": {"description": "the table, with each seat's token (shown only here)",
                                      "content": _JSON_OBJECT},
                              "400": _error("malformed body"), "413": _error("body too big"),
                              "422": _error("a field the rules do not allow"),
                              "429": _error("this client address has its limit of unfinished tables (Retry-After)"),
                              "503": _error("the service holds its limit of unfinished tables (Retry-After)")}},
            "get": {"summary": "List tables, newest first",
                    "parameters": [{"name": "cursor", "in": "query", "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "{tables, next}", "content": _JSON_OBJECT},
                                  "400": _error("bad cursor")}}},
        "/v1/tables/{id}": {"get": {"summary": "The public view (spectators)", "parameters": [_TABLE_ID],
                                    "responses": {"200": {"description": "view", "content": {"application/json": {
                                        "schema": {"$ref": "#/components/schemas/View"}}}},
                                        "404": _error("no such table")}}},
        "/v1/tables/{id}/view": {"get": {"summary": "A seat's view: its hand and legal moves", "security": _AUTH,
                                         "parameters": [_TABLE_ID],
                                         "responses": {"200": {"description": "view", "content": {"application/json": {
                                             "schema": {"$ref": "#/components/schemas/View"}}}},
                                             "401": _error("missing or unknown token"), "404": _error("no such table"),
                                             "429": _error("too many requests from this token")}}},
        "/v1/tables/{id}/moves": {"post": {
            "summary": "Play a move (notation), committed before it is answered", "security": _AUTH,
            "parameters": [_TABLE_ID],
            "requestBody": {"required": True,
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Move"}}}},
            "responses": {"200": {"description": "accepted (or, where the rules say so, counted as a pass)",
                                  "content": {"application/json": {
                                      "schema": {"$ref": "#/components/schemas/MoveAnswer"}}}},
                          "400": _error("malformed body or move"), "401": _error("missing or unknown token"),
                          "403": _error("a move line naming another seat"), "404": _error("no such table"),
                          "409": _error("stale ply or finished table"), "413": _error("body over 64 KiB"),
                          "422": {"description": "illegal: {accepted: false, rule, message, ply}",
                                  "content": _JSON_OBJECT},
                          "429": _error("too many requests from this token")}}},
        "/v1/tables/{id}/events": {"get": {
            "summary": "WebSocket: the reader's view, then one message per move, then the end (?token= for a seat)",
            "description": "First `{type: view, ...the reader's view}`; then per move `{type: move, ply, seat, "
                           "move, view}`, whose view leaves out `moves` (the history: `move` is its new entry, "
                           "null when the move adds none); then `{type: end, result}`. A reader that falls "
                           "behind (its unsent events past a backlog, 1 MiB by default, or its connection taking "
                           "nothing for 30 s) is closed with 4408 and reconnects for a fresh view.",
            "parameters": [_TABLE_ID, {"name": "token", "in": "query", "schema": {"type": "string"}}],
            "responses": {"101": {"description": "WebSocket"}}}},
        "/v1/tables/{id}/record": {"get": {"summary": f"The record ({notations}); the public part until finished",
                                           "parameters": [_TABLE_ID],
                                           "responses": {"200": {"description": "record", "content": _TEXT},
                                                         "404": _error("no such table")}}},
        "/v1/tables/{id}/picture": {"get": {"summary": "The table drawn as `pitboss show --svg` draws it",
                                            "parameters": [_TABLE_ID, {"name": "token", "in": "query",
                                                                       "schema": {"type": "string"}}],
                                            "responses": {"200": {"description": "SVG",
                                                                  "content": {"image/svg+xml": {}}},
                                                          "401": _error("unknown token"),
                                                          "404": _error("no such table")}}},
    }


def _job_paths() -> dict[str, Any]:
    """What the command line's validate, annotate and solve print, over HTTP."""
    return {
        "/v1/validate": {"post": {"summary": "What `pitboss validate --json` prints for the record in the body",
                                  "requestBody": {"content": _TEXT},
                                  "responses": {"200": {"description": "{summary, games}", "content": _JSON_OBJECT},
                                                "400": _error("not UTF-8"), "413": _error("body over 8 MiB")}}},
        "/v1/annotate": {"post": {"summary": "What `pitboss annotate --json` prints",
                                  "parameters": [{"name": "rules", "in": "query", "schema": {"type": "string"}},
                                                 {"name": "explain_all", "in": "query", "schema": {"type": "boolean"}}],
                                  "requestBody": {"content": _TEXT},
                                  "responses": {"200": {"description": "{summary, records}", "content": _JSON_OBJECT},
                                                "413": _error("body over 8 MiB"), "422": _error("cannot annotate")}}},
        "/v1/solve": {"post": {"summary": "What `pitboss solve --json` prints",
                               "requestBody": {"content": {"application/json": {
                                   "schema": {"type": "object", "required": ["record", "question"]}}}},
                               "responses": {"200": {"description": "the answer", "content": _JSON_OBJECT},
                                             "400": _error("malformed body"), "413": _error("body over 8 MiB"),
                                             "422": _error("a question the position cannot be asked")}}},
    }


def _page_paths() -> dict[str, Any]:
    """The web pages: the lobby, a table live, a finished table replayed."""
    return {
        "/": {"get": {"summary": "Web page: the tables, and a form that starts a new one",
                      "responses": {"200": {"description": "HTML"}}}},
        "/tables/{id}": {"get": {"summary": "Web page: watch a table live, or play it with a seat's token (#token=...)",
                                 "parameters": [_TABLE_ID], "responses": {"200": {"description": "HTML"},
                                                                          "404": _error("no such table")}}},
        "/tables/{id}/replay": {"get": {"summary": "Web page: a finished table's record replayed move by move "
                                                   "(what `pitboss show --html` writes)",
                                        "parameters": [_TABLE_ID],
                                        "responses": {"200": {"description": "HTML"}, "404": _error("no such table"),
                                                      "409": _error("the table is not finished")}}},
    }
