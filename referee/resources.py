"""Where the data shipped beside the code lives (grammar/, spec/).

In a source checkout or an editable install they are the top-level folders of the
repository; in a wheel they are packaged under ``referee/_data``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    for candidate in (_HERE.parent / name, _HERE / "_data" / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pitboss data folder {name!r} is missing from the installation")
