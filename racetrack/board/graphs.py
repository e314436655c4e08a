"""Search structures for big state graphs, in numpy: seen-sets, deduplication, reverse edges.

A search numbers each state by an integer key. ``Bitmap`` remembers which keys were seen with
one bit each (for key spaces that fit the memory budget); ``DenseIndex`` maps keys to state
ids with an array over the whole key space; ``HashIndex`` does the same for any key space,
with memory in proportion to the states found (its probes run in the compiled kernel where
it is built). ``LeastValues`` and ``DenseLeastValues`` keep the least value seen per key (the
farthest-on exit of a detour), hashed or in one array; where they decide what was seen,
``Unindexed`` stands in for the seen-set. ``first_of_each`` deduplicates a batch of keys
by scattering their positions into a small hash table, so no batch is ever sorted.

The drivers' moves-to-go table and the distance-to-go field both search backwards from the
finish. ``ReverseEdges`` sorts the edges once by destination (as packed 64-bit numbers, which
numpy sorts far faster than it argsorts), so "every source with an edge into these states" is
a pair of binary searches and a gather, with no Python loop over states; the edges without a
flag (the careful driver's, that never crash) are a mask of the same sorted numbers.
"""

from __future__ import annotations

import sys

import numpy as np

from racetrack.board import kernel

_MIX = np.uint64(0x9E3779B97F4A7C15)
EMPTY = np.uint64(np.iinfo(np.uint64).max)
# Where a packed edge keeps its destination and its flag (its weight is in bits 32 to 35).
_DESTINATION, _FLAG = 37, 36
# Which of a 64-bit number's two 32-bit words holds its low bits.
_LOW_WORD = 0 if sys.byteorder == "little" else 1


def _hash(keys: np.ndarray, bits: int, salt: int = 0) -> np.ndarray:
    """A multiplicative hash of 64-bit keys to ``bits`` bits."""
    mixed = keys.astype(np.uint64)  # a copy: worked on in place
    if salt:
        mixed += np.uint64(salt * 0x632BE59BD9B4E019 & (2**64 - 1))
    mixed *= _MIX
    mixed >>= np.uint64(64 - bits)
    return mixed.view(np.int64)  # under 2**bits: the same numbers


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

    def growth_bytes(self, more: int) -> int:
        return 0  # allocated once, for the whole key space


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

    def growth_bytes(self, more: int) -> int:
        return 0  # allocated once, for the whole key space


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
        keys = keys.astype(np.uint64, copy=False)
        if kernel.enabled():
            return kernel.hash_find(keys, self.keys, self.values, self.bits)
        mask = (1 << self.bits) - 1
        h = _hash(keys, self.bits)
        # The first probe for every key at once (most keys end there), then the few others.
        there = self.keys[h]
        hit = there == keys
        result = np.where(hit, self.values[h], -1).astype(np.int32, copy=False)
        pending = np.flatnonzero(~hit & (there != EMPTY))
        h = (h[pending] + 1) & mask
        while len(pending):
            there = self.keys[h]
            hit = there == keys[pending]
            result[pending[hit]] = self.values[h[hit]]
            more = ~hit & (there != EMPTY)
            pending, h = pending[more], (h[more] + 1) & mask
        return result

    def seen(self, keys: np.ndarray) -> np.ndarray:
        return self.find(keys) >= 0

    def growth_bytes(self, more: int) -> int:
        """Bytes beyond ``nbytes`` that adding ``more`` keys takes at its peak: where the table
        must grow, the new table beside the old one and the old keys copied out of it."""
        if 2 * (self.count + more) <= (1 << self.bits):
            return 0
        bits = self.bits
        while (1 << bits) < 2 * (self.count + more):
            bits += 1
        slot = self.keys.itemsize + self.values.itemsize
        return (1 << bits) * slot + self.count * (slot + 8) + (1 << self.bits)

    def add(self, keys: np.ndarray, ids: np.ndarray | None = None) -> None:
        """Add distinct keys not yet in the table, with their ids."""
        assert ids is not None
        if 2 * (self.count + len(keys)) > (1 << self.bits):
            self._grow(self.count + len(keys))
        self._place(keys.astype(np.uint64), ids.astype(np.int32))
        self.count += len(keys)

    def _place(self, keys: np.ndarray, ids: np.ndarray) -> None:
        if kernel.enabled():
            kernel.hash_place(keys, ids, self.keys, self.values, self.bits)
            return
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


class LeastValues:
    """The least value seen for each key (any key space; memory in proportion to the keys):
    for a search that keeps, of states alike but for one number, only the one with the least
    (``Search`` and the exit of Nystrom's detours)."""

    NONE = np.iinfo(np.int64).max

    def __init__(self):
        self.index = HashIndex()
        self.values = np.zeros(1 << 10, dtype=np.int64)
        self.count = 0

    @property
    def nbytes(self) -> int:
        return self.index.nbytes + self.values.nbytes

    def growth_bytes(self, more: int) -> int:
        """Bytes beyond ``nbytes`` that taking in ``more`` new keys takes at its peak."""
        grown = 0 if self.count + more <= len(self.values) else \
            max(2 * len(self.values), self.count + more) * self.values.itemsize
        return self.index.growth_bytes(more) + grown

    def least(self, keys: np.ndarray) -> np.ndarray:
        """The least value seen for each key; ``NONE`` where the key was never seen."""
        slot = self.index.find(keys)
        return np.where(slot >= 0, self.values[np.maximum(slot, 0)], self.NONE)

    def lower(self, keys: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Take in (key, value) pairs, no pair twice. Per pair: whether its value is the least
        of its key's in this batch and less than every value seen for the key before."""
        slot = self.index.find(keys)
        new = np.flatnonzero(slot < 0)
        if len(new):
            first = new[first_of_each(keys[new])]
            ids = np.arange(self.count, self.count + len(first))
            if ids[-1] >= len(self.values):
                grown = np.full(max(2 * len(self.values), ids[-1] + 1), self.NONE,
                                dtype=np.int64)
                grown[:self.count] = self.values[:self.count]
                self.values = grown
            self.values[ids] = self.NONE
            self.index.add(keys[first], ids)
            self.count += len(first)
            slot = self.index.find(keys)
        before = self.values[slot]
        np.minimum.at(self.values, slot, values)
        return (values < before) & (values == self.values[slot])


class DenseLeastValues:
    """``LeastValues`` over a key space small enough for one array: the least value of every
    key at its own place (values under 2**31 - 1)."""

    NONE = np.iinfo(np.int32).max

    def __init__(self, space: int):
        self.values = np.full(space, self.NONE, dtype=np.int32)

    @property
    def nbytes(self) -> int:
        return self.values.nbytes

    def growth_bytes(self, more: int) -> int:
        return 0  # allocated once, for the whole key space

    def least(self, keys: np.ndarray) -> np.ndarray:
        found = self.values[keys].astype(np.int64)
        return np.where(found == self.NONE, LeastValues.NONE, found)

    def lower(self, keys: np.ndarray, values: np.ndarray) -> np.ndarray:
        """As ``LeastValues.lower``."""
        before = self.values[keys]
        np.minimum.at(self.values, keys, values.astype(np.int32))
        return (values < before) & (values == self.values[keys])


class Unindexed:
    """A seen-set that remembers nothing, for a search whose ``LeastValues`` already tells
    every state it has seen (a state is seen when its key's least value is no greater)."""

    nbytes = 0

    def seen(self, keys: np.ndarray) -> np.ndarray:
        return np.zeros(len(keys), dtype=bool)

    def add(self, keys: np.ndarray, ids: np.ndarray | None = None) -> None:
        pass

    def growth_bytes(self, more: int) -> int:
        return 0


def _within(values: np.ndarray, end: int) -> bool:
    return int(values.min()) >= 0 and int(values.max()) < end


class ReverseEdges:
    """Edges sorted by destination, for finding the sources that lead into given states, each
    edge with an optional weight and an optional flag (a crash, say).

    Edges with weights under 16 and destinations under 2**27 (every search this game makes)
    are sorted as one packed 64-bit number each: destination, flag and weight in the high
    word, source in the low one. The sources are then a view of the sorted numbers, and the
    edges with or without the flag are taken by masking them, never sorting again."""

    def __init__(self, sources: np.ndarray, destinations: np.ndarray,
                 weights: np.ndarray | None = None, flags: np.ndarray | None = None):
        packable = len(sources) == 0 or (
            _within(destinations, 2**27) and _within(sources, 2**32)
            and (weights is None or _within(weights, 16)))
        self._weighted = weights is not None
        if not packable:
            order = np.argsort(destinations, kind="stable")
            self._sorted = destinations[order].astype(np.int64)
            self._shift = 0
            self.sources = sources[order]
            self.weights = weights[order].astype(np.int64) if weights is not None else None
            self._flags = flags[order].astype(bool) if flags is not None else None
            return
        # Written a 32-bit word at a time (no 64-bit copy of each part).
        words = np.empty((len(sources), 2), dtype=np.uint32)
        low = _LOW_WORD
        high = words[:, 1 - low]
        high[:] = destinations
        high <<= np.uint32(_DESTINATION - 32)
        if flags is not None:
            high[flags] |= np.uint32(1 << (_FLAG - 32))
        if weights is not None:
            high |= weights.astype(np.uint32)
        words[:, low] = sources
        packed = words.reshape(-1).view(np.uint64)
        packed.sort()
        self._unpack(packed)

    def _unpack(self, packed: np.ndarray) -> None:
        self._sorted = packed
        self._shift = _DESTINATION
        words = packed.view(np.uint32)
        self.sources = words[_LOW_WORD::2]
        self._high = words[1 - _LOW_WORD::2]
        self.weights = (self._high & 15).astype(np.int64) if self._weighted else None
        self._flags = None

    def unflagged(self) -> ReverseEdges:
        """The edges without the flag (already in order)."""
        subset = ReverseEdges.__new__(ReverseEdges)
        subset._weighted = self._weighted
        if self._shift:
            subset._unpack(self._sorted[(self._high & 16) == 0])
            return subset
        keep = ~self._flags if self._flags is not None else slice(None)
        subset._sorted, subset._shift = self._sorted[keep], 0
        subset.sources = self.sources[keep]
        subset.weights = self.weights[keep] if self.weights is not None else None
        subset._flags = None
        return subset

    def _starts(self, states: np.ndarray) -> np.ndarray:
        """Position of the first edge into each state (or where it would be)."""
        bound = states.astype(np.int64)
        if self._shift:
            bound = bound.astype(np.uint64) << np.uint64(self._shift)
        return np.searchsorted(self._sorted, bound)

    def index_states(self, count: int) -> None:
        """Prepare for ``into`` over states 0..count-1 with one array of offsets (a lookup per
        state instead of two binary searches)."""
        self._offsets = self._starts(np.arange(count + 1))

    def into(self, states: np.ndarray) -> np.ndarray:
        """Positions (in the sorted edge arrays) of every edge ending in one of ``states``."""
        offsets = getattr(self, "_offsets", None)
        if offsets is not None:
            lo, hi = offsets[states], offsets[states + 1]
        else:
            lo, hi = self._starts(states), self._starts(states + 1)
        counts = hi - lo
        total = int(counts.sum())
        if not total:
            return np.empty(0, dtype=np.int64)
        offsets = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        return np.arange(total) + offsets
