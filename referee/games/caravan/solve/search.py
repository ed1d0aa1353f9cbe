"""Exhaustive search through the Caravan engine.

``shortest_line``: breadth-first over the question's moves (``caravan_puzzle.moves``, each
checked and applied by the engine), one level per move, each position met once (a
transposition table keyed on the caravans, the hand and the deck). The first level that
meets the goal gives a shortest line. A branch is cut only where a sound bound shows the
goal out of reach in the moves left (``_may_reach``).

``forced_win``: AND-OR search over every legal move of both players (perfect information),
depth-first with a transposition table, the mover's moves that end the game tried first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from referee.engines.base import Card
from referee.games.caravan import engine as cv
from referee.games.caravan.solve.puzzle import Puzzle, advance, moves
from referee.jobs.solve import Deadline

# --------------------------------------------------------------------------- reach / fewest


@dataclass
class LineResult:
    line: list[cv.Move] | None
    nodes: int
    #: Positions met at each depth (how the search ruled lines out).
    levels: list[int] = field(default_factory=list)
    #: Branches cut by the value bound.
    cut: int = 0


def _key(state: cv.State, p: int) -> tuple:
    return (state.caravans, tuple(sorted(state.hands[p].known)), state.hands[p].unknown,
            state.decks[p], state.placed)


def shortest_line(puzzle: Puzzle, deadline: Deadline | None = None) -> LineResult:
    """A shortest line of at most ``puzzle.within`` moves that meets the goal, or None."""
    p = puzzle.player
    goal = puzzle.goal
    start = puzzle.start
    if goal.met(start):
        return LineResult([], 0, [1])
    parents: dict[tuple, tuple[tuple, cv.Move] | None] = {_key(start, p): None}
    frontier = [start]
    nodes = 0
    cut = 0
    levels = [1]
    for depth in range(1, puzzle.within + 1):
        left = puzzle.within - depth + 1  # moves left, this one included
        last = left == 1
        following: list[cv.State] = []
        for state in frontier:
            if not _may_reach(puzzle, state, left):
                cut += 1
                continue
            skey = _key(state, p)
            for move in moves(state, puzzle, last):
                if deadline is not None:
                    deadline.check()
                after = advance(state, move, p)
                nodes += 1
                akey = _key(after, p)
                if akey in parents:
                    continue
                parents[akey] = (skey, move)
                if goal.met(after):
                    return LineResult(_line(parents, akey), nodes, levels + [len(following) + 1], cut)
                if not after.over and not last:
                    following.append(after)
        levels.append(len(following))
        frontier = following
        if not frontier:
            break
    return LineResult(None, nodes, levels, cut)


def _line(parents: dict, key: tuple) -> list[cv.Move]:
    line = []
    while parents[key] is not None:
        key, move = parents[key]
        line.append(move)
    line.reverse()
    return line


def _may_reach(puzzle: Puzzle, state: cv.State, left: int) -> bool:
    """False only when the goal cannot hold after ``left`` more moves: for a caravan below
    21, even the best cards (every number card adds at most its value, every King at most
    doubles the biggest card) cannot add enough; above 26 with no Jack, Joker or disband
    to take value away."""
    if puzzle.goal.kind != "reach" or state.in_opening():
        return True
    p = puzzle.player
    x = puzzle.goal.caravan
    v = state.values[x]
    if cv.TARGET_LOW <= v <= cv.TARGET_HIGH:
        return True
    cards = list(state.hands[p].known)
    deck = state.decks[p]
    if deck:
        cards += list(deck[: max(0, left - 1)])
    if v > cv.TARGET_HIGH:
        if any(c.rank in (0, cv.JACK) for c in cards):
            return True
        # Only a disband lowers it: then the caravan is rebuilt from nothing.
        return left >= 2 and _gain_bound(cards, 0, left - 1) >= cv.TARGET_LOW
    biggest = max((cv.card_value(s) for s in state.caravans[x]), default=0)
    if v + _gain_bound(cards, biggest, left) >= cv.TARGET_LOW:
        return True
    # A Jack or Joker only lowers the value; a disband starts again from 0 (never better).
    return False


def _gain_bound(cards: list[Card], biggest: int, moves_left: int) -> int:
    """An upper bound on what ``moves_left`` moves with ``cards`` can add to a caravan whose
    biggest card counts ``biggest``: the best split between number cards (their values) and
    Kings (each at most doubles the biggest card, itself at most a 10 or ``biggest``)."""
    numbers = sorted((c.rank for c in cards if cv.is_number(c)), reverse=True)
    kings = sum(1 for c in cards if c.rank == cv.KING)
    base = max([biggest] + numbers[:moves_left])
    best = 0
    for k in range(0, min(kings, moves_left) + 1):
        gain = sum(numbers[: moves_left - k]) + (base * ((1 << k) - 1) if k else 0)
        best = max(best, gain)
    return best


# --------------------------------------------------------------------------- forced win


@dataclass
class WinResult:
    #: The first move of a winning strategy, or None.
    move: cv.Move | None
    #: For a "no": each of the mover's tries with a refuting reply (None when the try loses
    #: at once or leaves the game over without a win).
    refutation: list[tuple[cv.Move, cv.Move | None, str]]
    nodes: int
    #: The winning strategy: {move: {reply: strategy}} (for replay), when ``move`` is set.
    strategy: dict | None = None


@lru_cache(maxsize=1 << 16)
def lanes_needed(values: tuple[int, ...], mover: int) -> int:
    """The fewest lanes whose state (open, or whose it is) must change before every lane is
    decided with two of them the mover's: each open lane, and as many of the opponent's
    lanes as the mover would still be short. A lane's state depends on its two caravans'
    values only (``engine.lane_winner``); remembered per values (the search asks often)."""
    mine = open_ = 0
    for a, b in cv.LANES:
        w = cv.lane_winner(values[a], values[b])
        if w is None:
            open_ += 1
        elif w == mover:
            mine += 1
    return open_ + max(0, 2 - mine - open_)


@lru_cache(maxsize=1 << 16)
def low_lanes(values: tuple[int, ...]) -> int:
    """The lanes whose two caravans are both below 21 (open ones): only a move that raises
    a value there can decide them, and a Joker never raises one (it only takes cards away)."""
    low = cv.TARGET_LOW
    return sum(1 for a, b in cv.LANES if values[a] < low and values[b] < low)


def discard_reserve(state: cv.State, player: int) -> int:
    """How many discards in a row ``player`` can surely make, still holding a legal discard
    after the last one and never running out of cards on the way (-1: not even one now).

    A discard (``engine.judging._check_discard``) needs a card in hand, after the opening,
    and where the rule set forbids discarding from an empty deck, a card in the deck; each one draws
    the deck's top card. So with h cards in hand and d in the deck: h + d - 1 discards where
    an empty deck does not matter, d - 1 where it does (h >= 1 either way). The tests hold
    this to the engine: that many discards replay through ``check`` and ``apply``, the game
    still on and a discard still legal after them."""
    if state.placed[player] < cv.OPENING_PLACEMENTS:
        return -1
    hand = state.hands[player]
    deck = state.decks[player]
    if not hand.known or hand.unknown != 0 or deck is None:
        return -1
    if state.rules.discard_with_empty_deck:
        return len(hand.known) + len(deck) - 1
    return len(deck) - 1


def _in_reach(state: cv.State, player: int, moves: int) -> list[Card]:
    """The cards ``player`` can hold at one of its next ``moves`` moves: the hand, and the
    cards drawn after all but the last."""
    cards = list(state.hands[player].known)
    deck = state.decks[player]
    if deck and moves > 1:
        cards += deck[: moves - 1]
    return cards


def slow_lanes(state: cv.State, mover: int, cards: list[Card]) -> int:
    """The lanes below 21 on both sides that no single move can decide with ``cards``: on
    each side the value plus the most one move adds stays below 21. Only a number card
    raises a value (by its rank, on the mover's own caravans) or a King (by the value of the
    card it goes on); everything else leaves the values or lowers them, which leaves such a
    lane below 21 (the tests hold every legal move to this). So each needs two moves."""
    values = state.values
    low = cv.TARGET_LOW
    top = max((c.rank for c in cards if 1 <= c.rank <= 10), default=0)
    king = any(c.rank == cv.KING for c in cards)
    slow = 0
    for lane in cv.LANES:
        for x in lane:
            add = top if cv.owner(x) == mover else 0
            if king and state.caravans[x]:
                add = max(add, max(cv.card_value(slot) for slot in state.caravans[x]))
            if values[x] + add >= low:
                break
        else:
            slow += 1
    return slow


def out_of_reach(state: cv.State, mover: int, turns: int, discards: int) -> bool:
    """A sound bound: True only when the mover cannot win within ``turns`` own moves once the
    opponent answers each of them by discarding, starting with ``discards`` - ``turns + 1``
    discard(s) before the mover's next move (``discards`` is ``turns - 1`` at the mover's
    turn, ``turns`` at the opponent's).

    Why that refutes every line: while the opponent only discards, the table changes by the
    mover's moves alone, and the opponent neither runs out of cards nor is left without a
    move (``discard_reserve``); a mover who runs out loses. So the mover can win only by the
    lanes, and every move but a Joker changes one caravan's value (a number card, a King, a
    Jack, a disband) or none (a Queen, a discard), hence one lane's state at most: at least
    ``lanes_needed`` moves, and one more for each lane that no single move can decide
    (``slow_lanes``). A Joker may change every lane at once, but it only takes value away:
    each lane with both caravans below 21 still needs a raising move of its own (two for a
    slow one), and anything else left to change at least one more move."""
    values = state.values
    need = lanes_needed(values, mover)
    low = low_lanes(values)
    if need + low <= turns:
        return False  # the bound below is never more: it would fit
    if discard_reserve(state, 1 - mover) < discards:
        return False
    cards = _in_reach(state, mover, turns)
    slow = slow_lanes(state, mover, cards) if low else 0
    if not any(c.rank == 0 for c in cards):
        return need + slow > turns
    return low + slow + (1 if need > low else 0) > turns


class WinSearch:
    """Can the side to move at ``root`` force a win within a number of its own turns?
    An AND-OR search through the engine's legal moves (the forced-win question, and
    annotate --analyse's before/after comparison).

    What makes it fast, none of it changing an answer (the tests hold it to a plain search
    by the definition alone, on self-play positions and on random small ones):

    - a sound bound (``out_of_reach``, from ``lanes_needed``, ``low_lanes``, ``slow_lanes``):
      when even an opponent who only discards stops every line, the position is lost for
      the mover without a move searched, and at the opponent's turn that discard is the
      refutation, found before any reply is applied;
    - a transposition table per position (the cards, the decks' lengths, who is to move;
      not the turns left): the fewest own turns known to win, with the move, and the most
      known not to (a win within n turns is one within n + 1; no win within n is none
      within n - 1);
    - with one own turn left, only the moves that can change the lane that must change (or
      a Joker) are made and applied, when the bound's reasoning holds; the first that wins
      stops the search;
    - move ordering: the mover's moves by how many lanes they leave to change, then the
      moves that won before (history), then a quick static score; the opponent's replies
      with the one that last refuted a try at the same depth first (a "killer" reply), then
      the replies that refuted most often (history), then by the score from the
      opponent's side;
    - ``forced_win`` deepens one turn at a time, so the shallow searches fill the table and
      the killers before the deep one."""

    def __init__(self, root: cv.State, deadline: Deadline | None) -> None:
        self.mover = root.to_move
        self.deadline = deadline
        self.nodes = 0
        #: Position -> (the fewest own turns known to win, the first move of that win).
        self.won: dict[tuple, tuple[int, cv.Move]] = {}
        #: Position -> the most own turns known not to be enough.
        self.lost: dict[tuple, int] = {}
        #: Own turns left -> the opponent's reply that refuted the last try.
        self.killers: dict[int, cv.Move] = {}
        #: Move -> how often it won (the mover's moves).
        self.history: dict[cv.Move, int] = {}
        #: Reply -> how often it refuted (the opponent's).
        self.refuters: dict[cv.Move, int] = {}
        #: (Position, own turns left) -> the strategy built from it.
        self.trees: dict[tuple, dict] = {}

    @staticmethod
    def key(state: cv.State) -> tuple:
        # Within one search the decks only lose their top cards: their lengths say which
        # cards are left. Hands are multisets: sorted.
        d0, d1 = state.decks
        return (state.caravans, tuple(sorted(state.hands[0].known)), tuple(sorted(state.hands[1].known)),
                -1 if d0 is None else len(d0), -1 if d1 is None else len(d1), state.to_move, state.placed)

    def _apply(self, state: cv.State, move: cv.Move) -> cv.State:
        if self.deadline is not None:
            self.deadline.check(64)
        self.nodes += 1
        return cv.apply(state, move)

    def children(self, state: cv.State) -> list[tuple[cv.Move, cv.State]]:
        return [(m, self._apply(state, m)) for m in cv.legal_moves(state)]

    def win(self, state: cv.State, turns: int) -> cv.Move | None:
        """The mover (to move in ``state``) wins within ``turns`` own moves: a first move."""
        if turns <= 0:
            return None
        key = self.key(state)
        won = self.won.get(key)
        if won is not None and won[0] <= turns:
            return won[1]
        if self.lost.get(key, 0) >= turns:
            return None
        found = self._win(state, turns)
        if found is None:
            self.lost[key] = turns
        else:
            if won is None or turns < won[0]:
                self.won[key] = (turns, found)
            self.history[found] = self.history.get(found, 0) + 1
        return found

    def _win(self, state: cv.State, turns: int) -> cv.Move | None:
        mover = self.mover
        if out_of_reach(state, mover, turns, turns - 1):
            return None
        if turns == 1:  # only a move that wins at once
            for move in self._finishing_moves(state):
                after = self._apply(state, move)
                if after.end is not None and after.winner == mover:
                    return move
            return None
        kids: list[tuple[int, int, float, int, cv.Move, cv.State]] = []
        for move, after in self.children(state):
            if after.end is None:
                kids.append((lanes_needed(after.values, mover), -self.history.get(move, 0),
                             -_score(after, mover), len(kids), move, after))
            elif after.winner == mover:
                return move
        kids.sort()
        for *_, move, after in kids:
            if self.holds(after, turns - 1):
                return move
        return None

    def _finishing_moves(self, state: cv.State) -> Iterable[cv.Move]:
        """The mover's moves (mover to move) that may end the game in the mover's favour at
        once: all legal moves, unless the opponent keeps a legal discard whatever the mover
        does (``discard_reserve``): then only the lanes can end it, and the moves that may
        are a Joker's (unless a lane is below 21 on both sides: a Joker only takes value
        away), and (when one lane is left to change) those that change a value in that
        lane: a number card or a disband on the mover's caravan there, a King or a Jack on
        one of its two caravans. Each is judged by the engine's ``check``."""
        mover = self.mover
        if discard_reserve(state, 1 - mover) < 0:
            return cv.legal_moves(state)
        return self._lane_moves(state, mover)

    @staticmethod
    def _lane_moves(state: cv.State, mover: int) -> Iterator[cv.Move]:
        values = state.values
        open_lanes = [lane for lane in cv.LANES if cv.lane_winner(values[lane[0]], values[lane[1]]) is None]
        if not open_lanes:  # every lane decided: the game is over, no move
            return
        lane = open_lanes[0] if lanes_needed(values, mover) == 1 else None
        caravans = state.caravans
        check = cv.check
        own = None if lane is None else lane[mover]
        jokers = low_lanes(values) == 0  # a Joker leaves a lane below 21 on both sides open
        for card in sorted(set(state.hands[mover].known)):
            rank = card.rank
            if rank == 0:
                if not jokers:
                    continue
                targets: Iterable[int] = range(6)
            elif lane is None:
                continue
            elif rank <= 10:
                m: cv.Move = cv.PlayNumber(card, own)  # type: ignore[arg-type]  # own is set with the lane
                if check(state, m) is None:
                    yield m
                continue
            elif rank == cv.QUEEN:
                continue  # a Queen changes no value
            else:
                targets = lane
            for c in targets:
                for i in range(len(caravans[c])):
                    m = cv.Attach(card, c, i)
                    if check(state, m) is None:
                        yield m
        if own is not None and caravans[own]:
            m = cv.Disband(own)
            if check(state, m) is None:
                yield m

    def holds(self, state: cv.State, turns: int) -> bool:
        """After a mover's move (``turns`` own moves left): the mover still wins whatever
        the opponent does."""
        if state.to_move == self.mover:  # an fnv opening discard: the mover moves again
            return turns > 0 and self.win(state, turns) is not None
        if turns <= 0:
            return False
        return self.refute(state, turns) is None

    def _discard_refutes(self, state: cv.State, turns: int) -> cv.Move | None:
        """The opponent's discard that ``out_of_reach`` shows refutes (opponent to move)."""
        if not out_of_reach(state, self.mover, turns, turns):
            return None
        for card in state.hands[state.to_move].known:
            m = cv.Discard(card)
            if cv.check(state, m) is None:
                return m
        return None  # pragma: no cover - discard_reserve said a discard is legal

    def refute(self, state: cv.State, turns: int) -> tuple[cv.Move, str] | None:
        """An opponent reply (opponent to move) after which the mover cannot win within
        ``turns`` own moves, or None when every reply loses."""
        discard = self._discard_refutes(state, turns)
        if discard is not None:
            return discard, f"no win within {turns} more turn{'s' if turns != 1 else ''}"
        killer = self.killers.get(turns)
        if killer is not None and cv.check(state, killer) is None:
            why = self._refutes(self._apply(state, killer), turns)
            if why is not None:
                self.refuters[killer] = self.refuters.get(killer, 0) + 1
                return killer, why
        else:
            killer = None
        history = self.refuters
        if turns == 1:
            moves = [m for m in cv.legal_moves(state) if m != killer]
            moves.sort(key=lambda m: -history.get(m, 0))
            replies: Iterable[tuple[cv.Move, cv.State | None]] = ((m, None) for m in moves)
        else:
            kids = [(-history.get(m, 0), _score(after, self.mover), i, m, after)
                    for i, (m, after) in enumerate((m, self._apply(state, m))
                                                   for m in cv.legal_moves(state) if m != killer)]
            kids.sort()
            replies = ((m, after) for *_, m, after in kids)
        for move, after in replies:
            why = self._refutes(after if after is not None else self._apply(state, move), turns)
            if why is not None:
                self.killers[turns] = move
                history[move] = history.get(move, 0) + 1
                return move, why
        return None

    def _refutes(self, after: cv.State, turns: int) -> str | None:
        """Why the opponent's reply that led to ``after`` refutes (None: it does not)."""
        if after.end is not None:
            return "the opponent wins at once" if after.winner != self.mover else None
        if after.to_move != self.mover:  # the opponent moves again (fnv opening discard)
            return "the opponent keeps the move" if self.refute(after, turns) is not None else None
        if self.win(after, turns) is None:
            return f"no win within {turns} more turn{'s' if turns != 1 else ''}"
        return None

    def strategy(self, state: cv.State, turns: int) -> dict:
        """The winning strategy from a mover-to-move state: {move: {reply: subtree}}. A
        position met again (by another order of moves) shares its subtree: the tree is
        built as a graph."""
        key = (self.key(state), turns)
        tree = self.trees.get(key)
        if tree is None:
            move = self.win(state, turns)
            assert move is not None
            after = cv.apply(state, move)
            tree = {move: self.replies(after, turns - 1)}
            self.trees[key] = tree
        return tree

    def replies(self, state: cv.State, turns: int) -> dict:
        if state.over:
            return {}
        if state.to_move == self.mover:
            return self.strategy(state, turns)
        out: dict = {}
        for reply in cv.legal_moves(state):
            after = cv.apply(state, reply)
            out[reply] = {} if after.over else self.strategy(after, turns) if after.to_move == self.mover \
                else self.replies(after, turns)
        return out


def forced_win(state: cv.State, turns: int, deadline: Deadline | None = None,
               want_strategy: bool = True) -> WinResult:
    """Can the side to move win within ``turns`` of its own moves whatever the opponent
    does? Every hand and deck must be known (``cv.Hand.fully_known`` and decks not None)."""
    search = WinSearch(state, deadline)
    move = None
    for depth in range(1, turns + 1):  # deepening: the shallow searches order the deep one
        move = search.win(state, depth)
        if move is not None:
            break
    if move is not None:
        strategy = search.strategy(state, turns) if want_strategy else None
        return WinResult(move, [], search.nodes, strategy)
    refutation: list[tuple[cv.Move, cv.Move | None, str]] = []
    for m in cv.legal_moves(state):
        after = cv.apply(state, m)
        if after.over:
            refutation.append((m, None, "the game ends and the mover does not win"))
            continue
        if after.to_move == search.mover:
            refutation.append((m, None, f"no win within {turns - 1} more turns"))
            continue
        if turns <= 1:
            refutation.append((m, None, f"the move does not end the game, and that was the last of {turns} turn"
                               f"{'s' if turns != 1 else ''}"))
            continue
        found = search.refute(after, turns - 1)
        assert found is not None
        refutation.append((m, found[0], found[1]))
    return WinResult(None, refutation, search.nodes)


def _score(state: cv.State, me: int) -> float:
    """A quick static score of ``state`` for player ``me`` (move ordering only)."""
    if state.over:
        return 1000.0 if state.winner == me else -1000.0
    return _values_score(state.values, me)


@lru_cache(maxsize=1 << 16)
def _values_score(values: tuple[int, ...], me: int) -> float:
    score = 0.0
    for a, b in cv.LANES:
        mine, theirs = (a, b) if me == 0 else (b, a)
        w = cv.lane_winner(values[a], values[b])
        if w is not None:
            score += 10.0 if (w == 0) == (me == 0) else -10.0
        score -= _distance(values[mine]) - _distance(values[theirs])
    return score


def _distance(v: int) -> float:
    return (21 - v) / 10 if v < 21 else 0.0 if v <= 26 else (v - 26) / 2


def verify_strategy(state: cv.State, turns: int, strategy: dict,
                    on_node: Callable[[], None] | None = None) -> tuple[bool, str]:
    """Replay a strategy tree through the engine: every move legal (``check``), every
    opponent reply answered, every branch a win for the mover within ``turns`` own moves."""
    mover = state.to_move

    def mover_node(s: cv.State, t: int, tree: dict, path: str) -> tuple[bool, str]:
        if len(tree) != 1:
            return False, f"{path}: the strategy gives {len(tree)} moves, not one"
        (move, sub), = tree.items()
        v = cv.check(s, move)
        if v is not None:
            return False, f"{path}: {move} is illegal: [{v.rule}] {v.message}"
        after = cv.apply(s, move)
        if after.over:
            return (True, "") if after.winner == mover else (False, f"{path}: the game ends without a win")
        if after.to_move == mover:
            return mover_node(after, t - 1, sub, path) if t > 1 else (False, f"{path}: out of turns")
        if t <= 1:
            return False, f"{path}: out of turns without a win"
        return opponent_node(after, t - 1, sub, path)

    def opponent_node(s: cv.State, t: int, tree: dict, path: str) -> tuple[bool, str]:
        legal = set(cv.legal_moves(s))
        if set(tree) != legal:
            return False, f"{path}: {len(legal - set(tree))} legal replies are not answered"
        for reply, sub in tree.items():
            if on_node is not None:
                on_node()
            after = cv.apply(s, reply)
            if after.over:
                if after.winner != mover:
                    return False, f"{path}: the reply {reply} wins for the opponent"
                continue
            ok, why = (mover_node(after, t, sub, f"{path} {reply}") if after.to_move == mover
                       else opponent_node(after, t, sub, f"{path} {reply}"))
            if not ok:
                return ok, why
        return True, ""

    return mover_node(state, turns, strategy, "")
