"""Caravan at the live table (``pitboss serve``): the game's side of :mod:`referee.jobs.live`.

Moves are read as CVN writes them and judged by the engine (``check``/``apply``); the
decks come from the creator or, missing, are random legal decks drawn from the table's
seed (the self-play deck builder). A seat that runs out of time forfeits.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from referee.games.caravan import engine as cv
from referee.games.caravan import selfplay
from referee.games.caravan.notation import cvn
from referee.jobs.frame import Frame
from referee.jobs.live import LiveError, Outcome
from referee.notation.cards import CardError, parse_card

#: The stored text of a forfeit on time (never a move a client sends as notation).
FORFEIT = "forfeit"


class _Judged(NamedTuple):
    """An accepted move and the position after it, kept in its outcome until committed."""

    move: cv.Move
    after: cv.State


def _deck_from_text(name: str, text: str) -> list[cvn.DeckCard]:
    if not isinstance(text, str):
        raise LiveError(f"the deck of {name} must be a string of cards, as a Deck tag writes it", 400)
    out = []
    for word in text.split():
        card_text, _, set_name = word.partition("/")
        try:
            out.append(cvn.DeckCard(parse_card(card_text), set_name))
        except CardError as err:
            raise LiveError(f"the deck of {name}: {err}", 400) from None
    return out


def create(body: dict[str, Any]) -> dict[str, Any]:
    """The set-up of a table from a creation request (see :mod:`referee.jobs.live`)."""
    rules_name = body.get("rules") or cv.DEFAULT_RULES
    try:
        rules = cv.ruleset(rules_name)
    except ValueError as err:
        raise LiveError(str(err), 422) from None
    if body.get("options"):
        raise LiveError("Caravan has no options (options are Daifugo's toggles)", 422)
    if body.get("rounds") not in (None, 1):
        raise LiveError("a Caravan table is one game: rounds must be 1 or left out", 422)
    seats = body["seats"]
    if len(seats) != 2:
        raise LiveError(f"Caravan is played by 2 seats, not {len(seats)}", 422)
    seed = body["seed"]
    rng = random.Random(seed)
    given = body.get("decks") or {}
    if not isinstance(given, dict) or any(name not in seats for name in given):
        raise LiveError("decks maps seat names to Deck tag values, e.g. {\"Ann\": \"7H 8H ...\"}", 400)
    decks = []
    for p, name in enumerate(seats):
        if name in given:
            deck = _deck_from_text(name, given[name])
            found = cv.check_deck(rules, [(d.card, d.set) for d in deck], name)
            if found:
                raise LiveError(found[0].message, 422, found[0].rule, [v._asdict() for v in found])
        else:
            deck = selfplay.random_deck(rng, rules)
        decks.append([str(d) for d in deck])
    limit = body.get("move_limit", selfplay.MOVE_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise LiveError("move_limit is a number of plies, 1 or more", 422)
    return {"rules": rules_name, "options": "", "seats": list(seats), "decks": decks, "first": 0, "seed": seed,
            "move_limit": limit}


def form() -> dict[str, Any]:
    """What a form for a new table offers (see :mod:`referee.jobs.live`)."""
    return {"seats": {name: [2] for name in cv.RULESETS}, "names": ["Ann", "Bob"], "options": [], "presets": {},
            "rounds": False}


def open(setup: dict[str, Any]) -> CaravanMatch:  # noqa: A001 - the protocol's name
    return CaravanMatch(setup)


def _deck_cards(words: list[str]) -> list[cvn.DeckCard]:
    return [cvn.DeckCard(parse_card(w.partition("/")[0]), w.partition("/")[2]) for w in words]


class CaravanMatch:
    def __init__(self, setup: dict[str, Any]):
        self.setup = setup
        self.seats: list[str] = list(setup["seats"])
        self.rules = cv.ruleset(setup["rules"])
        self.decks = [_deck_cards(d) for d in setup["decks"]]
        self.state = cv.new_game(self.rules, ([d.card for d in self.decks[0]], [d.card for d in self.decks[1]]),
                                 setup["first"])
        self.moves: list[cv.Move] = []
        self.public: list[str] = []
        self.ply = 0
        #: Who forfeited on time, if anyone.
        self.forfeited: int | None = None
        #: The game stops after this many plies (a Pitboss ruling: an fnv game need not end).
        self.limit: int = setup.get("move_limit", selfplay.MOVE_LIMIT)

    # ------------------------------------------------------------------ state

    @property
    def over(self) -> bool:
        return self.state.over or self.forfeited is not None or self.stopped

    @property
    def stopped(self) -> bool:
        """Stopped at the move limit, the rules not having ended the game."""
        return not self.state.over and self.forfeited is None and self.ply >= self.limit

    def status(self) -> str:
        return "finished" if self.over else "playing"

    def movers(self) -> list[int]:
        return [] if self.over else [self.state.to_move]

    def legal(self, seat: int) -> list[str]:
        if self.over or seat != self.state.to_move:
            return []
        return [cvn.move_text(m) for m in cv.legal_moves(self.state)]

    # ------------------------------------------------------------------ moves

    def _parse(self, text: str) -> cv.Move:
        if not isinstance(text, str) or not text.strip() or len(text) > 64:
            raise LiveError("a move is a CVN move such as 7H>A, KS>D2, discard 4C or disband B", 400)
        try:
            return cvn.parse_move(text)
        except (CardError, ValueError, IndexError) as err:
            raise LiveError(str(err), 400) from None

    def submit(self, seat: int, text: str) -> Outcome:
        move = self._parse(text)
        state = self.state
        turn = cv.check_mover(state, seat)
        if turn is not None:
            return Outcome(False, seat, rule=turn.rule,
                           message=f"it is {self.seats[state.to_move]}'s turn, not {self.seats[seat]}'s")
        violation = cv.check(state, move)
        if violation is not None:
            return Outcome(False, seat, rule=violation.rule, message=violation.message)
        return self._accepted(seat, move)

    def _accepted(self, seat: int, move: cv.Move) -> Outcome:
        before = self.state
        set_off: list[str] = []
        after = cv.apply(before, move, set_off)
        drawn = None
        deck = before.decks[seat]
        if deck and after.decks[seat] != deck:
            drawn = str(deck[0])
        text = cvn.move_text(move)
        events = list(dict.fromkeys(set_off))  # what the move set off, as the engine says
        return Outcome(True, seat, text, text, drawn, events, after=_Judged(move, after))

    def commit(self, outcome: Outcome) -> None:
        if outcome.stored == FORFEIT:
            # a forfeit on time ends the game; it is no move (the record has none for it,
            # only [Termination "forfeit"]), so ``ply`` stays the number of moves played
            self.forfeited = outcome.seat
            return
        judged = outcome.after
        if not isinstance(judged, _Judged):
            raise TypeError("an outcome this table did not judge")
        move, after = judged
        self.moves.append(move)
        self.public.append(outcome.public)
        self.state = after
        self.ply += 1

    def server_move(self) -> Outcome | None:
        return None

    def bot_move(self, seat: int, style: str, seed: int) -> Outcome:
        from referee.games.caravan import players

        move = players.choose(self.state, style, random.Random(seed))
        return self._accepted(seat, move)

    def timeout_move(self, seat: int) -> Outcome:
        return Outcome(True, seat, FORFEIT, "")

    def replay(self, seat: int, stored: str) -> None:
        if stored == FORFEIT:
            self.commit(self.timeout_move(seat))
            return
        outcome = self.submit(seat, stored)
        if not outcome.accepted:
            raise LiveError(f"stored move {stored!r} does not replay: {outcome.message}", 500, outcome.rule)
        self.commit(outcome)

    # ------------------------------------------------------------------ views

    def _winner(self) -> int | None:
        if self.forfeited is not None:
            return 1 - self.forfeited
        return self.state.winner

    def result(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        if self.stopped:
            return {"score": "*", "winner": None, "end": "move limit", "lanes": self._lanes()}
        w = self._winner()
        if w is None:  # over means decided: by the lanes, a player out of cards, or a forfeit
            raise AssertionError("a finished Caravan table has a winner")
        return {"score": "1-0" if w == 0 else "0-1", "winner": self.seats[w],
                "end": "forfeit" if self.forfeited is not None else self.state.end,
                "lanes": self._lanes()}

    def _lanes(self) -> list[dict[str, Any]]:
        out = []
        for a, b in cv.LANES:
            w = cv.lane_winner(self.state.values[a], self.state.values[b])
            holder = None if w is None else self.seats[cv.owner(a if w == 0 else b)]
            out.append({"lane": f"{cv.LETTERS[a]}/{cv.LETTERS[b]}", "holder": holder})
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        table: dict[str, Any] = {}
        caravans: dict[str, Any] = {}
        for c, caravan in enumerate(state.caravans):
            letter = cv.LETTERS[c]
            table[letter] = [str(s.card) + (f"({' '.join(map(str, s.faces))})" if s.faces else "") for s in caravan]
            d = self.rules.direction(caravan)
            caravans[letter] = {"value": state.values[c], "owner": self.seats[cv.owner(c)],
                                "direction": {1: "ascending", -1: "descending"}.get(d),
                                "suit": cv.current_suit(caravan)}
        table["caravans"] = caravans
        table["lanes"] = self._lanes()
        table["opening"] = not self.over and state.in_opening()
        out: dict[str, Any] = {
            "to_move": None if self.over else self.seats[state.to_move],
            "round": None,
            "seats": [{"name": n, "cards": state.hands[p].size, "deck_left": len(state.decks[p] or ())}
                      for p, n in enumerate(self.seats)],
            "table": table,
            "moves": list(self.public),
            "result": self.result(),
        }
        if seat is not None:
            out["hand"] = [str(c) for c in state.hands[seat].known]
            out["deck_left"] = len(state.decks[seat] or ())
            out["legal"] = self.legal(seat)
        return out

    def record(self) -> str:
        tags = {"Game": "Caravan", "Rules": self.rules.name, "Player1": self.seats[0], "Player2": self.seats[1],
                "First": str(self.setup["first"] + 1)}
        result = "*"
        if self.over:
            tags["Deck1"] = " ".join(self.setup["decks"][0])
            tags["Deck2"] = " ".join(self.setup["decks"][1])
            result = "*" if self.stopped else "1-0" if self._winner() == 0 else "0-1"
            if self.forfeited is not None:
                tags["Termination"] = "forfeit"
            if self.stopped:
                tags["Termination"] = "move limit"
            tags["Seed"] = str(self.setup["seed"])
        tags["Result"] = result
        return cvn.write_caravan(tags, self.moves)

    def frame(self, seat: int | None) -> Frame[cv.State, cv.Move]:
        state = self.state
        decks: tuple[int, ...] = ()
        if not self.over:
            mine, theirs = state.hands
            hands = (mine if seat == 0 else cv.Hand((), mine.size), theirs if seat == 1 else cv.Hand((), theirs.size))
            decks = tuple(len(d or ()) for d in state.decks)
            state = state._replace(hands=hands, decks=(None, None))
        last = self.public[-1] if self.public else None
        return Frame("caravan", state, self.rules.name, len(self.moves), None, last,
                     self.seats[1 - self.state.to_move] if last else None,
                     action=self.moves[-1] if self.moves else None, names=tuple(self.seats), hidden_decks=decks,
                     reader=seat)
