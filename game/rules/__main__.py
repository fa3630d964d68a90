"""Command line of the rules engine: perft counts, legal actions and random playouts.

python -m game.rules perft dama:classic 6
python -m game.rules legal numeri --players 3 --moves "first2 d4"
python -m game.rules play mulino:misto --seed 7
python -m game.rules games
"""

from __future__ import annotations

import argparse
import random
import sys

from game.rules import (
    VARIANTS,
    ActionError,
    MatchRecord,
    ReplayError,
    RulesError,
    perft,
    variant,
)
from game.rules.chance import random_action
from game.rules.variants import options_from_text


def _variant_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="GAME[:VARIANT], e.g. dama:mangia (see 'games')")
    parser.add_argument("--players", type=int, help="number of players (Numeri: 2-4)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option, e.g. huffing=on or first=2 (repeatable)",
    )


def _moves_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--moves", default="", help='actions to play first, e.g. "22-18 11-15"')


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m game.rules",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("games", help="list the games, their players and options")
    p = commands.add_parser("perft", help="count the action sequences of a given length")
    _variant_arguments(p)
    p.add_argument("depth", type=int)
    _moves_argument(p)
    p.add_argument("--divide", action="store_true", help="also print the count below each action")
    p = commands.add_parser("legal", help="list the legal actions (or chance outcomes)")
    _variant_arguments(p)
    _moves_argument(p)
    p = commands.add_parser("play", help="a random playout to the end, from a seed")
    _variant_arguments(p)
    p.add_argument("--seed", type=int, required=True)
    _moves_argument(p)
    return parser


def _start(args: argparse.Namespace) -> MatchRecord:
    options = options_from_text(args.option)
    chosen = variant(args.game, args.players, options)
    return MatchRecord.from_notation(chosen, tuple(args.moves.split()))


def _games() -> None:
    for spec in VARIANTS.values():
        players = "/".join(map(str, spec.players))
        options = "; ".join(f"{o.name}={str(o.default).lower()} ({o.help})" for o in spec.options)
        print(f"{spec.name:18} {spec.title:18} players {players:6} {options}")


def run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.command == "games":
        _games()
        return 0
    record = _start(args)
    state = record.replay()
    if args.command == "perft":
        if args.depth < 0:
            raise RulesError("depth must be 0 or more")
        if args.divide and args.depth > 0:
            branches = (
                [a for a, _ in state.chance_outcomes()]
                if state.is_chance()
                else state.legal_actions()
            )
            for action in branches:
                print(f"{state.action_to_str(action)} {perft(state.apply(action), args.depth - 1)}")
        print(perft(state, args.depth))
    elif args.command == "legal":
        if state.is_terminal():
            print(f"game over: {state.result()}")
        elif state.is_chance():
            for outcome, probability in state.chance_outcomes():
                print(f"{state.action_to_str(outcome)} {probability}")
        else:
            for action in state.legal_actions():
                print(state.action_to_str(action))
    else:
        rng = random.Random(args.seed)
        while not state.is_terminal():
            action = random_action(state, rng)
            record = record.then(action)
            state = state.apply(action)
        print(record.to_text(), end="")
        print(f"result: {state.result()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except (ActionError, ReplayError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader (e.g. "| head") has gone: nothing left to say
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
