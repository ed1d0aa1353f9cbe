"""Caravan's puzzle questions for ``pitboss solve``, as data (answered by ``solve.questions``)."""

from referee.jobs.questions import MAX_DEPTH, MAX_WITHIN, Question, QuestionOption

QUESTIONS = (
    Question("reach",
             "can caravan B be brought into 21-26 by its owner within K of their own moves "
             "(the opponent passes)? shortest line, or a proof that none exists",
             "pitboss solve puzzle.cvn --question reach --caravan A --within 3 --cards hand+deck",
             frozenset({"caravan", "within", "cards", "method"})),
    Question("fewest",
             "the fewest own moves to sell caravan B (--caravan) or to decide a lane in the "
             "mover's favour (--lane A/D), the opponent passing",
             "pitboss solve puzzle.cvn --question fewest --lane B/E --within 6",
             frozenset({"caravan", "lane", "within", "cards", "method"})),
    Question("forced-win",
             "with both hands and decks known, can the side to move force a win within N of "
             "its own turns? first move of a winning strategy, or a reply to every try",
             "pitboss solve game.cvn --ply 40 --question forced-win --depth 2",
             frozenset({"depth"})),
)

OPTIONS = (
    QuestionOption("caravan", str, "reach, fewest: the caravan to bring into 21-26 (A-F); its owner moves.",
                   "-c", "X"),
    QuestionOption("lane", str, "fewest: the lane to win for the side to move (A/D, B/E, C/F).", "-l", "X/Y"),
    QuestionOption("within", int, "reach, fewest: at most this many own moves (default 3 for reach, 6 for "
                   "fewest; at most 30).", "-k", "K", 0, MAX_WITHIN),
    QuestionOption("cards", str, "reach, fewest: hand (the known hand only) or hand+deck (also the known deck, "
                   "in draw order; default).", None, "WHICH"),
    QuestionOption("depth", int, "forced-win: own turns (default 2; at most 30).", "-d", "N", 1, MAX_DEPTH),
)
