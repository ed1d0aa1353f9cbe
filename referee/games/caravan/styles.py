"""How Caravan's self-play players choose their moves."""

#: Self-play's ``--player`` choices: both sides random, both greedy, or each side either.
PLAYERS = ("random", "greedy", "mixed")
