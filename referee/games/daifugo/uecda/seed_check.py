"""What a contest log's header and extra lines let the referee check beyond the plays.

* :class:`SeedCheck`: the seats, dealer and hands of every game re-derived from the
  header's ``RANDOM_SEED`` with the server's own generator and draws (engine/tndhms.py),
  game after game, including the random places of the 20-pass rule, which shift every later
  deal (``daifugo.deal.seed``). It follows a log from its first game; once a game cannot be
  replayed to its end (its draws are then unknown) it stops, saying nothing more.
* :func:`logged_exchange`: the later revision's ``change_cards`` line, played through the
  engine instead of inferring the exchange (``daifugo.exchange.logged`` when the line does
  not record the exchange the game makes; the engine's own rule when a transfer breaks it).
* :class:`PointsCheck`: the later revision's ``points`` line, each player's running total
  (the engine's ``place_points`` per game), and the ``TOTAL_POINT`` line after the last
  game (``daifugo.result.points``).
"""

from __future__ import annotations

from referee.engines.message import J, N, T
from referee.games.daifugo import engine as df
from referee.games.daifugo.uecda.engine import tndhms
from referee.games.daifugo.uecda.notation import log as ul
from referee.notation.records import Finding

SEED_RULE = "daifugo.deal.seed"
EXCHANGE_RULE = "daifugo.exchange.logged"
POINTS_RULE = "daifugo.result.points"
#: The header lines the server's draws depend on; without all of them nothing is checked.
_DRAW_KEYS = ("RANDOM_SEED", "RAND_TYPE", "RULE_SEKIGAE", "RULE_SEKIGAE_NUM", "FLASH_MIBUN_NUMBER", "RULE_CHANGE")


def match_rules(header: ul.LogHeader) -> tndhms.MatchRules | None:
    """The draws' settings a log header states, or None when it lacks one of them."""
    if any(k not in header.flags for k in _DRAW_KEYS):
        return None
    return tndhms.MatchRules(sekigae=header.flag("RULE_SEKIGAE", True),
                             sekigae_num=header.number("RULE_SEKIGAE_NUM", 3),
                             flash=header.number("FLASH_MIBUN_NUMBER", 100),
                             change=header.flag("RULE_CHANGE", True),
                             rand_type=header.flags["RAND_TYPE"].strip())


def _names(game: ul.LogGame, player: int) -> str:
    names = game.header.names if game.header else ()
    return names[player] if 0 <= player < len(names) else f"player {player}"


class SeedCheck:
    """The server's generator, followed through one log's games in order."""

    def __init__(self) -> None:
        self.match: tndhms.Match | None = None
        self.lost = False

    def lose(self) -> None:
        """A game whose draws are unknown (it was not replayed to its end): stop here."""
        self.lost = True

    def judge(self, game: ul.LogGame, previous_result: tuple[int, ...] | None) -> list[Finding]:
        """The game's seat line and hands against the server's draws for it. The first
        contradiction is reported once; the check stops after it."""
        if self.lost or game.header is None:
            return []
        if self.match is None:
            rules = match_rules(game.header)
            seed = game.header.seed()
            if rules is None or seed is None or game.number != 0:
                self.lost = True  # an excerpt, or a header that does not say how it drew
                return []
            self.match = tndhms.Match(rules, seed)
        match = self.match
        if game.number != match.number or (previous_result is None and not match.rules.fresh(game.number + 1)):
            self.lost = True
            return []
        deal = match.deal(previous_result[0] if previous_result else None)
        seed = match.seed
        if tuple(game.seats) != deal.seats:
            self.lost = True
            line, column = game.seat_place
            return [Finding(SEED_RULE, T("seat {join} does not follow from RANDOM_SEED {seed}: the server's draws seat "
                                         "game {index} as {join2}", join=''.join(map(str, game.seats)), seed=seed,
                                         index=game.index, join2=''.join(map(str, deal.seats))),
                            line, column, round=game.index)]
        for p, (hand, dealt) in enumerate(zip(game.hands, deal.hands)):
            if sorted(hand) != sorted(dealt):
                self.lost = True
                line, column = game.hand_places[p][0] if game.hand_places[p] else (game.cards_line, game.cards_column)
                return [Finding(SEED_RULE, T("{names}'s hand {hand_code} does not follow from RANDOM_SEED {seed}: the "
                                             "server deals {hand_code2} (dealer {names2})", names=_names(game, p),
                                             hand_code=ul.hand_code(hand), seed=seed, hand_code2=ul.hand_code(dealt),
                                             names2=_names(game, deal.dealer)),
                                line, column, round=game.index, player=_names(game, p))]
        return []

    def ended(self, game: ul.LogGame, state: df.State) -> list[Finding]:
        """After the game's replay: a game the 20-pass rule ended drew its places; they
        must be the result line's."""
        if self.lost or self.match is None or not state.stalled:
            return []
        order = self.match.stall_places(state.finished)
        if order == game.result.order:
            return []
        self.lost = True
        return [Finding(SEED_RULE, T("result {join} does not follow from RANDOM_SEED {seed}: the 20-pass rule's draws "
                                     "place the players still in as {join2}", join=''.join(map(str, game.result.order)),
                                     seed=self.match.seed, join2=''.join(map(str, order))),
                        game.result.line, game.result.column, round=game.index)]


def logged_exchange(game: ul.LogGame, start: df.State) -> tuple[df.State, list[Finding]]:
    """The state after the exchange the change_cards line records, or the findings that
    say why it cannot be the game's."""
    changes = game.changes or []
    where = changes[0] if changes else None

    def error(rule: str, message: str, change: ul.LogChange | None = None) -> list[Finding]:
        at = change or where
        line, column = (at.line, at.column) if at else (game.cards_line + 1, 1)
        return [Finding(rule, message, line, column, round=game.index,
                        player=_names(game, at.giver) if at else None, move=at.text if at else None)]

    if start.phase != "exchange":
        if changes:
            return start, error(EXCHANGE_RULE,
                                N("change_cards records {n} transfer, but game {index} has no exchange (it starts a "
                                  "block, or the rules have none): the line is NULL then",
                                  "change_cards records {n} transfers, but game {index} has no exchange (it starts a "
                                  "block, or the rules have none): the line is NULL then",
                                  len(changes), index=game.index))
        return start, []
    state = start
    for change in changes:
        if change.cards is None:
            return state, error(EXCHANGE_RULE, T("{text} holds a code that is no card", text=change.text), change)
        move = df.Give(change.giver, change.receiver, change.cards)
        v = df.check(state, move)
        if v is not None:
            return state, error(v.rule, v.message, change)
        state = df.apply(state, move)
    if state.phase == "exchange":
        owed = J(", ", (T("{giver} {n} to {receiver}", giver=_names(game, d.giver), n=d.count,
                           receiver=_names(game, d.receiver)) for d in state.pending))
        if not changes:
            return state, error(EXCHANGE_RULE, T("change_cards is NULL, but game {index} has an exchange: still owed "
                                                 "{owed}", index=game.index, owed=owed))
        return state, error(EXCHANGE_RULE, N("change_cards records {n} transfer, but game {index} has an exchange: "
                                             "still owed {owed}",
                                             "change_cards records {n} transfers, but game {index} has an "
                                             "exchange: still owed {owed}", len(changes), index=game.index, owed=owed))
    return state, []


class PointsCheck:
    """The later revision's running totals: each game adds ``place_points`` of each
    player's place to the previous game's points line (nothing before the first game)."""

    def __init__(self) -> None:
        self.base: tuple[int, ...] | None = None
        self.number: int | None = None

    def judge(self, game: ul.LogGame) -> list[Finding]:
        points = game.points
        if points is None:
            self.base = self.number = None
            return []
        if self.number is not None and game.number == self.number + 1:
            base = self.base
        else:
            base = (0,) * tndhms.N_PLAYERS if game.number == 0 else None
        self.base, self.number = points.values, game.number
        found: list[Finding] = []
        order = game.result.order
        if base is not None and sorted(order) == list(range(tndhms.N_PLAYERS)):
            want = tuple(base[p] + tndhms.place_points(order.index(p)) for p in range(tndhms.N_PLAYERS))
            if want != points.values:
                found.append(Finding(POINTS_RULE,
                                     T("points {join} do not follow from the result {join2}: the running totals are "
                                       "{join3}", join=' '.join(map(str, points.values)),
                                       join2=''.join(map(str, order)), join3=' '.join(map(str, want))),
                                     points.line, points.column, round=game.index))
        total = game.total
        if total is not None and total.values != points.values:
            found.append(Finding(POINTS_RULE, T("TOTAL_POINT {join} is not the last game's points {join2}",
                                                join=' '.join(map(str, total.values)),
                                                join2=' '.join(map(str, points.values))),
                                 total.line, total.column, round=game.index))
        return found
