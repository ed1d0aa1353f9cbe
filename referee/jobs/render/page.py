"""The opening of a self-contained HTML page (the replay page, the rulebook)."""

from __future__ import annotations

from xml.sax.saxutils import escape


def head(title: str, style: str, csp: str, lang: str = "en") -> str:
    """A self-contained page's opening, up to ``<body``: phone-sized, light and dark, and
    allowed nothing from outside (``csp``)."""
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{escape(title)}</title>
<style>{style}</style>
</head>"""
