"""Daifugo's puzzle questions for ``pitboss solve``, as data (answered by ``solve.questions``)."""

from referee.jobs.questions import MAX_DEPTH, Question, QuestionOption

QUESTIONS = (
    Question("out",
             "the fewest plays that empty this player's hand if nobody beats them, and one "
             "split of the hand into combinations",
             "pitboss solve puzzle.dfn --question out --player Aki",
             frozenset({"player", "method"})),
    Question("unbeatable",
             "is this play unbeatable by any combination of the cards this player cannot see? "
             "yes, or no and every play that beats it",
             "pitboss solve puzzle.dfn --question unbeatable --play \"2S 2H\"",
             frozenset({"player", "play", "cards"})),
    Question("forced-out",
             "with all hands known, can this player go out first whatever the others do?",
             "pitboss solve puzzle.dfn --question forced-out --player Aki --depth 12",
             frozenset({"player", "depth", "method"})),
)

OPTIONS = (
    QuestionOption("cards", str, "unbeatable: unseen (every card the player cannot see, pooled; default) or "
                   "hands (each other player's own hand).", None, "WHICH"),
    QuestionOption("depth", int, "forced-out: the most own plays (default: the hand's size; at most 30).", "-d",
                   "N", 1, MAX_DEPTH),
    QuestionOption("play", str, 'unbeatable: the play to judge, e.g. "5S 5C" (default: the play on the table).',
                   None, "CARDS"),
    QuestionOption("player", str, "out, unbeatable, forced-out: the player, by name as in [Players] (default: "
                   "the player to move; for unbeatable without --play, whoever made the play on the table).",
                   None, "NAME"),
)
