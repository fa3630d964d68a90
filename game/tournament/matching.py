"""Maximum cardinality matching in a general graph (Edmonds' blossom algorithm).

The Swiss pairing asks one question many times: *can these players still all be paired*,
given who may meet whom? That is whether the graph of allowed pairs has a perfect
matching. Players of one score group may form odd cycles of allowed pairs, so a bipartite
matching is not enough: Edmonds' algorithm shrinks such cycles (blossoms) while it looks
for augmenting paths. O(V³), a millisecond or so for the 64 players a tournament may have.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def maximum_matching(adjacent: Sequence[Sequence[int]]) -> list[int]:
    """A maximum matching of the graph whose vertex ``v`` is joined to ``adjacent[v]``:
    ``mate[v]`` is the vertex matched to ``v``, or -1.  The graph must be undirected
    (``w in adjacent[v]`` exactly when ``v in adjacent[w]``)."""
    n = len(adjacent)
    mate = [-1] * n
    for v in range(n):  # a greedy start: most vertices are matched without any search
        if mate[v] == -1:
            for w in adjacent[v]:
                if mate[w] == -1 and w != v:
                    mate[v], mate[w] = w, v
                    break
    for root in range(n):
        if mate[root] == -1:
            end, parent = _augmenting_path(adjacent, mate, root)
            while end != -1:  # flip the path's edges in and out of the matching
                before = parent[end]
                after = mate[before]
                mate[end], mate[before] = before, end
                end = after
    return mate


def has_perfect_matching(adjacent: Sequence[Sequence[int]]) -> bool:
    """Whether every vertex can be matched at once."""
    if len(adjacent) % 2:
        return False
    return all(m != -1 for m in maximum_matching(adjacent))


def _augmenting_path(
    adjacent: Sequence[Sequence[int]], mate: list[int], root: int
) -> tuple[int, list[int]]:
    """A free vertex reached from the free ``root`` by an alternating path, and the parent
    links to walk it back; (-1, …) when there is none."""
    n = len(adjacent)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, stop: int, child: int, blossom: list[bool]) -> None:
        while base[v] != stop:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in adjacent[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                shared = common_base(v, to)
                blossom = [False] * n
                mark(v, shared, to, blossom)
                mark(to, shared, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = shared
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to, parent
                used[mate[to]] = True
                queue.append(mate[to])
    return -1, parent
