"""Daifugo's solver: the answers to its questions (``questions``; the questions themselves
are data in ``referee.games.daifugo.questions``), its searches and its z3 model."""
