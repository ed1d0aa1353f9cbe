"""Caravan (Fallout: New Vegas) as the generic jobs see it: one :class:`Game`."""

from __future__ import annotations

from referee.engines.message import M
from referee.games.caravan import engine
from referee.games.caravan.questions import OPTIONS, QUESTIONS
from referee.jobs.game import Game, Settings, lazy
from referee.jobs.selfplay import Option, SelfPlay


#: Self-play's ``--player`` choices: both sides random, both greedy, or each side either.
PLAYERS = ("random", "greedy", "mixed")


def _allowed(before: engine.State, move: engine.Move, after: engine.State) -> list[str]:
    """The rules ``check`` and ``apply`` consulted for a legal move, in the engine's words."""
    consulted: list[str] = []
    engine.check(before, move, consulted)
    engine.apply(before, move, consulted)
    return consulted


GAME = Game(
    name="caravan",
    title=M("Caravan"),  # said in the reader's language where a page or sentence names the game
    notation="CVN",
    extensions=(".cvn",),
    rule_sets=tuple(engine.RULESETS),
    settings=Settings(*(lazy(f"referee.games.caravan.settings:{f}")
                        for f in ("parse", "label", "declared", "comparisons", "position_key"))),
    engine=engine,
    read=lazy("referee.games.caravan.notation.cvn:read_caravan"),
    moves=lambda record: record.moves,
    plan=lazy("referee.games.caravan.referee:plan"),
    allowed=_allowed,
    set_off=engine.end_rules,
    moves_name_mover=False,
    numbered_players=True,
    analysis=("with the mover's hand and deck known, a forced win within --depth own turns and each of "
              "the mover's caravans' fewest moves into 21-26 within --within; ? marks a sale made impossible."),
    examples=("pitboss validate games.cvn", "pitboss annotate game.cvn",
              "pitboss solve puzzle.cvn -Q reach --caravan A --within 3",
              "pitboss selfplay caravan --games 100 --rules fnv > random.cvn"),
    questions=QUESTIONS,
    question_options=OPTIONS,
    selfplay=SelfPlay(
        "games", "Random legal, complete Caravan games as CVN, with both decks (random legal decks).",
        "referee.games.caravan.selfplay:CaravanMaker",
        (Option("player", "random", "random: uniform legal moves; greedy: prefers moves that win lanes; "
                "mixed: either, per side.", choices=PLAYERS),
         Option("draws", False, "Write each drawn card (+9D) after its move.", negatable=True)),
    ),
    spec_files=("caravan.toml", "caravan-holotape.toml", "caravan-fnv.toml"),
    parts={
        "analyse": "referee.games.caravan.analyse",
        "annotate": "referee.games.caravan.annotate",
        "disputes": "referee.games.caravan.disputes",
        "render": "referee.games.caravan.render",
        "rulebook": "referee.games.caravan.rulebook",
        "selfplay": "referee.games.caravan.selfplay",
        "solve": "referee.games.caravan.solve.questions",
        "live": "referee.games.caravan.live",
    },
)
