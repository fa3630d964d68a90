"""Drawing caches bounded by the memory their surfaces hold, not only by their count.

Rendered labels and scaled sprites are made once and drawn every frame.  ``lru_cache`` bounds
how many it keeps, but a surface's size grows with the screen's: 512 labels are a few MB at
720p and tens at 4K.  A kiosk runs for weeks; each cache here keeps at most ``entries``
results and at most ``megabytes`` of pixels, dropping the least recently used first, so
what the drawing caches can hold is known (:func:`cached_megabytes`, which the soak
reports beside the process's memory).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import update_wrapper
from typing import Generic, ParamSpec

import pygame

P = ParamSpec("P")

_caches: list[SurfaceCache[...]] = []


class SurfaceCache(Generic[P]):
    """``function``'s surfaces by their arguments, least recently used dropped first."""

    def __init__(
        self,
        function: Callable[P, pygame.Surface],
        entries: int,
        megabytes: float,
        key: Callable[..., Hashable] | None = None,
    ) -> None:
        self.function = function
        self._key = key
        """What of the arguments tells results apart (default: all of them); an argument
        left out of it is not kept alive by the cache."""
        self.entries = entries
        self.limit = int(megabytes * 2**20)
        self.bytes = 0
        self._kept: OrderedDict[Hashable, pygame.Surface] = OrderedDict()
        update_wrapper(self, function)
        _caches.append(self)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> pygame.Surface:
        key = self.key(*args, **kwargs)
        surface = self._kept.get(key)
        if surface is not None:
            self._kept.move_to_end(key)
            return surface
        surface = self.function(*args, **kwargs)
        self._kept[key] = surface
        self.bytes += _size(surface)
        while len(self._kept) > 1 and (len(self._kept) > self.entries or self.bytes > self.limit):
            _, dropped = self._kept.popitem(last=False)
            self.bytes -= _size(dropped)
        return surface

    def cached(self, *args: P.args, **kwargs: P.kwargs) -> pygame.Surface | None:
        """The surface already made for these arguments, or None (nothing is made)."""
        return self._kept.get(self.key(*args, **kwargs))

    def key(self, *args: object, **kwargs: object) -> Hashable:
        if self._key is not None:
            return self._key(*args, **kwargs)
        return (args, tuple(sorted(kwargs.items()))) if kwargs else args

    def __len__(self) -> int:
        return len(self._kept)

    def cache_clear(self) -> None:
        self._kept.clear()
        self.bytes = 0


def surface_cache(
    entries: int, megabytes: float, key: Callable[..., Hashable] | None = None
) -> Callable[[Callable[P, pygame.Surface]], SurfaceCache[P]]:
    """Decorate a function that makes a surface from hashable arguments (or from those
    ``key`` picks out)."""

    def decorate(function: Callable[P, pygame.Surface]) -> SurfaceCache[P]:
        return SurfaceCache(function, entries, megabytes, key)

    return decorate


_looks = 0


def clear_caches() -> None:
    """Empty every drawing cache (what they hold was drawn in a look that has changed)."""
    global _looks
    _looks += 1
    for cache in _caches:
        cache.cache_clear()


def look() -> int:
    """Which look the caches hold (it changes whenever they are emptied): for a screen that
    keeps surfaces of its own from them, to know when to take them again."""
    return _looks


def cached_megabytes() -> float:
    """The pixels all drawing caches hold now (a surface two caches share counts twice)."""
    return sum(cache.bytes for cache in _caches) / 2**20


def limit_megabytes() -> float:
    """The most all drawing caches together may hold."""
    return sum(cache.limit for cache in _caches) / 2**20


def _size(surface: pygame.Surface) -> int:
    return surface.get_pitch() * surface.get_height()
