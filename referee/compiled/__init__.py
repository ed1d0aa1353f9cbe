"""Opt-in compiled engines: each game's engine modules compiled by mypyc, from the same source.

The source stays the one statement of the rules; a compiled module is only its faster
form, kept in the per-user cache (``~/.cache/pitboss/compiled/<python>/<hash>/``, outside
the source tree) with a manifest of the hashes of the files it was compiled from.

* :mod:`referee.compiled.loader` (imported by ``referee/__init__.py``): the import hook that
  loads a compiled module only while every file its build was compiled from is unchanged,
  else the ``.py``. ``PITBOSS_COMPILED=0`` forces pure Python; ``PITBOSS_COMPILED=1`` makes
  a missing or stale build an import error (CI).
* :mod:`referee.compiled.build`: ``python -m referee.compiled build | status | clean``.
"""
