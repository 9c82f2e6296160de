"""The completed chunks of a run, kept as sorted ranges: the manifest stays a few lines long however many chunks
a run has (a billion-deal run has tens of thousands), and the chunks still to do are generated one at a time."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator


class ChunkSet:
    """A set of chunk numbers as sorted, disjoint, non-adjacent ``[start, stop)`` ranges."""

    def __init__(self, chunks: Iterable[int] = ()):
        self.ranges: list[list[int]] = []
        for c in chunks:
            self.add(c)

    @classmethod
    def from_json(cls, value) -> ChunkSet:
        """From a manifest: ``[[start, stop], ...]`` (format 2), or a plain list of chunk numbers (format 1)."""
        spans = []
        for item in value:
            pair = isinstance(item, (list, tuple))
            start, stop = (int(item[0]), int(item[1])) if pair else (int(item), int(item) + 1)
            if stop > start:
                spans.append([start, stop])
        out = cls()
        for start, stop in sorted(spans):
            if out.ranges and start <= out.ranges[-1][1]:
                out.ranges[-1][1] = max(out.ranges[-1][1], stop)
            else:
                out.ranges.append([start, stop])
        return out

    def to_json(self) -> list[list[int]]:
        return [list(r) for r in self.ranges]

    def add(self, chunk: int) -> None:
        chunk = int(chunk)
        i = bisect.bisect_right(self.ranges, [chunk, float("inf")]) - 1
        if i >= 0 and self.ranges[i][0] <= chunk < self.ranges[i][1]:
            return
        left = i >= 0 and self.ranges[i][1] == chunk
        right = i + 1 < len(self.ranges) and self.ranges[i + 1][0] == chunk + 1
        if left and right:
            self.ranges[i][1] = self.ranges[i + 1][1]
            del self.ranges[i + 1]
        elif left:
            self.ranges[i][1] = chunk + 1
        elif right:
            self.ranges[i + 1][0] = chunk
        else:
            self.ranges.insert(i + 1, [chunk, chunk + 1])

    def __contains__(self, chunk: int) -> bool:
        i = bisect.bisect_right(self.ranges, [int(chunk), float("inf")]) - 1
        return i >= 0 and self.ranges[i][0] <= chunk < self.ranges[i][1]

    def __len__(self) -> int:
        return sum(stop - start for start, stop in self.ranges)

    def __iter__(self) -> Iterator[int]:
        for start, stop in self.ranges:
            yield from range(start, stop)

    def missing(self, n_chunks: int) -> Iterator[int]:
        """The chunks ``0 .. n_chunks - 1`` not in the set when the iteration starts, in order, one at a time (the
        writers add chunks while a run iterates: the ranges are copied first, never read while they change)."""
        c = 0
        for start, stop in [tuple(r) for r in self.ranges]:
            yield from range(c, min(start, n_chunks))
            c = max(c, stop)
        yield from range(c, n_chunks)
