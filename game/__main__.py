"""``tavolo``: the game's entry point.

The pygame client is not built yet; until it is, this lists the games the rules engine plays
(``python -m game.rules`` plays and analyses them on the command line).
"""

from __future__ import annotations

import sys

from game.rules import VARIANTS


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if args:
        print(f"tavolo: unknown argument {args[0]!r} (try --help)", file=sys.stderr)
        return 2
    print("Tavolo — the games available:")
    for spec in VARIANTS.values():
        players = "–".join(map(str, (spec.players[0], spec.players[-1])))
        if spec.players[0] == spec.players[-1]:
            players = str(spec.players[0])
        print(f"  {spec.title:18} ({spec.name}, {players} players)")
    print("Play them from the command line: python -m game.rules play GAME --seed N")
    return 0


if __name__ == "__main__":
    sys.exit(main())
