"""The contest server's randomness (tndhms 0.29, the 2018 devkit), reimplemented from its
source (external.c: tn_rand_init, tn_sekigae, shuffle_card; daihu.c; mt19937ar.c): its two random-number generators,
the seat draws, the dealer draw, the deal and the random places of the 20-pass rule.

Pure: no I/O. A :class:`Match` is one generator seeded once, drawn from in the server's
order game after game, so the same seed gives the same seats, dealers and hands as the
contest server's ``RANDOM_SEED`` does, provided the games that ended by the 20-pass rule
are told (:meth:`Match.stall_places`): those draws shift every later deal.

* ``RAND_TYPE MT`` (log header ``RAND_TYPE 1``): MT19937 seeded with the 32-bit linear
  ``init_genrand``; each draw is a 32-bit output divided by 2**32 - 1, in [0, 1].
* ``RAND_TYPE ISO_NORMAL`` (log ``RAND_TYPE 0``, and the server's default): glibc's
  ``srand``/``rand`` (the additive feedback generator of degree 31); each draw is
  ``rand() / (RAND_MAX - 1)``, which can exceed 1 by a hair.

A draw that would pick one past the end of what it chooses from (1.0, or more) is clamped
to the last choice: the server then reads past its arrays (section 6.6), which nothing
imitates; the clamp changes nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.engines.base import JOKER, SUITS, Card

_MASK = 0xFFFFFFFF
N_PLAYERS = 5
#: The server's ranks by table column 1..13 (3 4 ... K A 2); the engine's Card ranks.
_COLUMN_RANK = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2)
#: Card index k = 13 * suit row + (column - 1); 52 is the joker.
CARD_OF_INDEX: tuple[Card, ...] = tuple(Card(_COLUMN_RANK[k % 13], SUITS[k // 13]) for k in range(52)) + (JOKER,)


class MT19937:
    """The reference Mersenne Twister (mt19937ar), seeded with ``init_genrand``."""

    def __init__(self, seed: int):
        mt = [seed & _MASK]
        for i in range(1, 624):
            prev = mt[-1]
            mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & _MASK)
        self._mt = mt
        self._index = 624

    def _twist(self) -> None:
        mt = self._mt
        for i in range(624):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7FFFFFFF)
            v = mt[(i + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[i] = v
        self._index = 0

    def int32(self) -> int:
        """``genrand_int32``."""
        if self._index >= 624:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y

    def draw(self) -> float:
        """``genrand_real1``: in [0, 1], 1 included."""
        return self.int32() / 4294967295.0


class GlibcRand:
    """glibc's ``srand(seed)`` / ``rand()`` (TYPE_3: r[i] = r[i-3] + r[i-31])."""

    RAND_MAX = 2**31 - 1

    def __init__(self, seed: int):
        seed &= _MASK
        r = [seed if seed else 1]
        for _ in range(1, 31):
            # 16807 * r mod (2**31 - 1), as glibc computes it on signed 32-bit words.
            prev = r[-1] - (1 << 32) if r[-1] & 0x80000000 else r[-1]
            hi, lo = int(prev / 127773), prev - int(prev / 127773) * 127773
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            r.append(word & _MASK)
        r.extend(r[i - 31] for i in range(31, 34))
        for i in range(34, 344):
            r.append((r[i - 31] + r[i - 3]) & _MASK)
        self._r = r[-34:]

    def rand(self) -> int:
        r = self._r
        value = (r[-31] + r[-3]) & _MASK
        r.append(value)
        del r[0]
        return value >> 1

    def draw(self) -> float:
        return self.rand() / (self.RAND_MAX - 1.0)


Generator = MT19937 | GlibcRand


def generator(rand_type: str, seed: int) -> Generator:
    """The server's generator for a config's ``RAND_TYPE`` (``MT``; anything else, as in the
    server, is libc ``rand``) or a log header's (``1`` MT, ``0`` libc)."""
    if rand_type in ("MT", "1"):
        return MT19937(seed)
    return GlibcRand(seed)


def _pick(draw: float, n: int) -> int:
    """floor(draw * n), clamped to the last of n choices."""
    return min(int(draw * n), n - 1)


@dataclass(frozen=True)
class MatchRules:
    """What decides the draws: seat changes (``RULE_SEKIGAE``, ``RULE_SEKIGAE_NUM``), the
    class block (``FLASH_MIBUN_NUMBER``), the exchange (``RULE_CHANGE``) and the generator."""

    sekigae: bool = True
    sekigae_num: int = 3
    flash: int = 100
    change: bool = True
    rand_type: str = "MT"

    def reseats(self, n: int) -> bool:
        """Does game n (1-based) draw new seats? (``n mod RULE_SEKIGAE_NUM == 1``.)"""
        return self.sekigae and self.sekigae_num > 0 and n % self.sekigae_num == 1

    def fresh(self, n: int) -> bool:
        """Is game n the first of a class block (random dealer, no classes)?"""
        return self.flash <= 0 or (n - 1) % self.flash == 0

    def exchanges(self, n: int) -> bool:
        """Is there an exchange before game n? (``n mod FLASH != 1`` and ``RULE_CHANGE``.)"""
        return self.change and (self.flash <= 0 or n % self.flash != 1) and n > 1


@dataclass(frozen=True)
class Deal:
    """One game's draws: ``number`` counts from 1; ``seats[s]`` is the player in seat s;
    ``hands`` by player id, each in the order dealt."""

    number: int
    seats: tuple[int, ...]
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    fresh: bool
    exchange: bool


def draw_seats(rng: Generator) -> tuple[int, ...]:
    """One draw per player 0..4, an exact tie with an earlier player's redrawn; seat s goes
    to the player with the (s+1)-th smallest draw."""
    draws: list[float] = []
    for _ in range(N_PLAYERS):
        d = rng.draw()
        while d in draws:
            d = rng.draw()
        draws.append(d)
    return tuple(sorted(range(N_PLAYERS), key=draws.__getitem__))


def deal_cards(rng: Generator, seats: Sequence[int], dealer: int) -> tuple[tuple[Card, ...], ...]:
    """53 draws: the r-th card still undealt (in card index order) goes to the seat
    ``dealer's seat + i``."""
    undealt = list(range(53))
    hands: list[list[Card]] = [[] for _ in range(N_PLAYERS)]
    first = seats.index(dealer)
    for i in range(53):
        k = undealt.pop(_pick(rng.draw(), 53 - i))
        hands[seats[(first + i) % N_PLAYERS]].append(CARD_OF_INDEX[k])
    return tuple(tuple(h) for h in hands)


class Match:
    """The server's generator over a match: call :meth:`deal` for games 1, 2, ... in turn,
    and :meth:`stall_places` whenever a game ends by the 20-pass rule."""

    def __init__(self, rules: MatchRules, seed: int):
        self.rules = rules
        self.seed = seed
        self.rng = generator(rules.rand_type, seed)
        self.seats: tuple[int, ...] = tuple(range(N_PLAYERS))
        self.number = 0

    def deal(self, previous_daifugo: int | None) -> Deal:
        """The next game's seats, dealer and hands. ``previous_daifugo``: the last game's
        daifugo, the dealer of a game that does not start a block."""
        self.number += 1
        n = self.number
        if self.rules.reseats(n):
            self.seats = draw_seats(self.rng)
        fresh = self.rules.fresh(n)
        if fresh or previous_daifugo is None:
            dealer = _pick(self.rng.draw(), N_PLAYERS)
        else:
            dealer = previous_daifugo
        hands = deal_cards(self.rng, self.seats, dealer)
        return Deal(n, self.seats, dealer, hands, fresh, self.rules.exchanges(n))

    def stall_places(self, finished: Sequence[int]) -> tuple[int, ...]:
        """The finishing order of a game the 20-pass rule ended, with ``finished`` already
        out: one draw per remaining place but the last, each picking among those still in
        (ascending id)."""
        order = list(finished)
        left = [p for p in range(N_PLAYERS) if p not in order]
        for place in range(len(order), N_PLAYERS - 1):
            j = _pick(self.rng.draw(), N_PLAYERS - place)
            order.append(left.pop(min(j, len(left) - 1)))
        order.extend(left)
        return tuple(order)


def place_points(place: int) -> int:
    """The later revision's points for finishing in ``place`` (0 daifugo .. 4 daihinmin):
    5 for the daifugo down to 1 for the daihinmin, added up over the match (its log's
    ``points`` and ``TOTAL_POINT`` lines)."""
    return N_PLAYERS - place
