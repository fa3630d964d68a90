"""A peer's role (net/role.py): what each says of hosting and touch, and which moves it may make."""

from __future__ import annotations

import pytest

from net.role import MOVES, IllegalMoveError, Role, move


def test_each_role_says_whether_it_hosts_and_whether_its_side_lost_touch() -> None:
    said = {role: (role.hosting, role.lost_touch) for role in Role}
    assert said == {
        Role.IDLE: (False, False),
        Role.HOSTING: (True, False),
        Role.CUT_OFF: (True, True),
        Role.FOLLOWING: (False, False),
        Role.SEEKING: (False, True),
        Role.STANDING: (False, True),
    }


def test_every_role_is_reached_from_idle_and_none_goes_back_to_it() -> None:
    reached, frontier = {Role.IDLE}, [Role.IDLE]
    while frontier:
        for new in MOVES[frontier.pop()] - reached:
            reached.add(new)
            frontier.append(new)
    assert reached == set(Role)
    assert not any(Role.IDLE in moves for moves in MOVES.values())


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (Role.FOLLOWING, Role.HOSTING),  # only a vote makes a guest the host
        (Role.SEEKING, Role.CUT_OFF),  # only a candidate is voted in
        (Role.STANDING, Role.HOSTING),  # voted in, it is cut off until its watch finds touch
        (Role.HOSTING, Role.SEEKING),  # a host never seeks a host
        (Role.HOSTING, Role.HOSTING),
    ],
)
def test_a_move_that_does_not_follow_is_refused(old: Role, new: Role) -> None:
    with pytest.raises(IllegalMoveError, match=f"{old.value} cannot become {new.value}"):
        move(old, new)


def test_the_moves_a_peer_makes() -> None:
    for old, new in [
        (Role.IDLE, Role.HOSTING),
        (Role.IDLE, Role.FOLLOWING),
        (Role.HOSTING, Role.CUT_OFF),
        (Role.CUT_OFF, Role.HOSTING),
        (Role.CUT_OFF, Role.FOLLOWING),
        (Role.HOSTING, Role.FOLLOWING),
        (Role.FOLLOWING, Role.SEEKING),
        (Role.SEEKING, Role.STANDING),
        (Role.SEEKING, Role.FOLLOWING),
        (Role.STANDING, Role.FOLLOWING),
        (Role.STANDING, Role.CUT_OFF),
    ]:
        assert move(old, new) is new
