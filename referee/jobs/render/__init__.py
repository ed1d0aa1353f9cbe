"""Drawing positions: text for a terminal (card glyphs, ANSI colour), SVG pictures, and a
self-contained HTML page that replays a record move by move with its annotations.

Every renderer draws a :class:`~referee.jobs.render.frames.Frame`: one position of a
record's replay with what led to it (``frames.frames_of``). Modules: ``frames``, ``text``,
``svg``, ``html``.
"""
