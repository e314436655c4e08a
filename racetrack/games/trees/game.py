"""A game of Graph Trees: ``TreesGame`` holds what never changes (rules, players, seed) and
``TreesState`` what does (the tracks, whose turn, who has agreed to end, the history).

``TreesState.apply`` checks a move and raises ``IllegalMoveError`` with the reason, leaving the
state as it was; ``apply_unchecked`` is the fast path for moves that came from
``legal_moves()``. A player with no legal move is skipped (an event says so); the game ends
when no player can move, when every player who still can has agreed to end, or at the turn
limit. Game and state speak the protocol both games share (``racetrack.games.protocol``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from racetrack.base.errors import IllegalMoveError
from racetrack.board.geometry import Vec
from racetrack.games.trees.model import Candidate, Move, MoveKind, Outcome, Termination, Track
from racetrack.games.trees.movegen import REASONS, Paper, Verdict, direction_codes, judge
from racetrack.games.trees.rules import TreeRules
from racetrack.games.trees.territory import Territory, territory

PLAYER_KINDS = ("human", "greedy")
COLOURS = ("red", "blue", "green", "purple")


@dataclass(frozen=True)
class Player:
    name: str
    colour: str = "red"
    kind: str = "human"  # "human", or a computer player's name ("greedy")

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


@dataclass(frozen=True)
class TreesGame:
    """A game's fixed setup. The seed feeds the computer players' tie-breaks."""

    rules: TreeRules
    players: tuple[Player, ...]
    seed: int = 0

    def __post_init__(self) -> None:
        if len(self.players) != self.rules.players:
            raise ValueError(f"the {self.rules.name} rules are for {self.rules.players} "
                             f"players, not {len(self.players)}")
        for player in self.players:
            if player.kind not in PLAYER_KINDS:
                raise ValueError(f"unknown player kind {player.kind!r}; kinds: "
                                 + ", ".join(PLAYER_KINDS))

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)

    @classmethod
    def default_players(cls, kinds: Sequence[str]) -> tuple[Player, ...]:
        """Players named after their pencils ("Red", "Blue", ...) of the given kinds;
        ``ValueError`` for more players than there are pencils."""
        if len(kinds) > len(COLOURS):
            raise ValueError(f"at most {len(COLOURS)} players, one for each pencil "
                             f"({', '.join(COLOURS)}), not {len(kinds)}")
        return tuple(Player(COLOURS[i].title(), COLOURS[i], kind) for i, kind in enumerate(kinds))

    def start(self) -> TreesState:
        return TreesState(self)


@dataclass(frozen=True)
class Batch:
    """A turn's candidates as arrays: the first ``extensions`` rows extend ``tracks[i]``, the
    rest start new tracks from their start point."""

    starts: np.ndarray
    ends: np.ndarray
    verdicts: np.ndarray
    extensions: int
    tracks: np.ndarray

    def move(self, row: int) -> Move:
        target = (int(self.ends[row, 0]), int(self.ends[row, 1]))
        if row < self.extensions:
            return Move.extend(int(self.tracks[row]), target)
        return Move.branch((int(self.starts[row, 0]), int(self.starts[row, 1])), target)


@dataclass
class TreesState:
    game: TreesGame
    tracks: list[Track] = field(default_factory=list)
    current: int = 0
    agreed: frozenset[int] = frozenset()
    history: list[tuple[int, Move]] = field(default_factory=list)
    outcome: Outcome | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    # -- what is on the paper ---------------------------------------------------------------

    @property
    def rules(self) -> TreeRules:
        return self.game.rules

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.current

    def segments(self, player: int | None = None) -> list[tuple[Vec, Vec]]:
        """Every segment drawn (by ``player``), in the order of the tracks."""
        return [(a, b) for t in self.tracks if player is None or t.owner == player
                for a, b in zip(t.nodes, t.nodes[1:], strict=False)]

    def nodes(self, player: int) -> list[Vec]:
        """The points ``player`` may start a new track from: the start and every track's nodes."""
        found = dict.fromkeys([self.rules.starts[player]])
        for track in self.tracks:
            if track.owner == player:
                found.update(dict.fromkeys(track.nodes))
        return list(found)

    def track_ids(self, player: int) -> list[int]:
        return [i for i, t in enumerate(self.tracks) if t.owner == player]

    def track_with_tip(self, point: tuple[int, int], player: int) -> int | None:
        for i, track in enumerate(self.tracks):
            if track.owner == player and track.tip == tuple(point):
                return i
        return None

    def paper(self) -> Paper:
        if "paper" not in self._cache:
            self._cache["paper"] = Paper.build(
                self.rules.starts,
                [(a, b, t.owner) for t in self.tracks
                 for a, b in zip(t.nodes, t.nodes[1:], strict=False)])
        return self._cache["paper"]

    # -- candidates and legal moves ---------------------------------------------------------

    def _batch(self, player: int, tips: Sequence[int] | None = None,
               nodes: Sequence[Vec] | None = None) -> Batch:
        """All candidates from the given tips and nodes (default: all of them), judged at once.

        Kept as arrays: ``Move`` objects are made only for the rows someone asks for.
        """
        key = ("batch", player, None if tips is None else tuple(tips),
               None if nodes is None else tuple(nodes))
        if key in self._cache:
            return self._cache[key]
        tips = self.track_ids(player) if tips is None else list(tips)
        nodes = self.nodes(player) if nodes is None else list(nodes)
        changes = np.array(self.rules.changes, dtype=np.int64)
        steps = changes[np.any(changes != 0, axis=1)]
        tip_points = np.array([self.tracks[i].tip for i in tips], dtype=np.int64).reshape(-1, 2)
        velocity = np.array([self.tracks[i].velocity for i in tips],
                            dtype=np.int64).reshape(-1, 2)
        ext_ends = (tip_points + velocity)[:, None, :] + changes[None, :, :]
        ext_starts = np.broadcast_to(tip_points[:, None, :], ext_ends.shape)
        moving = np.any(ext_ends != ext_starts, axis=2)  # a track may not stand still
        ext_track = np.broadcast_to(np.array(tips, dtype=np.int64)[:, None],
                                    moving.shape)[moving]
        node_points = np.array(nodes, dtype=np.int64).reshape(-1, 2)
        br_ends = (node_points[:, None, :] + steps[None, :, :]).reshape(-1, 2)
        br_starts = np.repeat(node_points, len(steps), axis=0)
        # A new track may not set off the way a track already runs at its node.
        segments = self.segments(player)
        index = {tuple(n): i for i, n in enumerate(nodes)}
        taken = set()
        if segments:
            seg = np.array(segments, dtype=np.int64)
            codes = direction_codes(seg[:, 1] - seg[:, 0])
            for (a, b), code in zip(segments, codes.tolist(), strict=True):
                for end in (a, b):
                    if end in index:
                        taken.add(index[end] * 2**20 + code)
        row_keys = (np.repeat(np.arange(len(nodes)), len(steps)) * 2**20
                    + direction_codes(br_ends - br_starts))
        same = np.isin(row_keys, np.array(sorted(taken), dtype=np.int64))
        starts = np.concatenate([ext_starts[moving], br_starts])
        ends = np.concatenate([ext_ends[moving], br_ends])
        same_direction = np.concatenate([np.zeros(len(ext_track), bool), same])
        verdicts = judge(self.paper(), player, self.rules.width, self.rules.height, starts,
                         ends, same_direction)
        batch = Batch(starts, ends, verdicts, len(ext_track), ext_track)
        self._cache[key] = batch
        return batch

    def candidates(self, player: int | None = None, tips: Sequence[int] | None = None,
                   nodes: Sequence[Vec] | None = None) -> list[Candidate]:
        """Candidates of ``player`` (default: whose turn it is), legal or not, with reasons.

        ``tips`` (track numbers) and ``nodes`` limit them to some sources; by default every
        track's tip (extensions) and every node (new tracks) is one.
        """
        player = self.current if player is None else player
        batch = self._batch(player, tips, nodes)
        return [Candidate(batch.move(i), bool(v == Verdict.LEGAL), REASONS[Verdict(v)])
                for i, v in enumerate(batch.verdicts.tolist())]

    def placements(self, player: int | None = None) -> list[Move]:
        """The legal moves that draw a segment, for ``player`` (default: whose turn it is)."""
        batch = self._batch(self.current if player is None else player)
        return [batch.move(i) for i in np.flatnonzero(batch.verdicts == Verdict.LEGAL)]

    def can_move(self, player: int) -> bool:
        return bool(np.any(self._batch(player).verdicts == Verdict.LEGAL))

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player whose turn it is: placements, then pass and agree."""
        if self.is_over:
            return []
        return [*self.placements(), Move(MoveKind.PASS), Move(MoveKind.AGREE)]

    def check(self, move: Move) -> str | None:
        """``None`` when ``move`` is legal now, else the reason it is not."""
        if self.is_over:
            return "the game is over"
        if move.kind in (MoveKind.PASS, MoveKind.AGREE):
            return None
        player = self.current
        if move.kind is MoveKind.EXTEND:
            if move.track is None or not 0 <= move.track < len(self.tracks):
                return f"there is no track {move.track}"
            track = self.tracks[move.track]
            if track.owner != player:
                return f"track {move.track} is not {self.game.players[player].name}'s"
            found = self.candidates(player, tips=[move.track], nodes=[])
            source = track.tip
        else:
            if move.node not in self.nodes(player):
                return f"{tuple(move.node)} is not one of {self.game.players[player].name}'s " \
                       "nodes"
            found = self.candidates(player, tips=[], nodes=[move.node])
            source = move.node
        for candidate in found:
            if candidate.move == move:
                return None if candidate.legal else candidate.reason
        return f"{tuple(move.target)} is not within reach of {tuple(source)} this turn"

    # -- playing ----------------------------------------------------------------------------

    def apply(self, move: Move) -> list[str]:
        """Play a checked move; ``IllegalMoveError`` (state unchanged) when it is not legal."""
        reason = self.check(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        return self.apply_unchecked(move)

    def apply_unchecked(self, move: Move) -> list[str]:
        """Play a move known to be legal; returns what happened, in words."""
        player = self.current
        name = self.game.players[player].name
        events: list[str] = []
        if move.kind is MoveKind.EXTEND:
            self.tracks[move.track] = self.tracks[move.track].extended(move.target)
            self.agreed = frozenset()
        elif move.kind is MoveKind.BRANCH:
            self.tracks.append(Track(player, (move.node, move.target)))
            self.agreed = frozenset()
        elif move.kind is MoveKind.AGREE:
            self.agreed = self.agreed | {player}
            events.append(f"{name} agrees to end the game")
        else:
            events.append(f"{name} passes")
        self.history.append((player, move))
        self._cache.clear()
        events += self._next_turn(player)
        return events

    def _next_turn(self, player: int) -> list[str]:
        """Whose turn it is next, or the game's end.

        Players are asked whether they can move lazily, in turn order from the next one:
        judging a player's moves is the costly part of a turn, and usually the next player can
        move, so one player is judged, not all (the judgement is cached for its turn).
        """
        count = len(self.game.players)
        order = [(player + step) % count for step in range(1, count + 1)]
        following = next((p for p in order if self.can_move(p)), None)
        if following is None:
            return self._end(Termination.NO_MOVES)
        if following in self.agreed and not any(
                self.can_move(p) for p in order if p not in self.agreed):
            return self._end(Termination.AGREED)
        if len(self.history) >= self.rules.turn_limit:
            return self._end(Termination.TURN_LIMIT)
        self.current = following
        return [f"{self.game.players[p].name} cannot move"
                for p in order[:order.index(following)]]

    def _end(self, termination: Termination) -> list[str]:
        self.outcome = Outcome.from_scores(termination, self.scores())
        winner = self.outcome.winner
        result = "a draw" if winner is None else f"{self.game.players[winner].name} wins"
        return [f"Game over: {termination.value}; {result}"]

    # -- scoring ----------------------------------------------------------------------------

    def territory(self, player: int) -> Territory:
        """``player``'s territory now (kept until the paper changes)."""
        key = ("territory", player)
        if key not in self._cache:
            starts = self.rules.starts
            self._cache[key] = territory(self.rules.width, self.rules.height,
                                         self.segments(player), starts[player],
                                         [s for i, s in enumerate(starts) if i != player])
        return self._cache[key]

    def scores(self) -> tuple[int, ...]:
        return tuple(self.territory(p).score for p in range(len(self.game.players)))

    def clone(self) -> TreesState:
        return TreesState(self.game, list(self.tracks), self.current, self.agreed,
                          list(self.history), self.outcome, {})

