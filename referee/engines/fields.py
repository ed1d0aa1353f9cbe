"""A setting's values field by field: what differs between two settings, and one setting
with some of another's values. Both games' settings are frozen dataclasses (a rule set
with its options); their ``name`` and ``description`` say which, not how it plays."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

SettingT = TypeVar("SettingT")

#: Fields that name or describe a setting rather than rule anything.
NAMING = ("name", "description")


def differing(a: Any, b: Any) -> Mapping[str, tuple[object, object]]:
    """Each ruling field whose values differ: its name -> (a's value, b's value)."""
    values_a, values_b = _values(a), _values(b)
    return {name: (value, values_b.get(name)) for name, value in values_a.items()
            if name not in NAMING and value != values_b.get(name)}


def adopted(a: SettingT, b: SettingT, names: tuple[str, ...]) -> SettingT:
    """``a`` with ``b``'s values of the fields ``names``."""
    values = _values(b)
    return dataclasses.replace(a, **{name: values[name] for name in names if name in values})  # type: ignore[type-var]


def _values(setting: Any) -> dict[str, object]:
    return {f.name: getattr(setting, f.name) for f in dataclasses.fields(setting)}
