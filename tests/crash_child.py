"""The game's autosave under fire: plays matches with random legal moves through the same
:class:`Match` and :class:`SaveStore` the client uses — resuming one of the unfinished
matches or starting another beside them, and now and then leaving a match for a new one —
and prints each action once its autosave has returned, with whether the match is kept yet.
``tests/test_crash_safety.py`` kills it with SIGKILL at random moments.

    python -m tests.crash_child HOME    (then a seed a line on stdin: see :func:`serve`)
"""

from __future__ import annotations

import os
import random
import sys
import traceback
from pathlib import Path

from game.rules import every_setup
from game.session.match import Match
from game.session.saves import SaveStore
from game.session.seats import Seat

KEPT = 3  # unfinished matches at most: then one of them is resumed
LEAVE = 0.02  # the chance, after each action, of leaving the match for a new one


def _say(line: str) -> None:
    """Write ``line`` whole, in one system call: a kill falls before it or after it (print
    may write the text and its newline apart, e.g. under PYTHONUNBUFFERED)."""
    os.write(sys.stdout.fileno(), f"{line}\n".encode())


def main(home: Path, seed: int) -> None:
    rng = random.Random(seed)
    store = SaveStore(home)
    shelf = store.unfinished()
    if shelf.problem:
        _say(f"problem {shelf.problem}")
    setups = every_setup()
    while True:
        if shelf.matches and (len(shelf.matches) >= KEPT or rng.random() < 0.5):
            match = rng.choice(shelf.matches).match
            _say(f"resumed {match.seed:016x} {len(match.record.actions)}")
        else:
            setup = rng.choice(setups)
            match = Match.new(setup, [Seat() for _ in range(setup.players)], rng.getrandbits(62))
            _say(f"new {match.seed:016x} {setup.describe()}")
        match.on_change.append(store.save)
        while not match.state.is_terminal():
            if match.state.is_chance():
                match.roll()
            else:
                match.play(rng.choice(match.state.legal_actions()))
            actions = match.record.actions
            # (a match nobody has moved in yet — a lot or a die alone — is not kept)
            _say(f"saved {match.seed:016x} {len(actions)} {actions[-1]} {int(match.begun)}")
            if rng.random() < LEAVE:
                break
        else:
            _say(f"finished {match.seed:016x}")
        shelf = store.unfinished()


def serve(home: Path) -> None:
    """For each seed read on stdin, fork a child that plays from it (a process ready in a
    moment, its imports done) and say ``child PID``; once the child has ended, say ``ended
    SEED SIGNAL`` (after every line the child wrote; the signal that ended it, 0 if none)."""
    for line in sys.stdin:
        seed = int(line)
        go, told = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(told)
            os.read(go, 1)  # the server's line first: two writers could mix within lines
            os.close(go)
            try:
                main(home, seed)
            except BaseException:
                traceback.print_exc()
            os._exit(1)  # it plays until killed: ending at all is a failure
        os.close(go)
        _say(f"child {pid}")
        os.close(told)  # the child may go
        _, status = os.waitpid(pid, 0)
        _say(f"ended {seed} {os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0}")


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
