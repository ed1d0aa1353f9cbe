"""``pitboss arena``: tournaments of bots, every move refereed by the game's engine.

A face of the referee, like the service: it plays the same live matches
(``Game.part("live")``) and, for contest clients, the same contest tables
(``Game.part("contest")`` behind the service's listener), and knows no rule of its own.
Its modules: ``entrants`` (who plays), ``schedule`` (who sits where, with which deal),
``table`` (one table, played in one process), ``protocol`` and ``process`` (the
line-protocol bots), ``contest`` (a contest table), ``runner`` (tables on every core or
on Dask), ``tournament`` (settings, journal, resume), ``stats`` (standings, rating, SPRT),
``report`` (the text table, standings.json, report.html), ``main`` (:func:`main.run`, the
Python entry point) and ``command`` (the command line).
"""
