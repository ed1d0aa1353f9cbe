"""``pitboss arena``: tournaments of bots, every move refereed by the game's engine.

A face of the referee, like the service: it plays the same live matches
(``Game.live``, through :mod:`~referee.arena.parts`) and, for clients of a protocol a
game's listener speaks (the UEC contest's), the same listener's tables held on their own
(``Listener.held``), and knows no rule of its own. Its modules: ``parts`` (the game's
parts it plays through),
``entrants`` (who plays), ``schedule`` (who sits where, with which deal), ``table`` (one
table, played in one process), ``protocol`` and ``process`` (the line-protocol bots),
``contest`` (a listener's table), ``play`` (which of the two a table is), ``runner``
(tables on every core or on Dask), ``tournament`` (settings, journal, resume), ``stats``
(standings, rating, SPRT), ``report`` (the text table, standings.json, report.html),
``positions`` (start positions) and ``main`` (:func:`main.run`, the Python entry point).
The command line is :mod:`referee.commands.arena`.
"""
