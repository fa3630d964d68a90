"""Who plays each seat of a match."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from game.levels import LADDER


class SeatKind(enum.Enum):
    HUMAN = "human"
    COMPUTER = "computer"
    REMOTE = "remote"


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: a person at this screen, the computer at a level of the ladder (as
    :data:`game.levels.LADDER` names it), or a player on the LAN."""

    kind: SeatKind = SeatKind.HUMAN
    level: str | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if (self.kind is SeatKind.COMPUTER) != (self.level in LADDER):
            raise ValueError(
                f"a computer seat needs a level ({', '.join(LADDER)}), "
                f"other seats none; got {self.kind.value} {self.level!r}"
            )

    @property
    def is_human(self) -> bool:
        return self.kind is SeatKind.HUMAN

    def to_fields(self) -> list[str | None]:
        return [self.kind.value, self.level, self.name]

    @classmethod
    def from_fields(cls, fields: object) -> Seat:
        """The seat :meth:`to_fields` wrote; TypeError or ValueError for anything else."""
        if not isinstance(fields, list):
            raise TypeError(f"a seat is a list of its kind, level and name, not {fields!r}")
        kind, level, name = fields
        return cls(SeatKind(kind), level, str(name))
