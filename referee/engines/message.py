"""Sentences that can be said in another language: the message type every layer uses.

A message is a ``str`` whose value is the English sentence, so every caller that prints,
compares, joins or serialises it keeps working unchanged; it also remembers the template
it was made from and the arguments, so that a face can say it again in another language
(``referee.i18n.tr``). This module loads nothing: no catalog, no I/O; making a message is
one ``str.format``.

- ``T("{who} does not hold {card}", who=who, card=card)`` is "player A does not hold KS";
  ``T`` is also the keyword ``pybabel extract`` looks for (see ``babel.cfg``).
- ``N("{n} card", "{n} cards", n)`` counts (gettext's ngettext): the template is chosen by
  ``n``, which is also the ``{n}`` argument.
- ``J("; ", parts)`` joins messages (a list inside a sentence), each translated.
- ``suggested(message, word, names)`` adds the names closest to a misspelled one.
- ``R(rule_id, title)`` is a rule's title, said from the rule texts in that language.
- ``M("...")`` marks a template kept for later formatting (the render and rulebook ``TEXT``
  tables): it returns the text itself, and extraction finds it.

Arguments that are messages themselves are translated with the sentence; anything else
(player names, cards, moves, numbers, rule-set names) is put in as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class T(str):
    """An English sentence that remembers its template (``msgid``) and its arguments.

    Made often where nobody reads it (an engine judging candidate moves builds a message
    for each it rejects), so making one is kept to a format and one attribute."""

    _made: tuple[str, str | None, int | None, dict[str, Any]]

    def __new__(cls, msgid: str, /, **args: Any) -> T:
        self = str.__new__(cls, msgid.format_map(args) if args or "{" in msgid else msgid)
        self._made = (msgid, None, None, args)
        return self

    @property
    def msgid(self) -> str:
        return self._made[0]

    @property
    def plural(self) -> str | None:
        return self._made[1]

    @property
    def n(self) -> int | None:
        return self._made[2]

    @property
    def args(self) -> dict[str, Any]:
        return self._made[3]

    def __reduce__(self) -> tuple[Any, ...]:
        # A str subclass would be rebuilt from its value alone: keep the template (the
        # parallel workers send findings back pickled).
        return _restore, (str(self), *self._made)


def _made(value: str, msgid: str, plural: str | None, n: int | None, args: dict[str, Any]) -> T:
    self = str.__new__(T, value)
    self._made = (msgid, plural, n, args)
    return self


def N(singular: str, plural: str, n: int, /, **args: Any) -> T:
    """A sentence that counts ``n`` (the ``{n}`` argument): ``singular`` when n is 1 in
    English, ``plural`` otherwise; other languages choose by their own plural rule."""
    return _made((singular if n == 1 else plural).format(n=n, **args), singular, plural, n, args)


def J(separator: str, items: Iterable[str]) -> T:
    """Sentences (or words) joined into one, each said in the language of the whole: a
    list inside a sentence ("A owes B 2 cards; C owes D 1 card")."""
    parts = tuple(items)
    # No template (msgid ""): the parts are translated one by one.
    return _made(separator.join(parts), "", None, None, {"separator": separator, "items": parts})


def said(err: BaseException) -> str:
    """An exception's message, still a message (translatable) when it was raised with one."""
    if len(err.args) == 1 and isinstance(err.args[0], T):
        return err.args[0]
    return str(err)


def suggested(message: str, word: str, choices: Iterable[str], cutoff: float = 0.6) -> str:
    """``message`` (about a misspelled name ``word``), and the ``choices`` closest to it
    when some are close enough (difflib): "... (did you mean fnv?)"."""
    from difflib import get_close_matches

    close = get_close_matches(word.strip().lower(), list(dict.fromkeys(choices)), n=3, cutoff=cutoff)
    if not close:
        return message
    return J(" ", [message, T("(did you mean {names}?)", names=", ".join(close))])


def R(rule_id: str, english: str) -> T:
    """A rule's title (``english``, from spec/) inside a sentence: said in the language from
    the rule texts beside the spec (``spec/i18n/<lang>/``), not from the catalog."""
    return _made(english, RULE_TITLE, None, None, {"rule": rule_id})


#: The msgid of a rule title (:func:`R`): no template, the rule's id says which.
RULE_TITLE = "\x00rule-title"


def M(text: str) -> str:
    """Mark a template for extraction without formatting it (a ``TEXT`` table's entry)."""
    return text


_restore = _made
