"""Graph Trees timings: move generation and territory scoring on a board as a game fills it.

Plays a seeded random game on a rule set (default ``levi``) and, at several points in it, times
a turn's whole move generation (every tip and node, judged in one batch) and the scoring of
every player's territory, each from a cold cache.

    python tools/trees_bench.py [RULES] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import time

from racetrack.games.trees import TreesGame, load_tree_rules


def timed(function, repeats: int = 20) -> float:
    started = time.perf_counter()
    for _ in range(repeats):
        function()
    return (time.perf_counter() - started) / repeats * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="?", default="levi")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = load_tree_rules(args.rules)
    game = TreesGame(rules, TreesGame.default_players(["human"] * rules.players), args.seed)
    rng = random.Random(args.seed)
    state = game.start()
    print(f"{rules.name}: {rules.width} x {rules.height}, {rules.players} players, "
          f"{rules.movement} movement")
    checkpoints = {10, 50, 100, 200, 300}
    while not state.is_over:
        moves = len(state.history)
        if moves in checkpoints:
            def generate():
                state._cache.clear()
                state.placements()

            def score():
                state._cache.clear()
                state.scores()

            count = len(state._batch(state.current).verdicts)
            print(f"after {moves:3d} moves ({len(state.segments()):3d} segments): move "
                  f"generation {timed(generate):5.2f} ms for {count:4d} candidates; territory "
                  f"of all players {timed(score):5.2f} ms")
        state.apply_unchecked(rng.choice(state.placements()))
    print(f"game over after {len(state.history)} moves: {state.outcome.termination.value}")


if __name__ == "__main__":
    main()
