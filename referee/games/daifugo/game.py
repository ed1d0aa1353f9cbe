"""Daifugo (大富豪) as the generic jobs see it: one :class:`Game`."""

from __future__ import annotations

from referee.engines.message import M
from referee.games.daifugo import engine
from referee.games.daifugo.questions import OPTIONS, QUESTIONS
from referee.games.daifugo.uecda.listener import LISTENER
from referee.jobs.game import Foreign, Game, Settings, lazy
from referee.jobs.selfplay import Option, SelfPlay

GAME = Game(
    name="daifugo",
    title=M("Daifugo"),  # said in the reader's language where a page or sentence names the game
    notation="DFN",
    extensions=(".dfn",),
    rule_sets=tuple(engine.PRESETS),
    settings=Settings(parse=lazy("referee.games.daifugo.settings:parse"),
                      label=lazy("referee.games.daifugo.settings:label"),
                      declared=lazy("referee.games.daifugo.settings:declared"),
                      comparisons=lazy("referee.games.daifugo.settings:comparisons"),
                      position_key=lazy("referee.games.daifugo.settings:position_key"),
                      option=lambda rules, name: rules.option(name)),
    engine=engine,
    read=lazy("referee.games.daifugo.notation.dfn:read_daifugo"),
    moves=lambda record: [entry for rnd in record.rounds for entry in rnd.moves],
    plan=lazy("referee.games.daifugo.referee:plan"),
    allowed=lazy("referee.games.daifugo.annotate:allowed"),
    set_off=lambda state: state.events,
    foreign=(Foreign("uecda-log", "a UEC contest-server log",
                     lazy("referee.games.daifugo.uecda.notation.header:is_contest_log"),
                     lazy("referee.games.daifugo.uecda.log_referee:validate_log"), extensions=(".log",),
                     convert="referee.games.daifugo.uecda.convert", writes=True),),
    section_tags=frozenset({"round"}),
    analysis="the fewest plays out for the mover; ? marks a play that brings the mover no nearer going out.",
    examples=("pitboss validate --json contest.log | jq .summary", "pitboss show match.dfn --html replay.html",
              "pitboss annotate -r 'seed +spade3' match.dfn"),
    questions=QUESTIONS,
    question_options=OPTIONS,
    selfplay=SelfPlay(
        "matches", "Random legal, complete Daifugo matches as DFN: each round's deal, exchange, every "
        "move and the finishing order; or, with --format uecda-log, as UEC contest-server logs.",
        "referee.games.daifugo.selfplay:maker",
        (Option("players", 5, "Players per match, 3 to 8 (uecda: 5).", min=3, max=8),
         Option("options", "", 'Toggles on top of the preset, as in the Options tag: "+eight-cut -revolution '
                'stairs-revolution=4 exchange=choice".'),
         Option("rounds", 3, "Rounds per match (a contest log's games).", min=1),
         Option("format", "dfn", "dfn: DFN records; uecda-log: each match played at a UEC contest table and "
                "written as the contest server's log (with --rules uecda; the server's seed deals, seats and "
                "chains the games; several logs go to an existing --output directory, one file each), e.g. "
                "pitboss selfplay daifugo -r uecda --format uecda-log -n 1 --rounds 1000 -o table.log",
                choices=("dfn", "uecda-log")),
         Option("revision", "2018", "uecda-log: the contest server's revision, 2018 (tndhms 0.29) or later "
                "(its exchange, points and trick rule).", choices=("2018", "later"))),
    ),
    spec_files=("daifugo.toml", "daifugo-seed.toml", "daifugo-uecda.toml"),
    listeners=(LISTENER,),
    parts={
        "analyse": "referee.games.daifugo.analyse",
        "annotate": "referee.games.daifugo.annotate",
        "render": "referee.games.daifugo.render",
        "rulebook": "referee.games.daifugo.rulebook",
        "selfplay": "referee.games.daifugo.selfplay",
        "solve": "referee.games.daifugo.solve.questions",
        "live": "referee.games.daifugo.tables",
    },
)
