"""The unlogged card exchange of a contest-server log game, inferred (tndhms 0.29
daihu.c and external.c, trans_strong_card): the server's own gifts, then the clients' choices that replay cleanly."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from referee.engines.base import Card
from referee.games.daifugo import engine as df
from referee.games.daifugo.uecda.log_replay import LogGameReplay, Outcome
from referee.games.daifugo.uecda.notation import log as ul
from referee.jobs.segment import unrejected
from referee.notation.records import Finding


def infer_exchange(replay: LogGameReplay, start: df.State) -> Outcome:
    """The unlogged exchange, inferred (the server's exchange, daihu.c).

    The server moves the lower titles' strongest cards itself: no choice there. The upper
    titles' gifts are their clients' choice. The first guess is what the default client
    gives, its lowest cards (never the joker); it stands if the game then replays cleanly:
    no contradiction and no submission rejected for a card its player lacks. Otherwise
    (a rejection for a lacking card, or the first entry not by the diamond 3 holder) every
    choice is tried that leaves each exchanging player holding the cards it later submits
    (and the first player the diamond 3), closest to the first guess first; the first clean
    replay wins, else the one that gets furthest. When no choice at all does that, the first
    guess stands if it replays to the end (its submissions of cards not held were the
    clients' mistakes, rejected); if it cannot, the log contradicts the server: an exchange
    no legal choice could explain (daifugo.exchange.choice).
    """
    state = start
    while any(d.server for d in state.pending):
        duty = next(d for d in state.pending if d.server)
        gift = df.strongest_cards(state.hands[duty.giver], duty.count)
        state = df.apply(state, df.Give(duty.giver, duty.receiver, gift))
    after_server = state
    duties = list(after_server.pending)

    def run(gifts: tuple[tuple[Card, ...], ...]) -> Outcome:
        s = after_server
        for duty, cards in zip(duties, gifts):
            s = df.apply(s, df.Give(duty.giver, duty.receiver, cards))
        return replay.replay(s)

    first_guess = tuple(df.weakest_cards([c for c in after_server.hands[d.giver] if not c.is_joker], d.count)
                        for d in duties)
    first = run(first_guess)
    if _clean(first):
        return first
    failure = next((f for f in sorted(first[1] + first[2], key=lambda f: f.ply or 0)
                    if _exchange_could_fix(f, replay.game, duties, after_server)), None)
    if failure is None:
        return first  # nothing the exchange could change
    options = _choices(after_server, duties, replay.game)
    if not all(options) and not first[1]:
        # No choice keeps every later submission held, yet the first guess replays to the
        # end: its submissions of cards not held were the clients' own mistakes, which the
        # server rejected (a client may submit a card it gave away).
        return first
    if not all(options):
        reached, _, warnings, _, positions = first
        ply = failure.ply
        assert ply is not None, "_exchange_could_fix picks only findings with a ply"
        v = df.unexplained_exchange(after_server, duties, unrejected(failure.message))
        error = Finding(v.rule, v.message, failure.line, failure.column, ply=failure.ply, round=failure.round,
                        player=failure.player, move=failure.move)
        earlier = [w for w in warnings if w.ply is not None and w.ply < ply]
        return Outcome(reached, [error], earlier, ply - 1, positions)
    best, best_score = first, _score(first)
    for gifts in _product(options):
        if gifts == first_guess:
            continue
        candidate = run(gifts)
        if _clean(candidate):
            return candidate
        s = _score(candidate)
        if s > best_score:
            best, best_score = candidate, s
    return best



def _exchange_could_fix(f: Finding, game: ul.LogGame, duties: list[df.Duty], state: df.State) -> bool:
    """Could another gift choice change this finding of the first guess? A submission
    rejected for a lacking card, by a receiver whose giver held one of its cards or by a
    giver that held one itself; or a first entry not by the diamond 3 holder, where the
    diamond 3 is one a gift could move."""
    if f.ply is None or not (f.rule == "daifugo.hand.possession" or f.ply == 1):
        return False
    entry = game.entries[f.ply - 1]
    cards = entry.move.cards if isinstance(entry.move, df.Play) else ()
    if f.rule != "daifugo.hand.possession":
        cards = (df.DIAMOND_3,)
    for duty in duties:
        pool = state.hands[duty.giver]
        if entry.player in (duty.giver, duty.receiver) and any(c in pool for c in cards):
            return True
    return False


def _clean(outcome: Outcome) -> bool:
    return not outcome[1] and not any(w.rule == "daifugo.hand.possession" for w in outcome[2])


def _score(outcome: Outcome) -> tuple[int, int]:
    """Better explanations replay further, then lack fewer cards."""
    _, errors, warnings, plies, _ = outcome
    lacking = sum(1 for w in warnings if w.rule == "daifugo.hand.possession")
    return (plies if errors else 1 << 30, -lacking)


def _choices(state: df.State, duties: list[df.Duty], game: ul.LogGame) -> list[list[tuple[Card, ...]]]:
    """For each duty, every gift consistent with the cards the exchanging players later
    submit (a receiver must get what it plays of its giver's cards, a giver must keep what
    it plays; the first player must hold the diamond 3), closest to the lowest cards first."""
    submitted: dict[int, set[Card]] = {}
    for entry in game.entries:
        if isinstance(entry.move, df.Play):
            submitted.setdefault(entry.player, set()).update(entry.move.cards)
    if game.entries:
        submitted.setdefault(game.entries[0].player, set()).add(df.DIAMOND_3)
    options: list[list[tuple[Card, ...]]] = []
    for duty in duties:
        hand = state.hands[duty.giver]
        must = {c for c in submitted.get(duty.receiver, ()) if c in hand and c not in state.hands[duty.receiver]}
        keep = submitted.get(duty.giver, set())
        ranked = sorted(hand, key=_weak_key)
        found = [combo for combo in combinations(ranked, duty.count)
                 if must <= set(combo) and not keep & set(combo)]
        options.append(found)
    return options


def _product(options: list[list[tuple[Card, ...]]]) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """Every combination of one option per duty, those with the fewest cards off the lowest
    first (each list is already in that order)."""
    ranked = sorted(product(*(range(len(o)) for o in options)), key=lambda ix: (sum(ix), ix))
    for ix in ranked:
        yield tuple(o[i] for o, i in zip(options, ix))


def _weak_key(card: Card) -> tuple[int, int]:
    return (99 if card.is_joker else df.strength(card), "SHDC".find(card.suit))
