"""The UEC computer-Daihinmin contest (UECda), Daifugo's: everything of its ecosystem,
kept apart from the game itself and layered like it.

- ``engine/``: the contest server's randomness (tndhms 0.29's generator and draws);
  imports nothing above the engine.
- ``notation/``: its log (``log``: the reader, ``writer``, ``header``: how a log starts).
- the log's referee (``log_referee``, ``log_replay``, ``exchange_inference``,
  ``seed_check``) and its conversion to and from DFN (``convert``);
- ``contest/``: a contest table over TCP (configuration, protocol bytes, the match's
  flow, the table, a client) and the table as a live table of ``pitboss serve``;
- the protocol's listener (``listener``: its declaration in the game's contract;
  ``server``, ``hub``; ``python -m referee.games.daifugo.uecda`` runs it on its own).
"""
