"""The exceptions qipu raises.

Each carries, as attributes, the fields the ``qipu`` command reports: what is
wrong (``message``) and where (the game's ``source`` and ``index``, the
``ply``, the ``move`` as written, and its ``line`` and ``column``, or its byte
``offset`` in a binary file).
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = [
    "QipuError",
    "UnreadableError",
    "IllegalMoveError",
    "InvalidMoveError",
    "AmbiguousMoveError",
    "FenError",
]


class QipuError(Exception):
    """The base of every error qipu raises."""

    message: str

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.message = message
        for name, value in fields.items():
            setattr(self, name, value)


class UnreadableError(QipuError):
    """A file, bytes, or a game in a file, that cannot be read.

    Attributes: ``source`` (the file's name, ``"<bytes>"`` for bytes),
    ``index`` (the game's number in its file, from 0), ``line`` and
    ``column`` (0 when unknown), ``offset`` (the byte, in a binary file, or
    None), ``message``.
    """

    source: str
    index: int
    line: int
    column: int
    offset: Optional[int]


class IllegalMoveError(QipuError, ValueError):
    """A move (or a start position) that is no legal one.

    Attributes: ``ply`` (1 for the first move; 0: the start position),
    ``move`` (as written), ``line``, ``column``, ``offset``, ``message``; for a
    game read from a file also ``source`` and ``index``; for
    :meth:`Position.push`, ``fen`` (the position).
    """

    ply: int
    move: str
    line: int
    column: int
    offset: Optional[int]


class InvalidMoveError(QipuError, ValueError):
    """Text that is a move in no notation qipu reads (``move``, ``message``)."""

    move: str


class AmbiguousMoveError(IllegalMoveError):
    """A move that names several legal moves (``move``, ``message``, ``fen``)."""


class FenError(QipuError, ValueError):
    """A FEN that does not read, or gives no legal position (``fen``, ``message``)."""

    fen: str
