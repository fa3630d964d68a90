"""The endgame tables (game/ai/endgames): what they say agrees with the rules engine — one
move ahead on sampled positions, by a direct search where it can reach the end, and, for the
smallest Dama endgames, by solving them again here from the rules alone — and *hard*, which
plays them, converts won endgames in exactly the tables' distance."""

from __future__ import annotations

import io
import logging
import random

import pytest

from game.ai import endgames
from game.ai.__main__ import Engine
from game.ai.analysis import analyse
from game.ai.endgames import LOSS, WIN, Verdict, probe
from game.ai.endgames import dama as dama_tables
from game.ai.endgames import mulino as mulino_tables
from game.ai.endgames.codes import verdict_of
from game.ai.endgames.samples import random_dama, random_mulino
from game.ai.endgames.store import load
from game.ai.players import choose
from game.ai.review import FORCED, review
from game.ai.search import WIN as SEARCH_WIN
from game.rules import MatchRecord, State, variant
from game.rules.checkerboard import squares_of
from game.rules.dama import DamaState
from game.rules.fen import fen_of
from game.rules.mulino import MOVE_BASE, NORMAL, POINTS, MulinoState


def _after(state: State, action: int) -> Verdict:
    """What ``action`` leads to for the side playing it, by the rules and the tables."""
    child, side = state.apply(action), state.to_move
    result = child.result()
    if result is not None:
        return verdict_of(result, side, 1)
    found = probe(child)
    assert found is not None, f"no table for {child}"
    return found.later() if child.to_move == side else found.flipped()


def _children_verdict(state: State) -> Verdict:
    """The best the side to act can reach in one action, the rest told by the tables."""
    return max((_after(state, a) for a in state.legal_actions()), key=lambda v: v.preference)


def _searched(state: State, depth: int) -> Verdict | None:
    """The value by plain minimax over the rules, when every line is decided within
    ``depth`` plies (None otherwise): no table is asked."""
    if depth == 0:
        return None
    side, wins, losses, undecided = state.to_move, [], [], False
    for action in state.legal_actions():
        child = state.apply(action)
        result = child.result()
        if result is not None:
            verdict = verdict_of(result, side, 1)
        else:
            found = _searched(child, depth - 1)
            if found is None:
                undecided = True
                continue
            verdict = found.later() if child.to_move == side else found.flipped()
        if verdict.outcome == WIN:
            wins.append(verdict.plies)
        elif verdict.outcome == LOSS:
            losses.append(verdict.plies)
        else:
            undecided = True
    if wins:
        return Verdict(WIN, min(wins))
    if undecided:
        return None
    return Verdict(LOSS, max(losses))


@pytest.mark.parametrize("name", ["mulino:classic", "mulino:ceylonese"])
@pytest.mark.parametrize("size", mulino_tables.SIZES)
def test_mulino_tables_agree_with_the_rules_one_move_ahead(name: str, size) -> None:
    rng = random.Random(f"{name}{size}")
    for _ in range(120):
        state = random_mulino(name, rng, *size)
        assert probe(state) == _children_verdict(state), state


@pytest.mark.parametrize("name", ["dama:classic", "dama:mangia"])
def test_dama_tables_agree_with_the_rules_one_move_ahead(name: str) -> None:
    rng = random.Random(name)
    for signature in dama_tables.SIGNATURES:
        for _ in range(12):
            state = random_dama(name, rng, signature)
            assert probe(state) == _children_verdict(state), (signature, state)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "depth", "short_ones"),
    # Three flying against four never ends within 3 plies (the tables' shortest is a win in
    # 11): there the search must agree that nothing is decided.
    [((3, 3), 2, 5), ((4, 3), 3, 5), ((3, 4), 3, 0)],
)
def test_mulino_tables_agree_with_a_direct_search(size, depth: int, short_ones: int) -> None:
    """Positions the tables say end within the search's reach get exactly that value from
    the search; for the others the search finds nothing shorter."""
    rng = random.Random(f"search{size}")
    sample = [random_mulino("mulino:classic", rng, *size) for _ in range(400)]
    verdicts = [probe(state) for state in sample]
    short = [s for s, v in zip(sample, verdicts, strict=True) if v.outcome and v.plies <= depth]
    long = [s for s, v in zip(sample, verdicts, strict=True) if not v.outcome or v.plies > depth]
    assert len(short) >= short_ones and len(long) >= 5
    for state in short[:10]:
        assert _searched(state, depth) == probe(state), state
    for state in long[:10]:
        assert _searched(state, depth) is None, (state, probe(state))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["dama:classic", "dama:mangia"])
def test_dama_tables_agree_with_a_direct_search(name: str) -> None:
    rng = random.Random(f"search{name}")
    decided = 0
    for signature in [s for s in dama_tables.SIGNATURES if sum(s) <= 3]:
        for _ in range(6):
            state = random_dama(name, rng, signature)
            table, searched = probe(state), _searched(state, 4)
            assert table is not None
            if table.outcome and table.plies <= 4:
                assert searched == table, state
                decided += 1
            else:
                assert searched is None, (state, table, searched)
    assert decided > 10


@pytest.mark.slow
@pytest.mark.parametrize("name", ["dama:classic", "dama:mangia"])
def test_two_piece_dama_solved_again_from_the_rules_alone_matches_every_entry(name: str) -> None:
    """Every position with one piece each, solved here by iterating the rules' own moves to
    a fixed point: the tables must hold exactly these values."""
    states = {}
    for signature in [s for s in dama_tables.SIGNATURES if sum(s) == 2]:
        a, _, c, _ = signature
        for mine in range(32):
            for theirs in range(32):
                if mine == theirs or (a and mine < 4) or (c and theirs >= 28):
                    continue
                for side in (0, 1):
                    own = (mine if side == 0 else 31 - mine, theirs if side == 0 else 31 - theirs)
                    men = [0, 0]
                    kings = [0, 0]
                    (men if a else kings)[side] |= 1 << own[0]
                    (men if c else kings)[1 - side] |= 1 << own[1]
                    state = DamaState.from_pieces(variant(name), tuple(men), tuple(kings), side)
                    states[state.men, state.kings, state.side] = state
    values: dict[tuple, Verdict | None] = dict.fromkeys(states)
    for _ in range(60):  # longer than any two-piece game
        changed = False
        for key, state in states.items():
            verdict = _value_from(state, values)
            if verdict != values[key]:
                values[key], changed = verdict, True
        if not changed:
            break
    for key, state in states.items():
        if state.result() is None:  # the finished ones are the rules' to tell, not the tables'
            assert probe(state) == (values[key] or Verdict(0)), state


def _value_from(state: DamaState, values: dict) -> Verdict | None:
    """One step of value iteration: the best verdict the known children give, None (not yet
    known) while a child that might matter is unknown."""
    if state.result() is not None:
        return verdict_of(state.result(), state.side, 0)
    side, best, unknown = state.side, None, False
    for action in state.legal_actions():
        child = state.apply(action)
        result = child.result()
        if result is not None and child.men[1 - side] | child.kings[1 - side] == 0:
            verdict = verdict_of(result, side, 1)
        else:
            known = values.get((child.men, child.kings, child.side))
            if known is None:
                unknown = True
                continue
            verdict = known.flipped()
        if best is None or verdict.preference > best.preference:
            best = verdict
    if best is not None and best.outcome == WIN:
        return best
    return None if unknown or best is None else best


def _longest_win(candidates, at_least: int):
    found = [(probe(s).plies, i, s) for i, s in enumerate(candidates)]
    wins = [f for f in found if probe(f[2]).outcome == WIN and f[0] >= at_least]
    assert wins, "no long enough win in the sample"
    return max(wins)[2]


def _play_out(state: State, tables_for: set[int]) -> tuple[State, int]:
    plies = 0
    while not state.is_terminal():
        seat = state.to_move
        state = state.apply(choose(state, "hard", seed=plies, endgames=seat in tables_for).action)
        plies += 1
    return state, plies


def test_hard_wins_a_won_three_against_three_mulino_in_the_tables_distance() -> None:
    rng = random.Random("convert mulino")
    start = _longest_win([random_mulino("mulino:classic", rng, 3, 3) for _ in range(400)], 9)
    distance, winner = probe(start).plies, start.to_move
    end, plies = _play_out(start, {0, 1})
    assert end.result().winners() == (winner,)
    assert plies == distance  # both sides perfect: the winner hurries, the loser delays


def test_hard_wins_a_won_king_endgame_in_dama_in_the_tables_distance() -> None:
    rng = random.Random("convert dama")
    start = _longest_win([random_dama("dama:classic", rng, (0, 3, 0, 1)) for _ in range(400)], 9)
    distance, winner = probe(start).plies, start.to_move
    end, plies = _play_out(start, {0, 1})
    assert end.result().winners() == (winner,)
    assert plies == distance


def test_a_position_outside_the_tables_is_left_to_the_search() -> None:
    state = MulinoState.setup(variant("mulino:classic"), "a1 d1 g1 b2 d2", "a7 d7 g7 b6")
    assert probe(state) is None
    placing = MulinoState.setup(variant("mulino:classic"), "a1 d1", "a7 d7", hand=(1, 1))
    assert probe(placing) is None
    huffing = DamaState.from_pieces(
        variant("dama:classic", options={"huffing": True}), (1 << 20, 0), (0, 1 << 3)
    )
    assert probe(huffing) is None


def test_a_missing_or_damaged_table_leaves_the_computer_playing_by_search(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    assert load("ai/no-such-table.xz", 10) is None
    assert load("ai/lupo.bin", 10) is None  # not lzma: reported, not raised
    monkeypatch.setitem(mulino_tables.ASSETS, "mulino:classic", "ai/no-such-table.xz")
    state = MulinoState.setup(variant("mulino:classic"), "a1 d1 b2", "a7 d7 g7")
    with caplog.at_level(logging.WARNING):
        assert endgames.probe(state) is None
        decision = choose(state, "hard", seed=1)
    assert decision.action in state.legal_actions()
    assert "playing by search alone" in caplog.text


def test_the_review_judges_endgame_moves_by_the_tables() -> None:
    """3 against 3, won for the side to move: the analysis the review and the hint stand on
    puts the tables' fastest win first, as a forced win, and a move that throws the win away
    last, as a forced loss (which the review labels a blunder that misses the win)."""
    rng = random.Random("review endgame")
    for _ in range(200):
        state = random_mulino("mulino:classic", rng, 3, 3)
        won = probe(state)
        if won.outcome != WIN or won.plies < 5:
            continue
        losing = [a for a in state.legal_actions() if _after(state, a).outcome == LOSS]
        if losing:
            break
    else:
        pytest.fail("no won position with a losing move in the sample")
    scored = {s.action: s.score for s in analyse(state)}
    best = max(scored, key=scored.get)
    assert scored[best] >= FORCED and _after(state, best) == won
    assert scored[losing[0]] <= -FORCED


def test_table_indices_cover_every_entry_once() -> None:
    assert sum(mulino_tables.table_size(*s) for s in mulino_tables.SIZES) == mulino_tables.TOTAL
    seen = {dama_tables.index(1 << 4, 0, 1 << 0, 0), dama_tables.index(1 << 31, 0, 1 << 27, 0)}
    assert seen == {0, 27 * 28 + 27}
    assert squares_of(dama_tables.rotate(1 | 1 << 5)) == (26, 31)


def test_a_result_the_quiet_ply_rule_could_overturn_is_left_to_the_search() -> None:
    """Dama: the last ply of a win (a capture, or a move that leaves no reply) decides the
    game before any draw is called, so a win whose last ply is the 80th quiet one stands; one
    ply later the rule could overturn it, and the search is asked instead."""
    rng = random.Random("quiet")
    state = _longest_win([random_dama("dama:classic", rng, (0, 3, 0, 1)) for _ in range(200)], 9)
    distance = probe(state).plies
    fields = state.to_fields()
    fields[4] = 81 - distance  # the win would end on the 81st quiet ply
    late = DamaState.from_fields(state.variant, fields)
    assert probe(late) is None
    fields[4] = 80 - distance  # on the 80th: the 79th is the last one judged
    in_time = DamaState.from_fields(state.variant, fields)
    assert probe(in_time) == probe(state)
    end, plies = _play_out(in_time, {0, 1})
    assert end.result().winners() == (state.to_move,) and plies == distance


def test_a_three_piece_mulino_win_may_close_its_last_mill_on_the_hundredth_quiet_ply() -> None:
    """RULES.md rev. 3: the quiet plies are judged at the end of a turn.  A win over three
    pieces (which fly, so are never blocked) ends with a removal, and the mill closed just
    before it may be the 100th quiet ply: the tables' verdict stands until then, and the
    game played out from there is won in the tables' distance."""
    rng = random.Random("quiet mulino")
    state = _longest_win([random_mulino("mulino:classic", rng, 3, 3) for _ in range(400)], 9)
    distance = probe(state).plies
    fields = state.to_fields()
    fields[4] = 101 - distance  # the last mill closes on the 100th quiet ply
    in_time = MulinoState.from_fields(state.variant, fields)
    assert probe(in_time) == probe(state)
    end, plies = _play_out(in_time, {0, 1})
    assert end.result().winners() == (state.to_move,) and plies == distance
    assert end.result().reason == "pieces"
    fields[4] = 102 - distance  # now a quiet ply before that mill would end a turn on 100
    assert probe(MulinoState.from_fields(state.variant, fields)) is None


def _reversed(action: int) -> int:
    """A Mulino move played backwards."""
    start, to = divmod(action - MOVE_BASE, 24)
    return MOVE_BASE + 24 * to + start


def _win_through_a_position_seen_twice() -> tuple[MulinoState, int]:
    """A real match, 3 against 3 after placing: from a set-up position ``P`` both sides
    move and move back, twice, so that ``P`` stands in the history twice when the match
    reaches ``S``, which the tables call won in at least 5 plies, with the fastest win
    ``move`` — after which the loser goes back to ``P`` (its third time): a draw.  Returns
    ``S`` and ``move``."""
    rng = random.Random("repeat")
    for _ in range(2000):
        state = random_mulino("mulino:classic", rng, 3, 3)
        won = probe(state)
        if won.outcome != WIN or won.plies < 5:
            continue
        for move in state.legal_actions():
            after = state.apply(move)
            if after.stage != NORMAL or probe(after) != Verdict(LOSS, won.plies - 1):
                continue
            for reply in after.legal_actions():
                seen = after.apply(reply)
                if seen.stage != NORMAL or seen.is_terminal():
                    continue
                white, black = (
                    " ".join(POINTS[p] for p in range(24) if men >> p & 1) for men in seen.men
                )
                match = MulinoState.setup(state.variant, white, black, side=seen.side)
                back, forth = [_reversed(move), _reversed(reply)], [move, reply]
                for action in back + forth + back:
                    if action not in match.legal_actions():
                        break
                    match = match.apply(action)
                    if match.stage != NORMAL or match.is_terminal():
                        break
                else:
                    assert match.men == state.men and match.side == state.side
                    return match, move
    raise AssertionError("no such position in the sample")


@pytest.mark.slow  # searches at hard: seconds
def test_a_table_win_whose_line_repeats_a_position_seen_twice_is_not_reported() -> None:
    """RULES.md rev. 3: repetition counts the whole match, table verdicts included.  The
    tables' fastest win lets the loser repeat a position the match has seen twice: neither
    the analysis nor the hint may call that move (or the position, unless the search plays
    a win out) a forced win."""
    state, move = _win_through_a_position_seen_twice()
    after = state.apply(move)
    escape = [a for a in after.legal_actions() if after.apply(a).result() is not None]
    assert escape and after.apply(escape[0]).result().reason == "repetition"
    assert probe(after) is None  # the tables' loss there is no loss: the search decides
    scores = {scored.action: scored.score for scored in analyse(state)}
    assert scores[move] < FORCED
    hint = choose(state, "hard", seed=1)
    assert hint.action != move
    if hint.score >= FORCED:  # a win the search found past the repetition: it must be real
        end, _ = _play_out(state.apply(hint.action), {0, 1})
        assert end.result().winners() == (state.to_move,)


def _only_moves(name: str, seed: str, wanted: int) -> list[DamaState]:
    """Table positions of Dama with one legal move (a forced capture, mostly) that the
    tables call won or lost."""
    rng, found = random.Random(seed), []
    signatures = [s for s in dama_tables.SIGNATURES if sum(s) >= 3]
    while len(found) < wanted:
        state = random_dama(name, rng, rng.choice(signatures))
        if len(state.legal_actions()) == 1 and probe(state).outcome:
            found.append(state)
    return found


def _table_score(state: State) -> int:
    """The score the tables give the side to act: ±(100000 less the plies to the end)."""
    verdict = probe(state)
    return verdict.outcome * (SEARCH_WIN - verdict.plies)


def test_an_only_move_is_scored_by_the_tables_not_zero() -> None:
    """Issue 29's position (White man on 26, Black king on 12, Black to move: won in 1 ply)
    and a sample of forced moves: analyse, go and the review score them as the tables do."""
    issue = MatchRecord.from_notation(variant("dama:classic"), (), "B:W26:BK12").replay()
    assert [(s.action, s.score) for s in analyse(issue)] == [
        (issue.parse_action("12x30"), SEARCH_WIN - 1)
    ]
    engine = Engine(io.StringIO())
    engine.handle("position dama:classic fen B:W26:BK12")
    engine.handle("analyse")
    engine.handle("go")
    said = engine.out.getvalue()
    assert "analysis 12x30 score 99999" in said and "score 99999\nbestmove 12x30" in said
    for name in ("dama:classic", "dama:mangia"):
        for state in _only_moves(name, f"only {name}", 12):
            (scored,) = analyse(state)
            assert scored.score == _table_score(state), state
            assert choose(state, "hard", seed=1, scored=True).score == _table_score(state)


def test_the_review_scores_a_forced_capture_by_the_tables() -> None:
    """The advantage the review draws does not drop to 0 at a forced capture: a won
    endgame with only moves along it keeps its table value at every state."""
    state = next(s for s in _only_moves("dama:classic", "review only", 40) if probe(s).plies >= 3)
    line, end = [], state
    while not end.is_terminal():
        best = max(
            end.legal_actions(),
            key=lambda a: (_after(end, a).preference, -a),
        )
        line.append(end.action_to_str(best))
        end = end.apply(best)
    record = MatchRecord.from_notation(state.variant, line, fen_of(state))
    found = review(record, {0, 1})
    for index, now in enumerate(record.states()):
        if now.is_terminal():
            break
        first_seat = _table_score(now) if now.to_move == 0 else -_table_score(now)
        assert found.advantage[index] == first_seat, (index, line)
    assert all(j.label == "best" for j in found.decisions)


def test_the_review_names_an_endgame_result_given_away_by_the_tables() -> None:
    rng = random.Random("given away")
    kinds = set()
    for _ in range(3000):
        state = random_dama("dama:classic", rng, (0, 2, 0, 1))
        won = probe(state)
        if won.outcome != WIN:
            continue
        for action in state.legal_actions():
            after = _after(state, action)
            if (
                after.outcome < WIN
                and ("won_to_drawn" if after.outcome == 0 else "won_to_lost") not in kinds
            ):
                record = MatchRecord.from_notation(
                    state.variant, [state.action_to_str(action)], fen_of(state)
                )
                (judged,) = review(record, {state.to_move}).decisions
                expected = "won_to_drawn" if after.outcome == 0 else "won_to_lost"
                assert (judged.label, judged.reason) == ("blunder", expected)
                assert _after(state, state.parse_action(judged.reason_move)).outcome == WIN
                kinds.add(expected)
        if len(kinds) == 2:
            return
    pytest.fail(f"only {kinds} found in the sample")
