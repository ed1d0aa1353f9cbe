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

import hashlib
import json
import os
import re
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import lark
from lark import Token, Tree
from lark.lexer import Pattern
from lark.load_grammar import PrepareLiterals, load_grammar
from lark.utils import get_regexp_width

from referee.notation.grammar import cache_dir
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
    captured once only). Groups are named without the leading underscore.

    Reading a grammar file builds Lark's own grammar parser (about half a second, most of it
    its collision check), so the patterns are kept beside the compiled parsers (see
    ``grammar.cache_dir``) under a digest of every grammar file and Lark's version, and
    built only when missing."""
    return re.compile(_pattern(grammar, terminal, tuple(sorted(set(names)))))


@cache
def _pattern(grammar: str, terminal: str, names: tuple[str, ...]) -> str:
    key = f"{terminal}:{','.join(names)}"
    stored = _stored(grammar)
    pattern = stored.get(key)
    if not isinstance(pattern, str):
        pattern = _build(grammar, terminal, names)
        stored[key] = pattern
        _store(grammar, stored)
    return pattern


def _cache_file(grammar: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(lark.__version__.encode() + b"\0")
    for file in sorted(data_dir("grammar").glob("*.lark")):  # %import reaches its siblings
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return folder / f"{grammar}-pieces-{digest.hexdigest()[:24]}.json"


@cache
def _stored(grammar: str) -> dict[str, object]:
    target = _cache_file(grammar)
    if target is None:
        return {}
    try:
        loaded = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _store(grammar: str, stored: dict[str, object]) -> None:
    """Written whole (a file of this process's own, renamed into place); a cache that cannot
    be written is simply not kept."""
    target = _cache_file(grammar)
    if target is None:
        return
    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    try:
        part.write_text(json.dumps(stored, sort_keys=True), encoding="utf-8")
        os.replace(part, target)
    except OSError:
        with suppress(OSError):
            part.unlink()
        return
    for old in target.parent.glob(f"{grammar}-pieces-*.json"):  # an earlier grammar's
        if old != target:
            with suppress(OSError):
                old.unlink()


def _build(grammar: str, terminal: str, names: tuple[str, ...]) -> str:
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
    return piece.regexp
