"""Benchmarks that print JSON; their figures go into docs/PERFORMANCE.md.

python tools/bench.py engine  [--seconds S] [--seed N]   rules engine playouts, pydraughts beside
python tools/bench.py frames  [--repeat N] [--size WxH]  frame times (1920x1080), headless and X11
python tools/bench.py startup [--runs N]                 process start to first interactive frame
python tools/bench.py ai      [--games N]                strength, think time, speed of each level,
                                                         and hard with the endgame tables against
                                                         hard without them
python tools/bench.py ai ladder [--game G] [--games N]   the ladder's ratings per game: each level
        [--workers W] [--write] [--known W/D/L,...]      against the next, fitted with intervals
python tools/bench.py ai adaptive [--matches N]         the adaptive opponent against simulated
        [--judged J]                                     people, beside the rule before it
python tools/bench.py ai mcts [--games N]                hard Mulino against OpenSpiel's MCTS bot,
        [--simulations S] [--workers W]                  colours alternating
python tools/bench.py ai longer [--games N] [--scale K]  hard Mulino against itself with K times
        [--opening P] [--workers W] [--game G]           the budget, P random placements first;
        [--budget B] [--weights K=V,...]                 hard at B times its budget, either side's
        [--opponent-weights K=V,...]                     evaluation weights changed
python tools/bench.py net     [--frames N]               LAN latency (2 and 4 peers; 4 players and
                                                         32 spectators), dice, per-entry signature
                                                         costs, discovery, fuzzed frames (in process
                                                         and at real hosts over sockets) and, as
                                                         below, a hosting client's frames
python tools/bench.py hosting [--decisions N]            a hosting client's frames while a hard
                                                         computer seat thinks, old way beside new
python tools/bench.py attract [--seconds S] [--paces P]  a kiosk's CPU and memory in attract mode
                                                         beside 60 fps
python tools/bench.py review  [--matches N]              a finished match's review per 100
                                                         actions, a hint, the dice odds
python tools/bench.py tournament [--players N]           a tournament night over loopback: wall
        [--game G] [--format F] [--rounds R] [--level L] time, CPU, next round's pairing delay
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def weight_changes(text: str) -> dict[str, int]:
    """``cramped=0,mobility=6``: Mulino evaluation weights and their new values."""
    from game.ai.weights import WEIGHTS

    changes = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        if key not in WEIGHTS["mulino"] or not value.lstrip("-").isdigit():
            known = ", ".join(WEIGHTS["mulino"])
            raise argparse.ArgumentTypeError(f"{item!r}: give WEIGHT=INTEGER, weights: {known}")
        changes[key] = int(value)
    return changes


def known_results(text: str) -> list[tuple[int, int, int]]:
    """``--known``: the lowest pairs' results, ``W/D/L,...``."""
    from tools.benchmarks.ladder import known_pairs

    try:
        return known_pairs(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give W/D/L,W/D/L,... counts") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="benchmark", required=True)
    engine = commands.add_parser("engine", help="rules engine random playouts")
    engine.add_argument("--seconds", type=float, default=3.0, help="per variant (default 3)")
    engine.add_argument("--seed", type=int, default=1)
    frames = commands.add_parser("frames", help="frame times of the busiest animations")
    frames.add_argument("--repeat", type=int, default=6, help="animations per game (default 6)")
    frames.add_argument("--worker", choices=("headless", "x11"), help=argparse.SUPPRESS)
    frames.add_argument("--size", default="1920x1080", help="WIDTHxHEIGHT (default 1920x1080)")
    startup = commands.add_parser("startup", help="time to the first interactive frame")
    startup.add_argument("--runs", type=int, default=5)
    ai = commands.add_parser("ai", help="strength of each level against the one below")
    ai.add_argument(
        "what", nargs="?", choices=("ladder", "mcts", "longer", "adaptive"),
        help="ladder: the ladder's ratings; mcts: hard Mulino against OpenSpiel's MCTS; "
        "longer: hard Mulino against itself thinking longer; adaptive: the adaptive "
        "opponent against simulated people",
    )  # fmt: skip
    ai.add_argument("--simulations", type=int, default=4000, help="mcts: a move (default 4000)")
    ai.add_argument("--scale", type=float, default=4.0, help="longer: budget times (default 4)")
    ai.add_argument("--opening", type=int, default=2, help="longer: random plies (default 2)")
    ai.add_argument("--budget", type=float, default=1.0, help="longer: hard's own budget times")
    ai.add_argument(
        "--weights", type=weight_changes, default={},
        help="longer: hard's evaluation weights changed, e.g. cramped=0",
    )  # fmt: skip
    ai.add_argument(
        "--opponent-weights", type=weight_changes, default={},
        help="longer: the opponent's evaluation weights changed",
    )  # fmt: skip
    ai.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    ai.add_argument("--matches", type=int, default=400, help="adaptive: a person's (default 400)")
    ai.add_argument("--judged", type=int, default=250, help="adaptive: the last ones scored")
    ai.add_argument(
        "--game", action="append", help="ladder: this game only (repeatable); longer: the variant"
    )
    ai.add_argument("--workers", type=int, default=1, help="ladder: processes (default 1)")
    ai.add_argument("--write", action="store_true", help="ladder: store in assets/ai/ladder.json")
    ai.add_argument(
        "--known", type=known_results, default=[],
        help="ladder: the lowest pairs' results from an earlier run, W/D/L,... (one game)",
    )  # fmt: skip
    ai.add_argument("--partial", type=Path, help="write the results so far to this file")
    ai.add_argument(
        "--only",
        help="only variants whose names start so (comma-separated), e.g. dama:,numeri; "
        "'endgames' for the endgame-table games",
    )
    ai.add_argument(
        "--endgame-positions",
        type=int,
        default=100,
        help="won endgame positions per game, each played both ways round (default 100)",
    )
    net = commands.add_parser("net", help="LAN latency, fair dice, discovery and a fuzz run")
    net.add_argument("--frames", type=int, default=200_000, help="fuzzed frames (default 200000)")
    net.add_argument("--matches", type=int, default=5, help="matches per peer count (default 5)")
    net.add_argument("--discovery-runs", type=int, default=5)
    net.add_argument(
        "--socket-frames", type=int, help="of the fuzzed frames, those at real hosts (10 %%)"
    )
    net.add_argument("--fuzz-only", action="store_true", help="only the fuzz run")
    net.add_argument("--decisions", type=int, default=12, help="hosting: computer decisions")
    hosting = commands.add_parser("hosting", help="a hosting client's frames while it thinks")
    hosting.add_argument("--decisions", type=int, default=12, help="per way (default 12)")
    hosting.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    attract = commands.add_parser("attract", help="a kiosk's CPU while nobody is there")
    attract.add_argument("--seconds", type=float, default=30.0, help="per pace (default 30)")
    attract.add_argument(
        "--paces", default="paced,paced-whole,60-whole",
        help="which ways, comma-separated (a 10-minute soak: --seconds 600 --paces paced)",
    )  # fmt: skip
    review = commands.add_parser("review", help="review time per match, hints, dice odds")
    review.add_argument("--matches", type=int, default=3, help="per game (default 3)")
    tournament = commands.add_parser("tournament", help="a tournament night over loopback")
    tournament.add_argument("--players", type=int, default=16, help="default 16")
    tournament.add_argument("--game", default="mulino", help="GAME[:VARIANT] (default mulino)")
    tournament.add_argument(
        "--format", default="swiss", choices=("round-robin", "swiss", "knockout")
    )
    tournament.add_argument("--rounds", type=int, default=5, help="a Swiss's rounds (default 5)")
    tournament.add_argument("--level", default="easy", help="the players' level (default easy)")
    args = parser.parse_args(argv)
    if args.benchmark == "attract":
        from tools.benchmarks.attract import bench_attract

        if args.seconds <= 0:
            parser.error("--seconds must be positive")
        paces = tuple(args.paces.split(","))
        if not set(paces) <= {"paced", "paced-whole", "60-whole"}:
            parser.error("--paces takes paced, paced-whole and 60-whole")
        report = bench_attract(args.seconds, paces)
    elif args.benchmark == "engine":
        from tools.benchmarks.engine import bench_engine

        if args.seconds <= 0:
            parser.error("--seconds must be positive")
        report = bench_engine(args.seconds, args.seed)
    elif args.benchmark == "frames":
        try:
            size = tuple(int(n) for n in args.size.lower().split("x"))
            if len(size) != 2 or min(size) < 320:
                raise ValueError(args.size)
        except ValueError:
            parser.error("--size takes WIDTHxHEIGHT, each at least 320")
        from tools.benchmarks import frames as bench_frames

        if args.worker:
            report = bench_frames.worker(args.worker, args.repeat, size)
        else:
            report = bench_frames.bench_frames(args.repeat, size)
    elif args.benchmark == "net":
        from tools.benchmarks import hosting as bench_hosting
        from tools.benchmarks import net as bench_net

        if min(args.frames, args.matches, args.discovery_runs, args.decisions) < 1:
            parser.error("--frames, --matches, --discovery-runs and --decisions must be positive")
        if not 0 <= (args.socket_frames or 0) <= args.frames:
            parser.error("--socket-frames must be between 0 and --frames")
        if args.fuzz_only:
            fuzz = bench_net.fuzz(args.frames, over_sockets=args.socket_frames)
            report = {"benchmark": "net", "fuzz": fuzz}
        else:
            report = bench_net.bench_net(
                args.frames, args.matches, args.discovery_runs, args.socket_frames
            )
            report["hosting_frames"] = bench_hosting.bench_hosting(args.decisions)
    elif args.benchmark == "hosting":
        from tools.benchmarks import hosting as bench_hosting

        if args.decisions < 1:
            parser.error("--decisions must be positive")
        if args.worker:
            report = bench_hosting.worker(args.decisions)
        else:
            report = bench_hosting.bench_hosting(args.decisions)
    elif args.benchmark == "review":
        from tools.benchmarks.review import bench_review

        if args.matches < 1:
            parser.error("--matches must be positive")
        report = bench_review(args.matches)
    elif args.benchmark == "tournament":
        from tools.benchmarks.tournament import bench_tournament

        if args.players < 2 or args.rounds < 0:
            parser.error("--players must be at least 2 and --rounds not negative")
        report = bench_tournament(args.players, args.game, args.format, args.rounds, args.level)
    elif args.benchmark == "ai" and args.what == "adaptive":
        from tools.benchmarks.adaptive import bench_adaptive

        if not 1 <= args.judged <= args.matches:
            parser.error("--judged must be between 1 and --matches")
        report = bench_adaptive(args.matches, args.judged)
    elif args.benchmark == "ai" and args.what == "mcts":
        from tools.benchmarks.mcts import bench_mcts

        if min(args.games, args.workers, args.simulations) < 1:
            parser.error("--games, --workers and --simulations must be positive")
        report = bench_mcts(args.games, args.simulations, args.workers)
    elif args.benchmark == "ai" and args.what == "longer":
        from tools.benchmarks.longer import bench_longer

        name = (args.game or ["mulino:classic"])[0]
        if min(args.games, args.workers) < 1 or min(args.scale, args.budget) <= 0:
            parser.error("--games, --workers, --scale and --budget must be positive")
        if args.opening < 0 or not name.startswith("mulino:") or len(args.game or ()) > 1:
            parser.error("--opening must not be negative; --game takes one Mulino variant")
        report = bench_longer(
            args.games, args.scale, args.opening, args.workers,
            name, args.budget, args.weights, args.opponent_weights,
        )  # fmt: skip
    elif args.benchmark == "ai" and args.what == "ladder":
        from game.levels import RUNGS
        from game.rules import VARIANTS
        from tools.benchmarks.ladder import bench_ladder

        names = args.game or list(VARIANTS)
        if not set(names) <= set(VARIANTS) or min(args.games, args.workers) < 1:
            parser.error(f"--game takes {', '.join(VARIANTS)}; --games and --workers >= 1")
        if args.known and (len(names) != 1 or len(args.known) >= RUNGS - 1):
            parser.error(f"--known is for one --game and at most {RUNGS - 2} pairs")
        if any(sum(pair) != args.games for pair in args.known):
            parser.error("--known pairs must each total --games (the ladder stores one count)")
        report = bench_ladder(names, args.games, args.workers, args.write, args.known)
    elif args.benchmark == "ai":
        from tools.benchmarks.ai import bench_ai

        if args.endgame_positions < 1:
            parser.error("--endgame-positions must be positive")
        report = bench_ai(args.games, args.partial, args.only, args.endgame_positions)
    else:
        from tools.benchmarks.startup import bench_startup

        report = bench_startup(args.runs)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
