"""Short, seeded runs of the net benchmark's fuzz (the long one is ``bench.py net``): every
fuzzed frame ends accepted or refused with a reason — never in a crash — and no frame made
to be refused (a wrong signature, a replay, ``at`` or ``n`` wrong) is ever accepted, by the
match log in this process or by a real host over sockets, which goes on serving its match."""

import pytest

import net.matchlog
from net.testing.fuzz_host import fuzz_host
from net.testing.fuzz_log import fuzz_log

FORGERIES = {
    "author signature random", "author signature by another key", "author signature copied",
    "content changed under its signature", "made by an outsider", "a logged entry replayed",
    "signed for another match", "at ahead, re-signed", "at zero, re-signed",
    "at moved, signature kept", "n replayed, re-signed", "in another member's name",
    "signed over another head", "placing signature random", "placed by another key",
    "placed at another position", "placing signature copied", "placed in another match",
    "rules broken",
}  # fmt: skip


@pytest.mark.slow
def test_fuzzed_frames_never_crash_the_decoder_the_validation_or_the_log() -> None:
    report = fuzz_log(4000, seed=7)
    assert report["crashes"] == 0, report["crash_examples"]
    assert report["forgeries_accepted"] == 0, report["forgery_examples"]
    assert set(report["families"]) == {"mutated", "random", "schema", "forged"}
    assert set(report["forged_kinds"]) >= FORGERIES  # every way of forging was thrown
    refusals = " ".join(report["forged_outcomes"])
    assert "signature is not its author's" in refusals
    assert "a replayed or reordered entry" in refusals
    assert report["outcomes"]["accepted"] > 0  # honest and legitimately re-signed entries
    assert report["distinct_outcomes"] > 40  # the frames reach many different checks


def test_the_fuzz_counts_a_forgery_the_log_lets_through(monkeypatch) -> None:
    """The fuzz's own check: a match log that took every signature for good is caught."""
    monkeypatch.setattr(net.matchlog, "verify", lambda *_: True)
    report = fuzz_log(1000, seed=7)
    assert report["forgeries_accepted"] > 0


@pytest.mark.slow
def test_a_real_host_refuses_fuzzed_frames_and_plays_its_match_to_the_end() -> None:
    report = fuzz_host(600, seed=7)
    assert report["crashes"] == 0, report["crash_examples"]
    assert report["forgeries_accepted"] == 0, report["forgery_examples"]
    assert report["frames"] >= 600
    assert report["matches_finished_and_verified"] == report["rounds"] >= 1
    outcomes = " ".join(report["outcomes"])
    assert "a request must be its sender's own" in outcomes  # requests in a fellow's name
    assert "stranger" in outcomes and "player" in outcomes


def test_a_line_that_ended_its_writing_drops_what_is_sent_after_instead_of_raising() -> None:
    """A fuzzing player that ends its line (to make the host close it) may still owe a move
    or a die before the close arrives: sending it must not kill the player — asyncio raises
    on a write after the end, and the player's death stalled a long fuzz for good (its seat
    waited for it under ``--on-drop wait``)."""
    import asyncio

    from net.testing.clients import Line

    async def scenario() -> bytes:
        received = asyncio.Queue[bytes]()

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await received.put(await reader.read())  # everything until the end
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        line = await Line.open(port)
        line.send_raw(b"before")
        line.end_writing()
        line.send_raw(b"after")  # dropped, no RuntimeError
        data = await asyncio.wait_for(received.get(), 5)
        line.hang_up()
        server.close()
        await server.wait_closed()
        return data

    assert asyncio.run(scenario()) == b"before"
