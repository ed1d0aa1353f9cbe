"""Exhaustive search through the Daifugo engine, for the three Daifugo questions.

* ``Partition``: the fewest plays that empty a hand when nobody beats them: the hand split
  into combinations (the engine's ``legal_moves`` from a trick this player leads lists every
  combination the hand holds, jokers with explicit readings), by dynamic programming over
  the cards left and the parity of the revolutions made so far (which decides whether the
  last play is a forbidden finish).
* ``beaters``: every play that beats a play on the table, made from a given set of cards
  (the engine's ``legal_moves`` for a player holding exactly those cards).
* ``ForcedOut``: AND-OR search over every legal move of every player: can one player go out
  first (a normal finish, before anyone else finishes normally) whatever the others do?

Every witness is replayed through ``check`` and ``apply`` before it is returned
(``replay_out``, ``verify_out_strategy``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from referee.engines.base import JOKER, Card
from referee.games.daifugo import engine as df
from referee.jobs.solve import Deadline

INF = 10 ** 6


def lead_state(state: df.State, player: int) -> df.State:
    """``state`` with ``player`` leading a fresh trick (nothing on the table, no passes)."""
    return df.fresh_trick(state, player)._replace(last_player=player, events=())


def revolts(rules: df.RuleSet, combo: df.Combo) -> bool:
    """Does playing ``combo`` make a revolution (the engine's rule)?"""
    return df.revolution_rule(rules, combo) is not None


forbidden = df.forbidden_finish


@dataclass(frozen=True)
class Piece:
    """One combination of the hand: which real cards (a bit mask), how many jokers, the play."""

    mask: int
    jokers: int
    revolt: bool
    play: df.Play
    combo: df.Combo


@dataclass
class Split:
    plays: list[df.Play]
    #: The last play is not a forbidden finish (or the rules have none).
    clean: bool


class Partition:
    """The hand of ``player`` in ``state`` split into the fewest combinations."""

    def __init__(self, state: df.State, player: int, deadline: Deadline | None = None) -> None:
        self.state = state
        self.rules = state.rules
        self.player = player
        self.deadline = deadline
        hand = state.hands[player]
        self.hand = hand
        self.reals = sorted({c for c in hand if not c.is_joker})
        self.bit = {c: 1 << i for i, c in enumerate(self.reals)}
        self.jokers = hand.count(JOKER)
        self.full = (1 << len(self.reals)) - 1
        self.pieces = self._pieces()
        self.by_low: dict[int, list[Piece]] = {}
        self.joker_only: list[Piece] = []
        for piece in self.pieces:
            if piece.mask:
                low = piece.mask & -piece.mask
                self.by_low.setdefault(low, []).append(piece)
            else:
                self.joker_only.append(piece)
        self.memo: dict[tuple[int, int, int], int] = {}
        self.nodes = 0

    def _pieces(self) -> list[Piece]:
        """Every combination in the hand (one reading per card set and revolt), via the engine."""
        lead = lead_state(self.state, self.player)
        seen: set = set()
        out = []
        for move in df.legal_moves(lead):
            if not isinstance(move, df.Play):
                continue
            combo = df.combination(self.rules, move.cards, move.joker_as)
            if combo is None:
                continue
            mask = 0
            for c in move.cards:
                if not c.is_joker:
                    mask |= self.bit[c]
            k = sum(1 for c in move.cards if c.is_joker)
            r = revolts(self.rules, combo)
            key = (mask, k, r)
            if key in seen:
                continue
            seen.add(key)
            out.append(Piece(mask, k, r, move, combo))
        return out

    def least(self, mask: int, jokers: int, parity: int) -> int:
        """Fewest plays that play exactly ``mask`` and ``jokers`` with a number of revolutions
        of this ``parity`` (INF if none)."""
        key = (mask, jokers, parity)
        got = self.memo.get(key)
        if got is not None:
            return got
        if self.deadline is not None:
            self.deadline.check(1024)
        self.nodes += 1
        if not mask and not jokers:
            best = 0 if parity == 0 else INF
        else:
            best = INF
            for piece in self._choices(mask, jokers):
                sub = self.least(mask & ~piece.mask, jokers - piece.jokers, parity ^ piece.revolt)
                if sub + 1 < best:
                    best = sub + 1
        self.memo[key] = best
        return best

    def _choices(self, mask: int, jokers: int) -> list[Piece]:
        if mask:
            low = mask & -mask
            return [p for p in self.by_low.get(low, ()) if p.mask & mask == p.mask and p.jokers <= jokers]
        return [p for p in self.joker_only if p.jokers <= jokers]

    def _rebuild(self, mask: int, jokers: int, parity: int) -> list[Piece]:
        out = []
        while mask or jokers:
            target = self.least(mask, jokers, parity)
            for piece in self._choices(mask, jokers):
                if self.least(mask & ~piece.mask, jokers - piece.jokers, parity ^ piece.revolt) + 1 == target:
                    out.append(piece)
                    mask &= ~piece.mask
                    jokers -= piece.jokers
                    parity ^= piece.revolt
                    break
            else:  # pragma: no cover - least() found a way, so one piece matches
                raise AssertionError("no piece matches the partition's count")
        return out

    def fewest(self) -> int:
        return min(self.least(self.full, self.jokers, 0), self.least(self.full, self.jokers, 1))

    def best(self, clean: bool) -> Split | None:
        """A shortest split, its plays in an order to play them: with ``clean``, the shortest
        whose last play is no forbidden finish (None if there is none)."""
        start_rev = self.state.revolution
        best: tuple[int, Piece | None, int] = (INF, None, 0)
        for last in self.pieces:
            if last.mask & self.full != last.mask or last.jokers > self.jokers:
                continue
            for parity in (0, 1):
                if clean and forbidden(self.rules, last.play.cards, start_rev != bool(parity)):
                    continue
                n = self.least(self.full & ~last.mask, self.jokers - last.jokers, parity) + 1
                if n < best[0]:
                    best = (n, last, parity)
        n, final, parity = best
        if final is None or n >= INF:
            return None
        rest = self._rebuild(self.full & ~final.mask, self.jokers - final.jokers, parity)
        plays = [p.play for p in rest] + [final.play]
        is_clean = not forbidden(self.rules, final.play.cards, start_rev != bool(parity))
        return Split(plays, is_clean)


def replay_out(state: df.State, player: int, plays: Sequence[df.Play]) -> tuple[bool, str, df.State]:
    """Replay ``plays`` by ``player`` leading every trick while everyone else passes (and,
    where the rules make the trick go round to its owner, ``player`` passes over their own
    cards): each move through ``check`` and ``apply``. (confirmed, why not, final state)."""
    s = lead_state(state, player)
    for n, play in enumerate(plays, start=1):
        if s.over:
            return False, f"play {n}: the round is over", s
        v = df.check(s, play)
        if v is not None:
            return False, f"play {n} ({' '.join(map(str, play.cards))}) is illegal: [{v.rule}] {v.message}", s
        s = df.apply(s, play)
        guard = 0
        while not s.over and s.to_move != player and player in df.players_in(s):
            guard += 1
            if guard > 64:
                return False, "the others' passes never hand the lead back", s
            q = s.to_move
            v = df.check(s, df.Pass(q))  # type: ignore[arg-type]  # a round not over has a player to move
            if v is not None:
                return False, f"after play {n}, {s.name(q)} cannot pass: {v.message}", s  # type: ignore[arg-type]  # a round not over has a player to move
            s = df.apply(s, df.Pass(q))  # type: ignore[arg-type]  # a round not over has a player to move
        if not s.over and s.to_move == player and s.table is not None:
            v = df.check(s, df.Pass(player))
            if v is not None:
                return False, f"after play {n}, the trick does not come back empty: {v.message}", s
            s = df.apply(s, df.Pass(player))
    if s.hands[player]:
        return False, f"{len(s.hands[player])} cards are left", s
    return True, "", s


# --------------------------------------------------------------------------- unbeatable


def beaters(state: df.State, holder: int, cards: Sequence[Card]) -> list[df.Play]:
    """Every legal play on ``state``'s table made of ``cards`` (by the engine's legal moves
    for ``holder`` holding exactly them), one per card set and joker reading."""
    hands = list(state.hands)
    hands[holder] = tuple(cards)
    probe = state._replace(hands=tuple(hands), to_move=holder, passed=frozenset(), events=())
    out = []
    seen = set()
    for move in df.legal_moves(probe):
        if isinstance(move, df.Play):
            key = (tuple(sorted(move.cards)), move.joker_as)
            if key not in seen:
                seen.add(key)
                out.append(move._replace(player=holder))
    return out


# --------------------------------------------------------------------------- forced out


@dataclass
class OutResult:
    move: df.Move | None
    refutation: list[tuple[df.Move, df.Move | None, str]] = field(default_factory=list)
    nodes: int = 0
    strategy: dict | None = None


class ForcedOut:
    """Can ``player`` go out first (a normal finish before any other normal finish) within
    ``budget`` own plays, whatever the others do?

    What makes it fast, none of it changing an answer (the tests hold it to a plain search
    by the definition alone):

    - a transposition table per position (not per budget): the smallest budget known to be
      enough and the largest known not to be (a win within b plays is one within b + 1;
      none within b is none within b - 1);
    - at the player's turn, a budget below the fewest plays that empty the hand
      (``Partition``) is lost at once;
    - moves are applied one at a time, in order, so the first move that decides a node
      (a way out for the player, a refutation by another) stops the rest unapplied;
    - ordering: the player's big plays first, passes last; the others' plays that empty
      the hand first, then big plays, passes last (remembering the replies that refuted
      before, as the Caravan search does, is slower here: a reply that refutes in one trick
      rarely does in the next)."""

    def __init__(self, root: df.State, player: int, deadline: Deadline | None) -> None:
        self.player = player
        self.deadline = deadline
        self.nodes = 0
        self.finished0 = len(root.finished)
        #: Position -> (the smallest budget known to be enough, with the move at the player's
        #: turn, True at another's).
        self.won: dict[tuple, tuple[int, df.Move | bool]] = {}
        #: Position -> the largest budget known not to be enough.
        self.lost: dict[tuple, int] = {}
        self.fewest_memo: dict[tuple[Card, ...], int] = {}
        #: (Position, budget) -> the strategy built from it.
        self.trees: dict[tuple, dict] = {}

    def outcome(self, state: df.State) -> bool | None:
        """True: the player went out first; False: that can no longer happen; None: go on."""
        new = state.finished[self.finished0:]
        if new:
            return new[0] == self.player
        if self.player in state.fouled or state.over:
            return False
        return None

    def fewest(self, state: df.State) -> int:
        hand = tuple(sorted(state.hands[self.player]))
        got = self.fewest_memo.get(hand)
        if got is None:
            got = Partition(state, self.player).fewest()
            self.fewest_memo[hand] = got
        return got

    def moves(self, state: df.State) -> list[df.Move]:
        """Every move of whoever is to move (the engine's legal moves)."""
        return list(df.legal_moves(state))

    def after(self, state: df.State, move: df.Move) -> df.State:
        """The position after ``move`` (the engine's ``apply``)."""
        return df.apply(state, move)

    def _apply(self, state: df.State, move: df.Move) -> df.State:
        if self.deadline is not None:
            self.deadline.check(32)
        self.nodes += 1
        return self.after(state, move)

    @staticmethod
    def key(state: df.State) -> tuple:
        return state._replace(events=())

    def wins(self, state: df.State, budget: int) -> df.Move | bool | None:
        """The player can force going out first from ``state`` (not terminal) with ``budget``
        own plays left. At the player's turn: a winning move (or None); at another's: True
        or False."""
        key = self.key(state)
        mine = state.to_move == self.player
        won = self.won.get(key)
        if won is not None and won[0] <= budget:
            return won[1]
        if self.lost.get(key, -1) >= budget:
            return None if mine else False
        result = self._mine(state, budget) if mine else self._theirs(state, budget)
        if result is None or result is False:
            self.lost[key] = budget
        elif won is None or budget < won[0]:
            self.won[key] = (budget, result)
        return result

    def _mine(self, state: df.State, budget: int) -> df.Move | None:
        if budget < self.fewest(state):
            return None
        for move in sorted(self.moves(state), key=_order_mine):
            spent = budget - (1 if isinstance(move, df.Play) else 0)
            if self.holds(self._apply(state, move), spent):
                return move
        return None

    def _theirs(self, state: df.State, budget: int) -> bool:
        held = len(state.hands[state.to_move])  # type: ignore[index]  # another player is to move
        for move in sorted(self.moves(state), key=lambda m: _order_theirs(m, held)):
            if not self.holds(self._apply(state, move), budget):
                return False
        return True

    def holds(self, state: df.State, budget: int) -> bool:
        done = self.outcome(state)
        if done is not None:
            return done
        if state.to_move == self.player and budget <= 0:
            return False
        got = self.wins(state, budget)
        return got is not None and got is not False

    def refute(self, state: df.State, budget: int) -> tuple[df.Move, str] | None:
        """At another player's turn: a move after which the player cannot force it (tried
        in the search's order, so the table's answers are met again)."""
        held = len(state.hands[state.to_move])  # type: ignore[index]  # another player is to move
        for move in sorted(self.moves(state), key=lambda m: _order_theirs(m, held)):
            after = self._apply(state, move)
            if not self.holds(after, budget):
                done = self.outcome(after)
                why = ("someone else goes out first" if done is False and after.finished[self.finished0:]
                       else "the player can no longer go out first" if done is False
                       else "no forced way out after it")
                return move, why
        return None

    def strategy(self, state: df.State, budget: int) -> dict:
        """From a state where the player can force it: {move: subtree} at the player's turns,
        {move: subtree} over every move at the others' turns; {} at a won end. A position met
        again (by another order of moves) shares its subtree: the tree is built as a graph."""
        if self.outcome(state) is True:
            return {}
        key = (self.key(state), budget)
        tree = self.trees.get(key)
        if tree is not None:
            return tree
        if state.to_move == self.player:
            move = self.wins(state, budget)
            assert isinstance(move, (df.Play, df.Pass))
            after = self.after(state, move)
            spent = budget - (1 if isinstance(move, df.Play) else 0)
            tree = {move: self.strategy(after, spent)}
        else:
            tree = {move: self.strategy(self.after(state, move), budget) for move in self.moves(state)}
        self.trees[key] = tree
        return tree


def _order_mine(move: df.Move) -> tuple:
    # Big plays first, passes last.
    return (0, -len(move.cards)) if isinstance(move, df.Play) else (1, 0)


def _order_theirs(move: df.Move, held: int) -> tuple:
    # A play that empties the hand first, then plays that take the trick (the likely
    # refutations), passes last.
    if isinstance(move, df.Play):
        n = len(move.cards)
        return (0 if n == held else 1, -n)
    return (2, 0)


def forced_out(state: df.State, player: int, budget: int, deadline: Deadline | None = None,
               search: ForcedOut | None = None) -> OutResult:
    """Can ``player`` force going out first within ``budget`` own plays: the first move and
    the strategy, or a refutation (a reply to each try). ``search``: the search to run
    (by default a ``ForcedOut`` over the engine's moves)."""
    search = search or ForcedOut(state, player, deadline)
    if state.to_move != player:
        holds = search.holds(state, budget)
        result = OutResult(None, nodes=search.nodes)
        if holds:
            result.strategy = search.strategy(state, budget)
            result.nodes = search.nodes
            return result
        found = search.refute(state, budget)
        if found is not None:
            result.refutation.append((found[0], None, found[1]))
        result.nodes = search.nodes
        return result
    move = search.wins(state, budget)
    if isinstance(move, (df.Play, df.Pass)):
        strategy = search.strategy(state, budget)
        return OutResult(move, nodes=search.nodes, strategy=strategy)
    refutation: list[tuple[df.Move, df.Move | None, str]] = []
    for m in search.moves(state):
        after = search.after(state, m)
        spent = budget - (1 if isinstance(m, df.Play) else 0)
        done = search.outcome(after)
        if done is False:
            refutation.append((m, None, "the player cannot go out first after it"))
            continue
        if after.to_move == player:
            refutation.append((m, None, "no forced way out after it" if spent > 0 else "no plays left"))
            continue
        found = search.refute(after, spent)
        if found is None:  # pragma: no cover - wins() would have found this move
            raise AssertionError("a try with no refutation")
        refutation.append((m, found[0], found[1]))
    return OutResult(None, refutation, search.nodes)


def verify_out_strategy(state: df.State, player: int, strategy: dict,
                        tick: Callable[[], None] | None = None) -> tuple[bool, str]:
    """Replay a forced-out strategy through the engine: every move legal, every move of the
    others answered, every branch ending with ``player`` out first."""
    first = len(state.finished)

    def walk(s: df.State, tree: dict, path: str) -> tuple[bool, str]:
        new = s.finished[first:]
        if new:
            return (True, "") if new[0] == player else (False, f"{path}: someone else goes out first")
        if s.over or player in s.fouled:
            return False, f"{path}: the player does not go out first"
        if tick is not None:
            tick()
        if s.to_move == player:
            if len(tree) != 1:
                return False, f"{path}: {len(tree)} moves given for the player"
            (move, sub), = tree.items()
            v = df.check(s, move)
            if v is not None:
                return False, f"{path}: illegal: [{v.rule}] {v.message}"
            return walk(df.apply(s, move), sub, f"{path} {move}")
        legal = set(df.legal_moves(s))
        if set(tree) != legal:
            return False, f"{path}: {len(legal - set(tree))} moves of {s.name(s.to_move)} are not answered"  # type: ignore[arg-type]  # a round not over has a player to move
        for move, sub in tree.items():
            ok, why = walk(df.apply(s, move), sub, f"{path} {move}")
            if not ok:
                return ok, why
        return True, ""

    return walk(state, strategy, "")
