"""The drawing caches: bounded by count and by the bytes of their surfaces, least recently
used dropped first, so a kiosk's caches cannot grow past a known size at any resolution."""

from __future__ import annotations

import pygame

from game.client import sprites, theme
from game.client.surface_cache import SurfaceCache, cached_megabytes, surface_cache

MB = 2**20


def _square(side: int) -> pygame.Surface:
    return pygame.Surface((side, side), pygame.SRCALPHA)  # 4 bytes a pixel


def test_the_least_recently_used_go_first_when_the_count_is_reached() -> None:
    made: list[tuple] = []

    @surface_cache(entries=3, megabytes=100)
    def square(side: int, tag: str = "") -> pygame.Surface:
        made.append((side, tag))
        return _square(side)

    first = square(1)
    square(2), square(3)
    assert square(1) is first  # used again: now the most recent
    square(4)  # drops 2, the least recently used
    assert len(square) == 3 and len(made) == 4
    square(1), square(3), square(4)
    assert len(made) == 4  # all three still kept
    square(2)
    assert len(made) == 5
    square(1, tag="x"), square(1, "x")  # keyword and positional: kept apart, as lru_cache does
    assert len(made) == 7


def test_the_bytes_of_the_surfaces_are_bounded_too() -> None:
    cache = SurfaceCache(_square, entries=1000, megabytes=1)
    for side in range(100, 200):
        cache(side)
        assert cache.bytes <= MB
        assert cache.bytes == sum(s.get_pitch() * s.get_height() for s in cache._kept.values())
    assert 0 < len(cache) < 100
    huge = cache(1024)  # bigger than the whole budget: kept alone, not refused
    assert len(cache) == 1 and cache(1024) is huge
    cache.cache_clear()
    assert cache.bytes == 0 and len(cache) == 0


def test_the_game_draws_through_bounded_caches_and_says_what_they_hold() -> None:
    pygame.font.init()
    for cached in (theme.text, theme.fitted, sprites.sprite):
        assert isinstance(cached, SurfaceCache) and cached.limit <= 32 * MB
    theme.text.cache_clear()  # nothing to drop when the label comes in
    before = cached_megabytes()
    label = theme.text("a label seen once in this test", 40, (255, 255, 255))
    expected = label.get_pitch() * label.get_height() / MB
    assert abs(cached_megabytes() - before - expected) < 1e-9
