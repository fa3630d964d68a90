"""What a peer is to its match at a given moment: one explicit state, its moves checked.

A peer starts :attr:`Role.IDLE`; hosting a match makes it :attr:`Role.HOSTING`, joining
one :attr:`Role.FOLLOWING`.  From then on it moves only along :data:`MOVES`
(docs/PROTOCOL.md §6.3–§6.6, §9)::

    IDLE ──host──→ HOSTING ⇄ CUT_OFF        (in touch with at least half of the match, or not)
    IDLE ──join──→ FOLLOWING ──host lost──→ SEEKING ──candidate is itself──→ STANDING
    SEEKING, STANDING ──a host reached──→ FOLLOWING
    STANDING ──more than half voted──→ CUT_OFF (until its watch finds the voters in touch)
    HOSTING, CUT_OFF ──a new host found (stepping down)──→ FOLLOWING

The match's own phases (lobby, playing, over) are the log's, not the peer's: a host stays
the host, relaying, once the match is over.
"""

from __future__ import annotations

from enum import Enum


class Role(Enum):
    IDLE = "idle"
    """In no match yet."""
    HOSTING = "hosting"
    """The host, in touch with at least half of the match's people: it places entries."""
    CUT_OFF = "cut off"
    """The host, in touch with fewer than half: it places nothing, the match is paused on
    its screen, and it looks for a new host the others may have chosen (§6.4, §6.6)."""
    FOLLOWING = "following"
    """A guest applying what its host relays."""
    SEEKING = "seeking"
    """A guest that lost its host: paused, trying that host, then its candidate (§6.3)."""
    STANDING = "standing"
    """A guest that lost its host and is its own candidate: paused, collecting votes."""

    @property
    def hosting(self) -> bool:
        return self in (Role.HOSTING, Role.CUT_OFF)

    @property
    def lost_touch(self) -> bool:
        """Cut off from most of the match: this peer's side waits until it reaches them."""
        return self in (Role.CUT_OFF, Role.SEEKING, Role.STANDING)


MOVES: dict[Role, frozenset[Role]] = {
    Role.IDLE: frozenset({Role.HOSTING, Role.FOLLOWING}),
    Role.HOSTING: frozenset({Role.CUT_OFF, Role.FOLLOWING}),
    Role.CUT_OFF: frozenset({Role.HOSTING, Role.FOLLOWING}),
    Role.FOLLOWING: frozenset({Role.SEEKING}),
    Role.SEEKING: frozenset({Role.STANDING, Role.FOLLOWING}),
    Role.STANDING: frozenset({Role.CUT_OFF, Role.FOLLOWING}),
}
"""The moves a peer's role may make (a host steps down even if it found itself back in
touch while it reached the new host: HOSTING → FOLLOWING)."""


class IllegalMoveError(RuntimeError):
    """A peer was asked to move from one role to another that does not follow it."""


def move(old: Role, new: Role) -> Role:
    """``new``, if a peer in role ``old`` may move to it (raises :class:`IllegalMoveError`).

    >>> move(Role.SEEKING, Role.STANDING)
    <Role.STANDING: 'standing'>
    >>> move(Role.FOLLOWING, Role.HOSTING)
    Traceback (most recent call last):
    ...
    net.role.IllegalMoveError: following cannot become hosting
    """
    if new not in MOVES[old]:
        raise IllegalMoveError(f"{old.value} cannot become {new.value}")
    return new
