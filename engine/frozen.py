"""Value classes that cost little to define: `class Joined(Frozen): who: str` is a frozen dataclass (fields,
defaults, `dataclasses.replace`, `fields`, match patterns, equality, hash, repr, no assignment) to mypy and
to the program alike; `class Replay(Mutable): ...` a dataclass whose fields may be assigned (and which is not
hashable, as a dataclass that compares is not).

Why not `@dataclass(frozen=True)`: it writes each class's __init__, __eq__, __hash__, __repr__,
__setattr__ and __delattr__ as Python source and compiles it, some 3 M instructions a class, and a command
that reads one game defines some fifty such classes before it does anything (`pbem show`: a tenth of its
start-up). Here the dataclass machinery only records the fields, and these methods, written once, read
them. An instance is built a little slower, so the classes a playout builds at every act (the engines'
actions, events and states) stay dataclasses; mypyc compiles those."""

from __future__ import annotations

import dataclasses
from reprlib import recursive_repr
from typing import Any, ClassVar, dataclass_transform

_MISSING = dataclasses.MISSING


class _Fields:
    """What Frozen and Mutable share: a class's annotated attributes are its fields, in order."""

    _plan: ClassVar[tuple[tuple[str, Any, Any], ...]] = ()
    """(name, default, default factory) of each field __init__ takes, in order."""
    _compared: ClassVar[tuple[str, ...]] = ()
    _hashed: ClassVar[tuple[str, ...]] = ()
    _shown: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__doc__ is None:
            cls.__doc__ = ""  # (a dataclass without one is given its signature, which takes inspect's time)
        dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        cls._plan = tuple((f.name, f.default, f.default_factory) for f in fields if f.init)
        cls._compared = tuple(f.name for f in fields if f.compare)
        cls._hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
        cls._shown = tuple(f.name for f in fields if f.repr)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        plan = self._plan
        if len(args) > len(plan):
            raise TypeError(f"{type(self).__qualname__}() takes {len(plan)} positional arguments but {len(args)} "
                            "were given")
        for (name, _, _), value in zip(plan, args):
            object.__setattr__(self, name, value)
        for name, default, factory in plan[len(args):]:
            if name in kwargs:
                value = kwargs.pop(name)
            elif default is not _MISSING:
                value = default
            elif factory is not _MISSING:
                value = factory()
            else:
                raise TypeError(f"{type(self).__qualname__}() missing required argument: {name!r}")
            object.__setattr__(self, name, value)
        if kwargs:
            raise TypeError(f"{type(self).__qualname__}() got an unexpected or repeated argument: "
                            f"{next(iter(kwargs))!r}")
        post_init = getattr(self, "__post_init__", None)
        if post_init is not None:
            post_init()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self, self._compared) == _values(other, self._compared)

    @recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__qualname__}({shown})"


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
class Frozen(_Fields):
    """The base of a frozen value class."""

    def __hash__(self) -> int:
        return hash(_values(self, self._hashed))

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


@dataclass_transform(field_specifiers=(dataclasses.field,))
class Mutable(_Fields):
    """The base of a class of fields that may be assigned."""

    __hash__ = None  # type: ignore[assignment]


def _values(value: _Fields, names: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple([getattr(value, name) for name in names])
