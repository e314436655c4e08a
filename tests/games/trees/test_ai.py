"""Graph Trees' computer player knows when a game is over: it offers to end, and accepts an
offer, once nothing it can do changes the score by its estimate, and not before."""

from __future__ import annotations

from racetrack.games.trees import TreesGame, load_tree_rules
from racetrack.games.trees.ai import GreedyPlayer
from racetrack.games.trees.model import Move, MoveKind, Termination


def game(kinds, name="levi", seed=1):
    rules = load_tree_rules(name)
    return TreesGame(rules, TreesGame.default_players(kinds), seed)


def scores_changed_at(state):
    """The last move after which a score changed."""
    replay = state.game.start()
    last, before = 0, replay.scores()
    for number, (_, move) in enumerate(state.history, start=1):
        replay.apply(move)
        if replay.scores() != before:
            last, before = number, replay.scores()
    return last


def test_computers_end_a_game_soon_after_the_score_stops_changing():
    for name in ("levi", "quick"):
        trees = game(["greedy", "greedy"], name)
        players = [GreedyPlayer(1), GreedyPlayer(2)]
        state = trees.start()
        while not state.is_over:
            state.apply(players[state.current].choose(state))
        assert state.outcome.termination is Termination.AGREED
        assert len(state.history) - scores_changed_at(state) <= 4
        assert max(state.scores()) > 0  # they did play the game out first


def test_an_offer_it_cannot_better_is_accepted():
    trees = game(["human", "greedy"])
    human, computer = GreedyPlayer(7), GreedyPlayer(8)
    state = trees.start()
    # Both play until the computer itself would rather end; then the human offers.
    while not state.is_over:
        if state.current == 1:
            move = computer.choose(state)
            if move.kind is MoveKind.AGREE:
                break
            state.apply(move)
        else:
            state.apply(human.choose(state))
    assert not state.is_over
    if state.current == 1:
        state.apply(Move(MoveKind.PASS))
    offered = state.clone()
    offered.apply(Move(MoveKind.AGREE))
    assert offered.current == 1
    assert computer.prospects(offered) == 0
    offered.apply(computer.choose(offered))
    assert offered.is_over and offered.outcome.termination is Termination.AGREED


def test_an_offer_in_the_opening_is_refused():
    trees = game(["human", "greedy"])
    state = trees.start()
    state.apply(Move(MoveKind.AGREE))
    computer = GreedyPlayer(3)
    assert computer.prospects(state) > 0
    move = computer.choose(state)
    assert move.places
