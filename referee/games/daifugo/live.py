"""Daifugo at the live table (``pitboss serve``): a table's set-up from a creation
request (:func:`create`) and its match (:class:`DaifugoMatch`), which the game's ``live``
part (:mod:`referee.games.daifugo.tables`) opens.

A table is a match of rounds. Each round is dealt from the table's seed as self-play
deals (one card at a time, from where the rules start the deal); the exchange gifts the
rules fix (the strongest cards) the server makes itself, the others are the givers'
choice. Moves are DFN move lines judged by the engine; under ``uecda`` a rejected
submission counts as a pass (``engine.reject``), as the contest server does. A seat that
runs out of time passes (or, where a pass is not allowed, makes its first legal move).
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from referee.engines.base import Card
from referee.games.daifugo import engine as df
from referee.games.daifugo import selfplay
from referee.games.daifugo.notation import dfn
from referee.games.daifugo.render import TablePlay
from referee.jobs.frame import Frame
from referee.jobs.live import LiveError, Outcome
from referee.notation.cards import CardError

MAX_ROUNDS = 100


class _Judged(NamedTuple):
    """A move taken (or counted) and the position after it, kept in its outcome until committed."""

    move: df.Move
    after: df.State


def create(body: dict[str, Any]) -> dict[str, Any]:
    preset = body.get("rules") or df.DEFAULT_PRESET
    options = body.get("options") or ""
    if not isinstance(preset, str) or not isinstance(options, str):
        raise LiveError("rules and options are strings", 400)
    try:
        rules = dfn.ruleset_of(preset, options)
    except ValueError as err:
        raise LiveError(str(err), 422) from None
    seats = list(body["seats"])
    n = len(seats)
    count = df.check_players(rules, n)
    if count is not None:
        raise LiveError(count.message, 422, count.rule)
    for name in seats:
        if not dfn.is_player_name(name) or name == "pass":
            raise LiveError(f"{name!r} cannot be a player name (names may not hold spaces nor any of "
                            "[ ] { } ; \" ( ) $ ! ? > : *)", 422)
    if body.get("decks"):
        raise LiveError("decks are Caravan's; Daifugo deals from the seed", 422)
    if body.get("move_limit") is not None:
        raise LiveError("move_limit is Caravan's: every Daifugo round ends by its rules within a bound "
                        "(pitboss prove daifugo termination)", 422)
    rounds = body.get("rounds", 1)
    if rounds is None:
        rounds = 1
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise LiveError(f"rounds is a whole number from 1 to {MAX_ROUNDS}", 422)
    seed = body["seed"]
    order = None
    if rules.seating == "given":
        order = random.Random(f"{seed}/seats").sample(range(n), n)
    setup = {"rules": rules.name, "options": dfn.options_text(rules), "seats": seats, "rounds": rounds,
             "seed": seed, "order": order}
    if body.get("hands") is not None:
        setup["hands"] = _given_hands(rules, body["hands"], n)
    return setup


def _given_hands(rules: df.RuleSet, given: Any, n: int) -> list[str]:
    """The first round's deal, given (a start position): one hand per seat, in turn order
    from the first seat, as a Hand tag writes it; the deal is judged as a record's would be
    (``[Hand]`` tags; where the rules seat the players at random, any rotation of it)."""
    if not isinstance(given, list) or len(given) != n or not all(isinstance(h, str) for h in given):
        raise LiveError(f"hands is a list of {n} hands, one per seat, as Hand tags write them", 400)
    try:
        hands = [dfn.decode_cards(h)[0] for h in given]
    except CardError as err:
        raise LiveError(f"hands: {err}", 400) from None
    found = df.check_deal(rules, hands, list(range(n)) if rules.deal_start == "first" else None)
    if found:
        raise LiveError(found[0].message, 422, found[0].rule)
    return [dfn.hand_text(h) for h in hands]


#: The names a form for a new table suggests, seat by seat.
NAMES = ("Aki", "Ben", "Chie", "Dai", "Eri", "Fumi", "Gen", "Hana")


def form() -> dict[str, Any]:
    """What a form for a new table offers (see :mod:`referee.jobs.live`): the seat counts
    each preset takes, its options (title, kind, the words a choice takes) and how each
    preset sets them."""
    from referee import spec
    from referee.i18n import current

    catalog = spec.catalog()
    options = []
    for name in df.OPTIONS:
        rule = catalog.get(f"daifugo.option.{name}")
        choices = df.OPTION_CHOICES.get(name, ())
        options.append({"name": name, "title": spec.translated(rule, current()).title if rule else name,
                        "kind": "choice" if choices else "length" if name == "stairs-revolution" else "bool",
                        "choices": list(choices)})
    return {"seats": {p: [n for n in range(2, len(NAMES) + 1) if df.check_players(r, n) is None]
                      for p, r in df.PRESETS.items()},
            "names": list(NAMES), "options": options,
            "presets": {p: {name: r.option(name) for name in df.OPTIONS} for p, r in df.PRESETS.items()},
            "rounds": True}


def _sorted(hand: tuple[Card, ...]) -> list[Card]:
    return sorted(hand, key=lambda c: (99 if c.is_joker else df.strength(c), "SHDC".find(c.suit)))


class DaifugoMatch:
    def __init__(self, setup: dict[str, Any]):
        self.setup = setup
        self.seats: list[str] = list(setup["seats"])
        self.rules = dfn.ruleset_of(setup["rules"], setup["options"])
        self.n = len(self.seats)
        self.order = tuple(setup["order"]) if setup.get("order") is not None else None
        self.rounds_wanted: int = setup["rounds"]
        #: Finished and current rounds: tags and moves (engine moves).
        self.rounds: list[tuple[dict[str, str], list[df.Move]]] = []
        self.finishes: list[tuple[int, ...]] = []
        self.public: list[str] = []
        self.ply = 0
        #: The play on the table (for the view and the picture).
        self.last_play: df.Play | None = None
        self._deal(None)

    # ------------------------------------------------------------------ rounds

    def _deal(self, previous: tuple[int, ...] | None) -> None:
        rules = self.rules
        number = len(self.rounds) + 1
        rng = random.Random(f"{self.setup['seed']}/round/{number}")
        fixed = df.default_seats(rules, self.n, previous)
        seat_t = fixed if fixed is not None else (self.order or tuple(range(self.n)))
        if rules.deal_start == "first":
            deal_order = list(previous) if previous is not None else list(range(self.n))
        else:
            start = rng.randrange(self.n)
            deal_order = list(seat_t[start:] + seat_t[:start])
        hands = selfplay.deal(rng, rules, self.n, deal_order)
        if number == 1 and self.setup.get("hands"):  # given by seat, in turn order
            given = [dfn.decode_cards(h)[0] for h in self.setup["hands"]]
            for s, p in enumerate(seat_t):
                hands[p] = given[s]
        tags = {"Round": str(number)}
        for p, name in enumerate(self.seats):
            tags[f"{dfn.HAND_PREFIX}{name}"] = dfn.hand_text(hands[p])
        if fixed is None:
            tags["Order"] = " ".join(self.seats[p] for p in seat_t)
        self.rounds.append((tags, []))
        self.state = df.new_round(rules, hands, seat_t, previous, number, self.seats)
        self.last_play = None

    def _after_move(self) -> None:
        if not self.state.over:
            return
        order = df.finishing_order(self.state)
        assert order is not None
        self.finishes.append(order)
        self.rounds[-1][0]["Finish"] = " ".join(self.seats[p] for p in order)
        if len(self.rounds) < self.rounds_wanted:
            self._deal(order)

    @property
    def over(self) -> bool:
        return self.state.over and len(self.finishes) >= self.rounds_wanted

    def status(self) -> str:
        return "finished" if self.over else "playing"

    def _gifts(self, seat: int) -> list[df.Give]:
        return [m for m in df.legal_moves(self.state) if isinstance(m, df.Give) and m.giver == seat]

    def movers(self) -> list[int]:
        state = self.state
        if self.over:
            return []
        if state.phase == "exchange":
            return sorted({m.giver for m in df.legal_moves(state) if isinstance(m, df.Give)})
        return [] if state.to_move is None else [state.to_move]

    def legal(self, seat: int) -> list[str]:
        state = self.state
        if self.over:
            return []
        if state.phase == "exchange":
            if self._fixed_gift() is not None:
                return []
            return [dfn.move_text(m, self.seats) for m in self._gifts(seat)]
        if seat != state.to_move:
            return []
        return [dfn.move_text(m, self.seats) for m in df.legal_moves(state)]

    # ------------------------------------------------------------------ moves

    def _parse(self, seat: int, text: str) -> tuple[df.Move, int]:
        """The move, and the seat it names (its giver for a gift)."""
        if not isinstance(text, str) or ":" not in text or len(text) > 200:
            raise LiveError("a move is a DFN move line such as 'Aki: 3D 3H', 'Aki: pass' or "
                            "'Dai -> Aki: 2S JK'", 400)
        head, _, rest = text.strip().partition(":")
        rest = rest.strip()
        index_of = {name: i for i, name in enumerate(self.seats)}
        names = [w.strip() for w in head.split("->")]
        if len(names) > 2 or any(w not in index_of for w in names):
            unknown = next((w for w in names if w not in index_of), head.strip())
            raise LiveError(f"{unknown!r} is not one of the players ({', '.join(self.seats)})", 400)
        who = index_of[names[0]]
        if not rest:
            raise LiveError("the move names no cards: write the cards, or pass", 400)
        try:
            if rest.lower() == "pass":
                if len(names) == 2:
                    raise LiveError("a gift is cards, not pass", 400)
                return df.Pass(who), who
            cards, stands = dfn.decode_cards(rest)
        except CardError as err:
            raise LiveError(str(err), 400) from None
        if len(names) == 2:
            return df.Give(who, index_of[names[1]], cards), who
        return df.Play(who, cards, stands), who

    def submit(self, seat: int, text: str, replaying: bool = False) -> Outcome:
        move, who = self._parse(seat, text)
        if who != seat:
            return Outcome(False, seat, rule=None, status=403,
                           message=f"the move names {self.seats[who]}, but this token is {self.seats[seat]}'s")
        state = self.state
        violation = df.check(state, move)
        if violation is None:
            return self._accepted(seat, move, df.apply(state, move))
        if (self.rules.rejection_is_pass and violation.rule not in df.TURN_RULES and state.phase == "play"
                and state.to_move == seat):
            after = df.reject(state, move)
            out = self._accepted(seat, move, after)
            out.accepted = False
            out.counted_as = "pass"
            out.public = f"{self.seats[seat]}: pass"
            out.rule, out.message = violation.rule, violation.message
            return out
        return Outcome(False, seat, rule=violation.rule, message=violation.message)

    def _accepted(self, seat: int, move: df.Move, after: df.State) -> Outcome:
        text = dfn.move_text(move, self.seats)
        if isinstance(move, df.Give):
            public = f"{self.seats[move.giver]} -> {self.seats[move.receiver]}: {' '.join('?' * len(move.cards))}"
        else:
            public = text
        return Outcome(True, seat, text, public, None, list(after.events), after=_Judged(move, after))

    def commit(self, outcome: Outcome) -> None:
        judged = outcome.after
        if not isinstance(judged, _Judged):
            raise TypeError("an outcome this table did not judge")
        move, after = judged
        self.rounds[-1][1].append(move)
        self.public.append(outcome.public)
        self.ply += 1
        if isinstance(move, df.Play) and outcome.accepted:
            self.last_play = move
        self.state = after
        if after.table is None:
            self.last_play = None
        self._after_move()

    def _fixed_gift(self) -> df.Give | None:
        """The next gift the rules fix (the strongest cards), which the server makes."""
        state = self.state
        if state.phase != "exchange":
            return None
        for duty in state.pending:
            if duty.choose != "strongest":
                continue
            source = (state.dealt[duty.giver] if self.rules.exchange_style == "simultaneous"
                      and state.dealt is not None else state.hands[duty.giver])
            gift = df.Give(duty.giver, duty.receiver, df.strongest_cards(source, duty.count))
            if df.check(state, gift) is None:
                return gift
        return None

    def server_move(self) -> Outcome | None:
        gift = self._fixed_gift()
        if gift is None:
            if self.state.phase == "exchange":
                # a gift with one legal choice only is no choice: the server makes it too
                for seat in self.movers():
                    gifts = self._gifts(seat)
                    if len(gifts) == 1:
                        return self._accepted(seat, gifts[0], df.apply(self.state, gifts[0]))
            return None
        return self._accepted(gift.giver, gift, df.apply(self.state, gift))

    def bot_move(self, seat: int, style: str, seed: int) -> Outcome:
        from referee.games.daifugo import players

        move = players.choose(self.state, seat, style, random.Random(seed))
        return self._accepted(seat, move, df.apply(self.state, move))

    def timeout_move(self, seat: int) -> Outcome:
        state = self.state
        if state.phase == "exchange":
            move: df.Move = self._gifts(seat)[0]
        else:
            move = df.Pass(seat)
            if df.check(state, move) is not None:
                move = next(m for m in df.legal_moves(state) if not isinstance(m, df.Pass))
        out = self._accepted(seat, move, df.apply(state, move))
        out.events.append("clock")
        return out

    def replay(self, seat: int, stored: str) -> None:
        outcome = self.submit(seat, stored, replaying=True)
        if not outcome.counts:
            raise LiveError(f"stored move {stored!r} does not replay: {outcome.message}", 500, outcome.rule)
        self.commit(outcome)

    # ------------------------------------------------------------------ views

    def result(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        return {"rounds": self._finished_rounds()}

    def _finished_rounds(self) -> list[dict[str, Any]]:
        out = []
        for number, order in enumerate(self.finishes, start=1):
            titles = df.titles(order)
            out.append({"round": number, "finish": [self.seats[p] for p in order],
                        "titles": {self.seats[p]: titles[p] for p in range(self.n)}})
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        trick = None
        if state.table is not None and state.last_player is not None:
            trick = {"combination": str(state.table), "by": self.seats[state.last_player],
                     "cards": (dfn.cards_text(self.last_play.cards, self.last_play.joker_as).split()
                               if self.last_play is not None else None)}
        previous = df.titles(state.previous) if state.previous is not None else None
        table = {
            "phase": state.phase,
            "trick": trick,
            "passed": [self.seats[p] for p in state.seats if p in state.passed and state.is_in(p)],
            "out": [self.seats[p] for p in state.finished],
            "revolution": state.revolution,
            "back": state.back,
            "lock": sorted(state.lock, key="SHDC".find) if state.lock else None,
            "direction": state.direction,
            "seat_order": [self.seats[p] for p in state.seats],
            "gifts_owed": [{"from": self.seats[d.giver], "to": self.seats[d.receiver], "cards": d.count}
                           for d in state.pending],
            "rounds_done": self._finished_rounds(),
            "rounds": self.rounds_wanted,
        }
        out: dict[str, Any] = {
            "to_move": None if self.over or state.to_move is None else self.seats[state.to_move],
            "round": state.round_no,
            "round_ply": len(self.rounds[-1][1]),
            "seats": [{"name": n, "cards": len(state.hands[p]), "title": previous[p] if previous else None}
                      for p, n in enumerate(self.seats)],
            "table": table,
            "moves": list(self.public),
            "result": self.result(),
        }
        if seat is not None:
            out["hand"] = [str(c) for c in _sorted(state.hands[seat])]
            out["legal"] = self.legal(seat)
        return out

    def record(self) -> str:
        tags = {"Game": "Daifugo", "Rules": self.rules.name}
        if self.setup["options"]:
            tags["Options"] = self.setup["options"]
        tags["Players"] = " ".join(self.seats)
        if self.over:
            tags["Seed"] = str(self.setup["seed"])
            return dfn.write_daifugo(tags, self.rounds)
        # the public record: no hands, exchange cards as ?, rejections as the pass they were
        rounds = []
        i = 0
        for round_tags, moves in self.rounds:
            public_tags = {k: v for k, v in round_tags.items() if not k.startswith(dfn.HAND_PREFIX)}
            texts = self.public[i:i + len(moves)]
            i += len(moves)
            rounds.append((public_tags, texts))
        return dfn.write_texts(tags, rounds, 80)

    def frame(self, seat: int | None) -> Frame[df.State, df.Move]:
        state = self.state
        hidden: tuple[int, ...] = ()
        if not self.over:
            hidden = tuple(0 if p == seat else len(h) for p, h in enumerate(state.hands))
            state = state._replace(hands=tuple(h if p == seat else () for p, h in enumerate(state.hands)),
                                   dealt=None)
        table = None
        if self.last_play is not None and self.state.table is not None:
            table = TablePlay(self.seats[self.last_play.player], self.last_play.cards, self.last_play.joker_as)
        moves = self.rounds[-1][1]
        # the move that led here, as the round's record has it (none at a round's start)
        last = self.public[-1] if self.public and moves else None
        action = moves[-1] if moves else None
        return Frame("daifugo", state, self.rules.name, len(moves), state.round_no, last,
                     last.split(":")[0].split(" ->")[0] if last else None, table=table, action=action,
                     rejected=isinstance(action, df.Play) and last is not None and last.endswith(": pass"),
                     names=tuple(self.seats), hidden_hands=hidden, reader=seat)
