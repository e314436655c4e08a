"""Search structures for big state graphs, in numpy: seen-sets, deduplication, reverse edges.

A search numbers each state by an integer key. ``Bitmap`` remembers which keys were seen with
one bit each (for key spaces that fit the memory budget); ``DenseIndex`` maps keys to state
ids with an array over the whole key space; ``HashIndex`` does the same for any key space,
with memory in proportion to the states found. ``first_of_each`` deduplicates a batch of keys
by scattering their positions into a small hash table, so no batch is ever sorted.

The drivers' moves-to-go table and the distance-to-go field both search backwards from the
finish. ``ReverseEdges`` sorts the edges once by destination (as packed 64-bit numbers, which
numpy sorts far faster than it argsorts), so "every source with an edge into these states" is
a pair of binary searches and a gather, with no Python loop over states.
"""

from __future__ import annotations

import numpy as np

_MIX = np.uint64(0x9E3779B97F4A7C15)
EMPTY = np.uint64(np.iinfo(np.uint64).max)


def _hash(keys: np.ndarray, bits: int, salt: int = 0) -> np.ndarray:
    """A multiplicative hash of 64-bit keys to ``bits`` bits."""
    mixed = (keys.astype(np.uint64) + np.uint64(salt * 0x632BE59BD9B4E019 & (2**64 - 1))) * _MIX
    return (mixed >> np.uint64(64 - bits)).astype(np.int64)


def first_of_each(keys: np.ndarray) -> np.ndarray:
    """Positions of one occurrence of each distinct key (increasing), without sorting: the
    positions are scattered into a hash table twice the batch's size; where two different keys
    share a slot, the loser tries again with another hash."""
    n = len(keys)
    if n < 2:
        return np.arange(n)
    bits = max(4, int(2 * n - 1).bit_length())
    slots = np.full(1 << bits, -1, dtype=np.int64)
    pending = np.arange(n)
    found = []
    salt = 0
    while len(pending):
        h = _hash(keys[pending], bits, salt)
        slots[h] = pending
        winner = slots[h]
        found.append(pending[winner == pending])
        # The others are copies of the winner's key, or a different key that lost the slot.
        pending = pending[keys[winner] != keys[pending]]
        slots[h] = -1
        salt += 1
    result = np.concatenate(found)
    result.sort()
    return result


class Bitmap:
    """Seen keys, one bit each, over a key space of known size."""

    def __init__(self, space: int):
        self.bits = np.zeros((space + 7) // 8, dtype=np.uint8)

    @property
    def nbytes(self) -> int:
        return self.bits.nbytes

    def seen(self, keys: np.ndarray) -> np.ndarray:
        return ((self.bits[keys >> 3] >> (keys & 7).astype(np.uint8)) & 1).astype(bool)

    def add(self, keys: np.ndarray, ids: np.ndarray | None = None) -> None:
        np.bitwise_or.at(self.bits, keys >> 3, (1 << (keys & 7)).astype(np.uint8))


class DenseIndex:
    """State ids by key, in one array over the whole key space (-1: not seen)."""

    def __init__(self, space: int):
        self.ids = np.full(space, -1, dtype=np.int32)

    @property
    def nbytes(self) -> int:
        return self.ids.nbytes

    def seen(self, keys: np.ndarray) -> np.ndarray:
        return self.ids[keys] >= 0

    def add(self, keys: np.ndarray, ids: np.ndarray | None = None) -> None:
        assert ids is not None
        self.ids[keys] = ids

    def find(self, keys: np.ndarray) -> np.ndarray:
        return self.ids[keys]


class HashIndex:
    """State ids by key in an open-addressing hash table that grows with the states found."""

    def __init__(self, capacity: int = 1 << 16):
        bits = max(4, int(capacity - 1).bit_length())
        self._allocate(bits)
        self.count = 0

    def _allocate(self, bits: int) -> None:
        self.bits = bits
        self.keys = np.full(1 << bits, EMPTY, dtype=np.uint64)
        self.values = np.full(1 << bits, -1, dtype=np.int32)

    @property
    def nbytes(self) -> int:
        return self.keys.nbytes + self.values.nbytes

    def find(self, keys: np.ndarray) -> np.ndarray:
        """The id of each key, -1 where it was never added."""
        keys = keys.astype(np.uint64)
        result = np.full(len(keys), -1, dtype=np.int32)
        mask = (1 << self.bits) - 1
        pending = np.arange(len(keys))
        h = _hash(keys, self.bits)
        while len(pending):
            there = self.keys[h]
            hit = there == keys[pending]
            result[pending[hit]] = self.values[h[hit]]
            more = ~hit & (there != EMPTY)
            pending, h = pending[more], (h[more] + 1) & mask
        return result

    def seen(self, keys: np.ndarray) -> np.ndarray:
        return self.find(keys) >= 0

    def add(self, keys: np.ndarray, ids: np.ndarray | None = None) -> None:
        """Add distinct keys not yet in the table, with their ids."""
        assert ids is not None
        if 2 * (self.count + len(keys)) > (1 << self.bits):
            self._grow(self.count + len(keys))
        self._place(keys.astype(np.uint64), ids.astype(np.int32))
        self.count += len(keys)

    def _place(self, keys: np.ndarray, ids: np.ndarray) -> None:
        mask = (1 << self.bits) - 1
        h = _hash(keys, self.bits)
        pending = np.arange(len(keys))
        while len(pending):
            free = self.keys[h] == EMPTY
            # Of the keys wanting one free slot, one takes it; the rest probe on.
            want = pending[free]
            self.keys[h[free]] = keys[want]
            took = self.keys[h] == keys[pending]
            self.values[h[took]] = ids[pending[took]]
            pending, h = pending[~took], (h[~took] + 1) & mask

    def _grow(self, needed: int) -> None:
        old_keys, old_values = self.keys, self.values
        bits = self.bits
        while (1 << bits) < 2 * needed:
            bits += 1
        self._allocate(bits)
        used = old_keys != EMPTY
        self._place(old_keys[used], old_values[used])


class ReverseEdges:
    """Edges sorted by destination, for finding the sources that lead into given states.

    Edges with small weights and ids under 2**28 (every search this game makes) are sorted as
    one packed 64-bit number each: destination, weight, source."""

    def __init__(self, sources: np.ndarray, destinations: np.ndarray,
                 weights: np.ndarray | None = None):
        small = len(sources) == 0 or (max(int(sources.max()), int(destinations.max())) < 2**28
                                      and (weights is None or (int(weights.min()) >= 0
                                                               and int(weights.max()) < 16)))
        if not small:
            order = np.argsort(destinations, kind="stable")
            self.destinations = destinations[order]
            self.sources = sources[order]
            self.weights = weights[order] if weights is not None else None
            return
        packed = (destinations.astype(np.uint64) << np.uint64(32)) | sources.astype(np.uint64)
        if weights is not None:
            packed |= weights.astype(np.uint64) << np.uint64(28)
        packed.sort()
        self.destinations = (packed >> np.uint64(32)).astype(np.int64)
        low = packed & np.uint64(0xFFFFFFFF)
        self.sources = (low & np.uint64(2**28 - 1)).astype(np.int64)
        self.weights = (low >> np.uint64(28)).astype(np.int64) if weights is not None else None

    def index_states(self, count: int) -> None:
        """Prepare for ``into`` over states 0..count-1 with one array of offsets (a lookup per
        state instead of two binary searches)."""
        self._offsets = np.searchsorted(self.destinations, np.arange(count + 1))

    def into(self, states: np.ndarray) -> np.ndarray:
        """Positions (in the sorted edge arrays) of every edge ending in one of ``states``."""
        offsets = getattr(self, "_offsets", None)
        if offsets is not None:
            lo, hi = offsets[states], offsets[states + 1]
        else:
            lo = np.searchsorted(self.destinations, states, "left")
            hi = np.searchsorted(self.destinations, states, "right")
        counts = hi - lo
        total = int(counts.sum())
        if not total:
            return np.empty(0, dtype=np.int64)
        offsets = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        return np.arange(total) + offsets
