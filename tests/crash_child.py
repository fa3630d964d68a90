"""The game's autosave under fire: plays matches with random legal moves through the same
:class:`Match` and :class:`SaveStore` the client uses, resuming whatever was saved, and
prints each action once its autosave has returned.  ``tests/test_crash_safety.py`` kills it
with SIGKILL at random moments.

    python -m tests.crash_child HOME SEED
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from game.rules import every_setup
from game.session.match import Match
from game.session.saves import SaveStore
from game.session.seats import Seat


def main(home: Path, seed: int) -> None:
    rng = random.Random(seed)
    store = SaveStore(home)
    resumed = store.resume()
    if resumed.problem:
        print(f"problem {resumed.problem}", flush=True)
    match = resumed.match
    setups = every_setup()
    while True:
        if match is None:
            setup = rng.choice(setups)
            match = Match.new(setup, [Seat() for _ in range(setup.players)], rng.getrandbits(40))
            print(f"new {setup.describe()}", flush=True)
        else:
            print(f"resumed {len(match.record.actions)}", flush=True)
        match.on_change.append(store.save)
        while not match.state.is_terminal():
            if match.state.is_chance():
                match.roll()
            else:
                match.play(rng.choice(match.state.legal_actions()))
            print(f"saved {len(match.record.actions)} {match.record.actions[-1]}", flush=True)
        print("finished", flush=True)
        match = None


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
