"""``python -m game.ai``: the computer players on stdin/stdout (docs/ENGINE_PROTOCOL.md).

One command per line; every answer is one or more lines.  A malformed command is answered
with ``error …`` and the engine keeps running.
"""

from __future__ import annotations

import sys
from typing import TextIO

from game.ai.analysis import analyse
from game.ai.odds import extra_roll_moves, roll_odds, turn_odds
from game.ai.players import choose
from game.levels import LADDER, LEVELS, canonical
from game.levels.table import measured
from game.rules import MatchRecord, RulesError, State, variant
from game.rules.ausgeblockt import AusgeblocktState, faces_text
from game.rules.numeri import NumeriState

NAME = "Tavolo engine 1"


class Engine:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.state: State | None = None
        self.seed = 0

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def handle(self, line: str) -> bool:
        """Answer one command; False once the engine should stop."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                return False
            handler = getattr(self, f"_cmd_{command}", None)
            if handler is None:
                raise RulesError(f"unknown command {command!r} (see docs/ENGINE_PROTOCOL.md)")
            handler(args)
        except RulesError as error:
            self.say(f"error {error}")
        return True

    def _cmd_hello(self, args: list[str]) -> None:
        self.say(f"id name {NAME}")
        self.say(f"levels {' '.join(LEVELS)}")
        self.say("hellook")

    def _cmd_isready(self, args: list[str]) -> None:
        self.say("readyok")

    def _cmd_position(self, args: list[str]) -> None:
        if not args:
            raise RulesError("position needs a game, e.g. position dama:classic moves 22-18")
        name, rest = args[0], args[1:]
        players, options, moves, setup = None, {}, [], None
        while rest:
            word = rest.pop(0)
            if word == "players" and rest:
                if not rest[0].isdigit():
                    raise RulesError(f"players takes a number, not {rest[0]!r}")
                players = int(rest.pop(0))
            elif word == "option" and rest and "=" in rest[0]:
                key, _, value = rest.pop(0).partition("=")
                options[key] = value
            elif word == "fen" and rest:
                setup = rest.pop(0)
            elif word == "moves":
                moves, rest = rest, []
            else:
                raise RulesError(f"position: unexpected {word!r}")
        chosen = variant(name, players, options)
        record = MatchRecord.from_notation(chosen, tuple(moves), setup)
        self.state = record.replay()

    def _cmd_seed(self, args: list[str]) -> None:
        if len(args) != 1 or not args[0].lstrip("-").isdigit():
            raise RulesError("seed takes one whole number")
        self.seed = int(args[0])

    def _cmd_legal(self, args: list[str]) -> None:
        state = self._position()
        actions = (
            [a for a, _ in state.chance_outcomes()] if state.is_chance() else state.legal_actions()
        )
        self.say("legal " + " ".join(state.action_to_str(a) for a in actions))

    def _cmd_go(self, args: list[str]) -> None:
        state = self._decision()
        hint = args[:1] == ["hint"]  # the match screen's Hint: hard's choice, named a hint
        if hint:
            args = args[1:]
        level, max_seconds, nodes = "hard", None, None
        pairs = list(zip(args[::2], args[1::2], strict=False))
        if len(args) % 2:
            raise RulesError("go takes pairs: level L, movetime MS, nodes N")
        for key, value in pairs:
            if key == "level" and not hint:
                level = _level(value)
            elif key == "movetime" and value.isdigit():
                max_seconds, nodes = int(value) / 1000, nodes or 50_000_000
            elif key == "nodes" and value.isdigit():
                nodes = int(value)
            else:
                raise RulesError(f"go: unexpected {key} {value}")
        decision = choose(
            state, level, self.seed, max_seconds=max_seconds, nodes=nodes, scored=True
        )
        self.say(
            f"info level {decision.level} depth {decision.depth} nodes {decision.nodes} "
            f"time {round(decision.seconds * 1000)} score {decision.score}"
        )
        self.say(f"{'hint' if hint else 'bestmove'} {state.action_to_str(decision.action)}")

    def _cmd_levels(self, args: list[str]) -> None:
        """The ladder, weakest first: each level's number and stored name, and its rating
        with the 95 % interval at the game given (or the position's) where measured."""
        if len(args) > 1:
            raise RulesError("levels takes nothing, or a game")
        game = args[0] if args else self.state.variant.name if self.state else None
        if game is not None:
            game = variant(game).name  # a game's short name is its first variant's
        ladder = measured().get(game) if game is not None else None
        for n, name in enumerate(LADDER):
            rating = ""
            if ladder is not None:
                low, mid, high = (round(v[n]) for v in (ladder.low, ladder.ratings, ladder.high))
                rating = f" rating {mid} low {low} high {high}"
            self.say(f"level {n + 1} {name}{rating}")
        self.say("levelsok")

    def _cmd_analyse(self, args: list[str]) -> None:
        state = self._decision()
        nodes = None
        if args:
            if len(args) != 2 or args[0] != "nodes" or not args[1].isdigit():
                raise RulesError("analyse takes nothing, or nodes N")
            nodes = int(args[1])
        for scored in analyse(state, nodes):
            self.say(f"analysis {state.action_to_str(scored.action)} score {scored.score}")
        self.say("analyseok")

    def _cmd_odds(self, args: list[str]) -> None:
        state = self._position()
        if isinstance(state, NumeriState):
            self._numeri_odds(state)
            return
        if not isinstance(state, AusgeblocktState):
            raise RulesError("odds are for the dice games, Ausgeblockt and Numeri")
        odds = turn_odds(state)
        if odds is None:
            raise RulesError("no dice to keep or roll now: odds come before a roll or a keep")
        ranked = sorted(odds.by_keep.items(), key=lambda item: (-item[1].mark, item[0]))
        for kept, chances in ranked:
            self.say(f"odds keep {_kept(kept)} mark {chances.mark:.6f} quad {chances.quad:.6f}")
        best = odds.best
        self.say(
            f"oddsok best mark {best.mark:.6f} keep {_kept(odds.best_keep_for_mark)} "
            f"quad {best.quad:.6f} keep {_kept(odds.best_keep_for_quad)}"
        )

    def _numeri_odds(self, state: NumeriState) -> None:
        """Before a roll: each face and the moves it allows that earn an extra roll, and the
        chance of one; once the die shows: whether each legal move earns one."""
        if state.is_terminal():
            raise RulesError(f"the game is over: {state.result()}")
        odds = roll_odds(state)
        if odds is not None:
            for face, moves in odds.by_face.items():
                face_text = state.action_to_str(face)
                rolled = state.apply(face)
                listed = " ".join(rolled.action_to_str(m) for m in moves) or "-"
                self.say(f"odds face {face_text} extra {listed}")
            self.say(f"oddsok extra {odds.extra:.6f}")
            return
        if state.is_chance():
            raise RulesError("the lot of who begins is pending: odds come with the die")
        earning = extra_roll_moves(state)
        for action in state.legal_actions():
            self.say(f"odds move {state.action_to_str(action)} extra {int(action in earning)}")
        self.say(f"oddsok moves {len(earning)}")

    def _decision(self) -> State:
        """The position, which must wait for a decision (not over, no chance pending)."""
        state = self._position()
        if state.is_terminal():
            raise RulesError(f"the game is over: {state.result()}")
        if state.is_chance():
            raise RulesError("a chance event is pending: give its outcome with the moves")
        return state

    def _position(self) -> State:
        if self.state is None:
            raise RulesError("no position yet: send position GAME[:VARIANT] [moves ...]")
        return self.state


def _level(value: str) -> str:
    """A level of the ladder as ``go`` takes it: its number (1-8) or stored name."""
    try:
        return canonical(value)
    except ValueError as error:
        raise RulesError(str(error)) from None


def _kept(faces: tuple[int, ...]) -> str:
    """Dice kept, as the notation writes faces (``-``: none, all are rolled)."""
    return faces_text(faces) or "-"


def main(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    engine = Engine(stdout)
    for line in stdin:
        try:
            if not engine.handle(line):
                break
        except Exception as error:  # the engine must outlive any one command
            engine.say(f"error internal: {type(error).__name__}: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
