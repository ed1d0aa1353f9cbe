"""A grammar terminal's regular expression with its named pieces captured.

Readers lex long runs (a record's moves, a whole tag line) as one token for speed, then
need the pieces back: the card, the caravan, the draw. Rather than restate the syntax in
a hand-kept regular expression, :func:`capturing` builds one from the grammar file itself:
the terminal's own definition, exactly as Lark compiles it, with every reference to one of
the named sub-terminals wrapped in a capturing group of that name. So the grammar stays
the one definition of the notation, and a reader can only split what the lexer accepted.

Lark resolves a terminal's references by putting the referenced terminal's tree itself in
its place, so a reference is recognised by that tree's identity. The alternatives of a
choice are ordered as Lark orders them (longest first), from the pattern without groups.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from lark import Token, Tree
from lark.lexer import Pattern
from lark.load_grammar import PrepareLiterals, load_grammar
from lark.utils import get_regexp_width

from referee.notation import grammar as grammars
from referee.resources import data_dir


@dataclass(frozen=True)
class _Piece:
    #: The regular expression with the capturing groups, and the same without them (what
    #: Lark itself compiles, and what its ordering of alternatives is computed from).
    regexp: str
    plain: str
    #: Lark's ``value`` of the pattern: its length breaks ties between alternatives.
    value: str

    @property
    def width(self) -> tuple[int, int]:
        low, high = get_regexp_width(self.plain)
        return low, high


@cache
def _terminals(name: str) -> dict[str, Tree]:
    path = data_dir("grammar") / f"{name}.lark"
    grammar, _ = load_grammar(path.read_text(encoding="utf-8"), str(path), [], False)
    return {term: tree for term, (tree, _priority) in grammar.term_defs if tree is not None}


def capturing(grammar: str, terminal: str, names: Iterable[str]) -> re.Pattern[str]:
    """The compiled pattern of ``terminal`` in ``grammar/<grammar>.lark``, each reference to
    a terminal in ``names`` a named group (``_CARD`` becomes the group ``CARD``; a name may be
    captured once only). Groups are named without the leading underscore. The expression is
    derived once and kept with the compiled parsers (loading a grammar costs a start 0.5 s)."""
    names = tuple(names)
    key = f"{grammar}/{terminal}/{','.join(names)}"
    return re.compile(grammars.derived("pieces", key, lambda: _capturing(grammar, terminal, names)))


def _capturing(grammar: str, terminal: str, names: Iterable[str]) -> str:
    terms = _terminals(grammar)
    wanted = set(names)
    by_id = {id(tree): term for term, tree in terms.items() if term in wanted}
    seen: set[str] = set()

    def convert(node: Tree | Token | Pattern) -> _Piece:
        if isinstance(node, Pattern):
            return _Piece(node.to_regexp(), node.to_regexp(), node.value)
        assert isinstance(node, Tree), node
        data = node.data
        if data == "literal" or data == "range":
            # A literal inside a copy: let Lark turn it into its pattern.
            pattern = PrepareLiterals().transform(Tree("value", [node])).children[0].children[0]
            return convert(pattern)
        if data == "pattern":
            return convert(node.children[0])
        if data == "value":
            child = node.children[0]
            piece = convert(child)
            term = by_id.get(id(child))
            if term is None:
                return piece
            group = term.lstrip("_")
            if group in seen:
                raise ValueError(f"{terminal} refers to {term} more than once; capture an enclosing piece")
            seen.add(group)
            return _Piece(f"(?P<{group}>{piece.regexp})", piece.plain, piece.value)
        if data == "expansion":
            parts = [convert(c) for c in node.children]
            if not parts:
                return _Piece("", "", "")
            if len(parts) == 1:
                return parts[0]
            plain = "".join(p.plain for p in parts)
            return _Piece("".join(p.regexp for p in parts), plain, plain)
        if data == "expansions":
            parts = [convert(c) for c in node.children]
            if len(parts) == 1:
                return parts[0]
            parts.sort(key=lambda p: (-p.width[1], -p.width[0], -len(p.value)))
            plain = "(?:%s)" % "|".join(p.plain for p in parts)
            return _Piece("(?:%s)" % "|".join(p.regexp for p in parts), plain, plain)
        if data in ("expr", "maybe"):
            inner = convert(node.children[0])
            args = [str(a) for a in node.children[1:]] if data == "expr" else ["?"]
            op = args[0]
            if op == "~":
                op = "{%d}" % int(args[1]) if len(args) == 2 else "{%d,%d}" % (int(args[1]), int(args[2]))
            plain = f"(?:{inner.plain}){op}"
            return _Piece(f"(?:{inner.regexp}){op}", plain, plain)
        raise ValueError(f"unexpected node {data!r} in terminal {terminal}")

    piece = convert(terms[terminal])
    missing = {n.lstrip("_") for n in wanted} - seen
    if missing:
        raise ValueError(f"{terminal} does not refer to {', '.join(sorted(missing))}")
    if any(t.name == terminal for t in grammars.load(grammar).terminals):  # the lexer's: edited as it is
        return grammars.possessive(piece.regexp)
    return piece.regexp
