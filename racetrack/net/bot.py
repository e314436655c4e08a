"""Playing an online seat with a computer driver, and following a game as a spectator.

``play_seat`` joins a game with a seat's token, mirrors it (``client.Mirror``), and whenever it
is the seat's turn asks the driver for a move (on a worker thread) and proposes it for that
move's number; the move counts when the server tells it back. A lost connection is made again
and the game caught up from the last move seen; a refused move is proposed again once the copy
has caught up. ``follow`` does the same without a seat. Both return the copy's final state,
which is the server's history move for move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from racetrack.game import RaceState
from racetrack.net.client import Mirror, OnlineError, Session
from racetrack.playout import driver_seed

log = logging.getLogger(__name__)


class Follower:
    """The common part of a player and a spectator: join, mirror, catch up, finish."""

    def __init__(self, url: str, join: tuple[str, dict], patience: float = 300.0,
                 on_move: Callable[[Mirror], None] | None = None):
        self.join_kind, self.join_fields = join
        self.mirror: Mirror | None = None
        self.on_move = on_move
        self.done: asyncio.Future = asyncio.get_running_loop().create_future()
        self.session = Session(url, self.message, self.opened, patience)

    async def opened(self, session: Session) -> None:
        since = self.mirror.number if self.mirror is not None else 0
        await session.send(self.join_kind, since=since, **self.join_fields)

    async def rejoin(self) -> None:
        """The copy lost its way: ask for the game again from the last move it holds."""
        await self.opened(self.session)

    def fail(self, reason: str) -> None:
        if not self.done.done():
            self.done.set_exception(OnlineError(reason))

    async def message(self, message: dict) -> None:
        kind = message.get("type")
        try:
            if kind == "game":
                if self.mirror is None:
                    self.mirror = Mirror(message)
                else:
                    self.mirror.catch_up(message)
                await self.changed()
            elif kind == "move" and self.mirror is not None:
                if message.get("game") != self.mirror.game:
                    return
                try:
                    taken = self.mirror.take(message["number"], message["seat"],
                                             message["move"], message.get("by", "player"))
                except OnlineError:
                    await self.rejoin()
                    return
                if taken is not None and self.on_move is not None:
                    self.on_move(self.mirror)
                await self.changed()
            elif kind == "refused":
                await self.refused(message)
            elif kind == "ack":
                self.acknowledged(message)
            elif kind == "error" and message.get("code") in ("token", "watch", "unknown-game",
                                                            "set-aside", "version"):
                self.fail(str(message.get("reason")))
        except OnlineError as exc:
            self.fail(str(exc))

    async def refused(self, message: dict) -> None:
        await self.rejoin()

    def acknowledged(self, message: dict) -> None:
        """The server stored a move this client proposed."""

    async def changed(self) -> None:
        if self.mirror is not None and self.mirror.state.is_over and not self.done.done():
            self.done.set_result(self.mirror.state)

    async def run(self) -> RaceState:
        runner = asyncio.create_task(self.session.run())
        try:
            waiting = {runner, self.done}
            finished, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if self.done in finished:
                return self.done.result()
            runner.result()  # raises why the session ended
            raise OnlineError("the connection ended before the race did")
        finally:
            await self.session.stop()
            runner.cancel()


class SeatPlayer(Follower):
    """A seat played by a computer driver."""

    def __init__(self, url: str, game: int, token: str, level: str, **kwargs):
        super().__init__(url, ("join", {"game": game, "token": token}), **kwargs)
        self.game, self.token, self.level = game, token, level
        self.driver = None
        self.proposed: int | None = None  # the number of the move proposed and not yet told
        self.proposals: dict[int, str] = {}  # every move proposed, by number
        self.acked: dict[int, str] = {}  # the moves the server said it stored, by number
        self.thinking = False

    def acknowledged(self, message: dict) -> None:
        number = message.get("number")
        if number in self.proposals:
            self.acked[number] = self.proposals[number]

    async def opened(self, session: Session) -> None:
        self.proposed = None  # a proposal the lost connection did not answer is made again
        await super().opened(session)

    async def refused(self, message: dict) -> None:
        log.info("move %s refused: %s", message.get("number"), message.get("reason"))
        if message.get("code") == "token":
            self.fail(str(message.get("reason")))
            return
        self.proposed = None
        await self.rejoin()

    async def changed(self) -> None:
        await super().changed()
        mirror = self.mirror
        if mirror is None or self.done.done() or not mirror.my_turn or self.thinking \
                or self.proposed == mirror.number:
            return
        if self.driver is None:
            from racetrack.ai import make_driver

            self.driver = make_driver(self.level, driver_seed(mirror.race.seed, mirror.seat))
        self.thinking = True
        number = mirror.number
        try:
            copy = mirror.state.clone()
            move = await asyncio.get_running_loop().run_in_executor(None, self.driver.choose,
                                                                    copy)
        finally:
            self.thinking = False
        if mirror.number != number:  # the server moved on meanwhile (a timeout's move)
            await self.changed()
            return
        self.proposed = number
        self.proposals[number] = str(move)
        try:
            await self.session.send("move", game=self.game, token=self.token, number=number,
                                    move=str(move))
        except ConnectionError:
            self.proposed = None  # proposed again once connected and caught up


async def play_seat(url: str, game: int, token: str, level: str = "medium",
                    patience: float = 300.0) -> RaceState:
    """Play a seat to the end of the race; the final state."""
    return await SeatPlayer(url, game, token, level, patience=patience).run()


async def follow(url: str, watch: str, patience: float = 300.0) -> RaceState:
    """Watch a game to its end; the final state."""
    return await Follower(url, ("watch", {"watch": watch}), patience=patience).run()
