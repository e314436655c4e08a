"""The search structures: the hash index in compiled code and in numpy, and the least values
kept densely or hashed, answer alike whatever is asked of them."""

from __future__ import annotations

import numpy as np
import pytest

from racetrack.board import kernel
from racetrack.board.graphs import DenseLeastValues, HashIndex, LeastValues, Unindexed


def distinct(rng, count: int, high: int) -> np.ndarray:
    """Distinct keys, in increasing order."""
    return np.unique(rng.integers(0, high, count, dtype=np.int64))


@pytest.mark.parametrize("high", [1 << 12, 1 << 40])
def test_the_hash_index_finds_the_same_in_compiled_code_and_in_numpy(monkeypatch, high):
    """Keys added in batches (the table grows past several sizes), some by each implementation;
    every key found with its id, every other key not, by both."""
    rng = np.random.default_rng(3)
    keys = distinct(rng, 5000, high)
    index = HashIndex(capacity=16)
    for turn, batch in enumerate(np.array_split(rng.permutation(keys), 7)):
        with monkeypatch.context() as patch:
            if turn % 2:
                patch.setattr(kernel, "ENABLED", False)
            index.add(batch, np.searchsorted(keys, batch))
    asked = np.concatenate([keys, rng.integers(0, high, 3000, dtype=np.int64)])
    expected = np.full(len(asked), -1)
    known = np.isin(asked, keys)
    expected[known] = np.searchsorted(keys, asked[known])
    assert (index.find(asked) == expected).all()
    with monkeypatch.context() as patch:
        patch.setattr(kernel, "ENABLED", False)
        assert (index.find(asked) == expected).all()


def test_dense_least_values_are_the_hashed_ones():
    rng = np.random.default_rng(5)
    dense, hashed = DenseLeastValues(400), LeastValues()
    seen: set[tuple[int, int]] = set()
    for _ in range(30):
        keys = rng.integers(0, 400, 300)
        values = rng.integers(0, 1000, 300)
        pairs = [(int(k), int(v)) for k, v in zip(keys, values, strict=True)]
        fresh = [i for i, pair in enumerate(pairs) if pair not in seen
                 and pair not in pairs[:i]]  # no pair twice, as the search gives them
        seen.update(pairs[i] for i in fresh)
        keys, values = keys[fresh], values[fresh]
        assert (dense.lower(keys, values) == hashed.lower(keys, values)).all()
        asked = rng.integers(0, 400, 100)
        assert (dense.least(asked) == hashed.least(asked)).all()


def test_unindexed_remembers_nothing():
    index = Unindexed()
    index.add(np.arange(5), np.arange(5))
    assert not index.seen(np.arange(5)).any() and index.nbytes == 0
