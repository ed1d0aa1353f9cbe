"""Notation: grammars, readers and writers (text <-> records and moves)."""
