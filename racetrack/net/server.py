"""The game server: asyncio and the ``websockets`` library, refereeing every online game.

``websockets`` is the well-kept websocket library of asyncio Python (RFC 6455 whole, limits on
message size and queues built in, TLS through the standard ``ssl`` module, no framework to carry).

A connection's messages are handled one after another. A proposed move is judged under its
game's lock by the engine (``HostedGame.judge``), played on a copy of the state, stored (the
commit), and only then acknowledged and told to everyone in the game; a move another process
stored first is caught up from the database instead. The server plays computer seats (their
drivers think on a worker thread, never on the event loop), and plays or retires a human seat
whose time per move runs out. Every game is re-simulated from its stored moves when it is
loaded, at start-up for the games not over; a game whose moves no longer re-simulate is set
aside with a message and never served.

Hostile clients get an ``error`` message or a closed connection, never a crash: every message
is checked (``protocol.client_message``), each connection has a message budget (a token
bucket), each address and the server a connection limit, and each connection a bounded queue of
messages to send: a client that does not read its messages is disconnected rather than held in
memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import logging
import ssl
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from racetrack.engine.model import Move
from racetrack.games.playout import driver_seed
from racetrack.games.replay import result_data
from racetrack.net import protocol
from racetrack.net.codes import new_token, new_watch_code, normal, secret_hash
from racetrack.net.hosted import (
    HostedGame,
    MoveRecord,
    Seat,
    TimeRule,
    new_setup,
    race_of,
    setup_of,
)
from racetrack.net.protocol import ProtocolError, encode
from racetrack.net.storage import Store, StoredGame
from racetrack.search.drivers import make_driver

log = logging.getLogger(__name__)

#: Seconds another process's computer seat is given to move before this process moves it.
FALLBACK_SECONDS = 3.0
#: The most games one connection follows at once.
MAX_FOLLOWED = 2_000


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    certfile: str | None = None
    keyfile: str | None = None
    max_connections: int = 10_000
    max_per_address: int = 1_000
    #: Seconds a computer seat waits before its move (0: at once), so people can follow it.
    computer_pause: float = 0.0
    #: Bytes of messages that may wait for a client before it is taken for a reader that
    #: stopped reading and disconnected (one message larger than this is still sent).
    client_buffer: int = 2 * 1024 * 1024
    #: Seconds a client is given to answer when the server closes its connection, before the
    #: connection is dropped: a client that stopped reading never answers, and holds its
    #: socket this long.
    close_timeout: float = 5.0


class Client:
    """One connection: its queue of messages to send, its message budget and the games it
    follows (with the seats it holds in each: none for a spectator)."""

    def __init__(self, ws: ServerConnection, address: str, buffer: int):
        self.ws = ws
        self.address = address
        self.buffer = buffer
        self.waiting = 0  # bytes of the messages in the outbox
        self.outbox: asyncio.Queue[str] = asyncio.Queue()
        self.following: dict[int, frozenset[int]] = {}  # game: the seats held there
        self.tokens = float(protocol.RATE_BURST)
        self.checked = time.monotonic()
        self.closing = False
        self.sender = asyncio.create_task(self._send_all())

    async def _send_all(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await self.outbox.get()
                await self.ws.send(text)
                self.waiting -= len(text)

    def send(self, kind: str, **fields: Any) -> None:
        self.send_text(encode(kind, **fields))

    def send_text(self, text: str) -> None:
        if self.closing:
            return
        if self.waiting and self.waiting + len(text) > self.buffer:
            self.close(1008, "messages are not being read")
            return
        self.waiting += len(text)
        self.outbox.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            log.warning("closing the connection from %s: %s", self.address, reason)
            asyncio.get_running_loop().create_task(self.ws.close(code, reason))

    def spend(self) -> bool:
        """Take one message from the budget; ``False`` when it is spent."""
        now = time.monotonic()
        self.tokens = min(protocol.RATE_BURST,
                          self.tokens + (now - self.checked) * protocol.RATE_PER_SECOND)
        self.checked = now
        self.tokens -= 1
        return self.tokens >= 0


@dataclass
class Live:
    """A game in memory: the hosted game (``None`` when it is set aside), its lock, who
    follows it and which seats are present here and in other processes."""

    id: int
    game: HostedGame | None
    set_aside: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    followers: dict[Client, frozenset[int]] = field(default_factory=dict)
    remote: dict[tuple[str, int], bool] = field(default_factory=dict)
    drivers: dict[tuple[int, str], Any] = field(default_factory=dict)
    timer: asyncio.Task | None = None

    def present(self) -> set[int]:
        here = {seat for seats in self.followers.values() for seat in seats}
        there = {seat for (_, seat), on in self.remote.items() if on}
        return here | there


class GameServer:
    """The games and the clients of one server process."""

    def __init__(self, store: Store, config: ServerConfig = ServerConfig()):
        self.store = store
        self.config = config
        self.games: dict[int, Live] = {}
        self.clients: set[Client] = set()
        self.per_address: Counter[str] = Counter()
        self._loading: dict[int, asyncio.Future] = {}
        self.thinkers = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drivers")
        self.moves = 0  # moves stored by this process (for the bench)
        self.server = None

    # -- starting and stopping ------------------------------------------------------------------

    async def start(self) -> None:
        await self.store.open()
        for game in await self.store.unfinished():
            await self.live(game)
        await self.store.listen(self._heard_moves, self._heard_presence)
        context = None
        if self.config.certfile:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(self.config.certfile, self.config.keyfile)
        self.server = await serve(
            self._connection, self.config.host, self.config.port, ssl=context,
            process_request=self._admit, max_size=protocol.MAX_MESSAGE_BYTES, max_queue=16,
            compression=None, open_timeout=10, close_timeout=self.config.close_timeout,
            ping_interval=20, ping_timeout=20, server_header="racetrack")

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 10)
        for live in self.games.values():
            if live.timer is not None:
                live.timer.cancel()
        self.thinkers.shutdown(wait=False, cancel_futures=True)
        await self.store.close()

    # -- connections --------------------------------------------------------------------------

    def _admit(self, connection, request):
        """Refuse a connection over the server's or its address's limit before the
        handshake (HTTP 503)."""
        address = connection.remote_address[0] if connection.remote_address else "?"
        if (len(self.clients) >= self.config.max_connections
                or self.per_address[address] >= self.config.max_per_address):
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE,
                                      "too many connections\n")
        return None

    async def _connection(self, ws: ServerConnection) -> None:
        address = ws.remote_address[0] if ws.remote_address else "?"
        client = Client(ws, address, self.config.client_buffer)
        self.clients.add(client)
        self.per_address[address] += 1
        try:
            client.send("welcome", server="racetrack", protocol=protocol.VERSION,
                        limits={"message_bytes": protocol.MAX_MESSAGE_BYTES,
                                "messages_per_second": protocol.RATE_PER_SECOND,
                                "burst": protocol.RATE_BURST})
            async for text in ws:
                if not client.spend():
                    client.send("error", code="rate", reason="too many messages: at most "
                                f"{protocol.RATE_PER_SECOND:.0f} a second")
                    if client.tokens < -protocol.RATE_BURST:
                        client.close(1008, "too many messages")
                        break
                    continue
                await self._message(client, text)
        except ConnectionClosed:
            pass
        finally:
            await self._gone(client)

    async def _gone(self, client: Client) -> None:
        self.clients.discard(client)
        self.per_address[client.address] -= 1
        if self.per_address[client.address] <= 0:
            del self.per_address[client.address]
        client.sender.cancel()
        for game in list(client.following):
            await self._unfollow(client, game)

    async def _message(self, client: Client, text: str | bytes) -> None:
        ident: dict[str, Any] = {}
        try:
            message = protocol.client_message(text)
            if "id" in message:
                ident["id"] = message["id"]
            handler = getattr(self, f"_on_{message['type']}")
            await handler(client, message, ident)
        except ProtocolError as exc:
            client.send("error", code=exc.code, reason=exc.reason, **ident)
        except ConnectionClosed:
            raise
        except Exception:  # a bug must cost one message, never the server
            log.exception("handling a message failed")
            client.send("error", code="internal", reason="the server could not handle that "
                        "message", **ident)

    # -- games in memory ------------------------------------------------------------------------

    async def live(self, game: int) -> Live | None:
        """The game in memory, loaded (and re-simulated) on first use; ``None`` if there is
        no such game."""
        if game in self.games:
            return self.games[game]
        if game in self._loading:
            return await asyncio.shield(self._loading[game])
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._loading[game] = future
        try:
            stored = await self.store.game(game)
            live = None if stored is None else await self._resimulate(stored)
            if live is not None:
                self.games[game] = live
                self._next(live, here=True)
            future.set_result(live)
            return live
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # seen: no "never retrieved" warning
            raise
        finally:
            del self._loading[game]

    async def _resimulate(self, stored: StoredGame) -> Live:
        """A stored game played again through the engine, move by move; one that does not
        re-simulate is set aside (and said in the log), never served wrong."""
        if stored.set_aside:
            return Live(stored.id, None, stored.set_aside)
        try:
            race = race_of(stored.setup, f"game {stored.id}")
            hosted = HostedGame(stored.id, race, stored.seats, stored.time, stored.watch_hash,
                                stored.created, setup=stored.setup)
            for record in stored.moves:
                if record.number != hosted.number:
                    raise ValueError(f"move {record.number} is stored where move "
                                     f"{hosted.number} was expected")
                if hosted.state.current_car != record.seat:
                    raise ValueError(f"move {record.number} is seat {record.seat + 1}'s, but "
                                     "it was another seat's turn")
                hosted.play(record)
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            message = f"game {stored.id} does not re-simulate: {exc}"
            log.error("%s; it is set aside", message)
            await self.store.set_aside(stored.id, message)
            return Live(stored.id, None, message)
        return Live(stored.id, hosted)

    def _forget_if_idle(self, live: Live) -> None:
        """A finished game nobody follows leaves memory (it is loaded again when asked for)."""
        if (live.game is None or live.game.over) and not live.followers \
                and live.timer is None:
            self.games.pop(live.id, None)

    async def _game_for(self, client: Client, game: int, ident: dict) -> Live | None:
        live = await self.live(game)
        if live is None:
            client.send("error", code="unknown-game", reason=f"there is no game {game}",
                        game=game, **ident)
            return None
        if live.game is None:
            client.send("error", code="set-aside", reason=live.set_aside, game=game, **ident)
            return None
        return live

    # -- what clients ask -----------------------------------------------------------------------

    async def _on_ping(self, client: Client, message: dict, ident: dict) -> None:
        client.send("pong", **ident)

    async def _on_create(self, client: Client, message: dict, ident: dict) -> None:
        loop = asyncio.get_running_loop()
        # Reading the setup (a track drawn by the client, perhaps) is done off the loop.
        race = await loop.run_in_executor(self.thinkers, _checked_race, message)
        setup = setup_of(race)
        tokens: dict[int, str] = {}
        seats = []
        for index, asked in enumerate(message["seats"]):
            if asked["kind"] == "human":
                tokens[index] = new_token()
                seats.append(Seat(index, "human", None, secret_hash(tokens[index])))
            else:
                seats.append(Seat(index, "computer", asked["level"]))
        rule = TimeRule(message.get("move_time"), message.get("on_timeout", "computer"),
                        message.get("timeout_level", "medium"))
        watch = new_watch_code()
        now = time.time()
        game = await self.store.create(now, setup, tuple(seats), rule, secret_hash(watch))
        hosted = HostedGame(game, race, tuple(seats), rule, secret_hash(watch), now,
                            setup=setup)
        live = Live(game, hosted)
        self.games[game] = live
        client.send("created", game=game, watch=watch,
                    seats=[{"seat": i + 1, "token": token, "name": hosted.name(i)}
                           for i, token in tokens.items()], **ident)
        self._next(live, here=True)

    async def _on_join(self, client: Client, message: dict, ident: dict) -> None:
        live = await self._game_for(client, message["game"], ident)
        if live is None:
            return
        seat = live.game.seat_of(message["token"])
        if seat is None:
            client.send("error", code="token", reason="that token holds no seat in this "
                        "game", game=live.id, **ident)
            return
        await self._follow(client, live, seat.index, message["since"], ident)

    async def _on_watch(self, client: Client, message: dict, ident: dict) -> None:
        found = await self.store.find_watch(secret_hash(message["watch"])) \
            if normal(message["watch"]) else None
        if found is None:
            client.send("error", code="watch", reason="no game has that watch code", **ident)
            return
        live = await self._game_for(client, found, ident)
        if live is not None:
            await self._follow(client, live, None, message["since"], ident)

    async def _on_leave(self, client: Client, message: dict, ident: dict) -> None:
        await self._unfollow(client, message["game"])
        client.send("left", game=message["game"], **ident)

    async def _follow(self, client: Client, live: Live, seat: int | None, since: int,
                      ident: dict) -> None:
        if live.id not in client.following and len(client.following) >= MAX_FOLLOWED:
            client.send("error", code="busy", reason=f"a connection follows at most "
                        f"{MAX_FOLLOWED} games", **ident)
            return
        game = live.game
        assert game is not None
        was = live.present()
        seats = live.followers.get(client, frozenset()) | ({seat} if seat is not None else set())
        live.followers[client] = client.following[live.id] = frozenset(seats)
        since = min(since, game.number)
        client.send("game", game=live.id, you=None if seat is None else seat + 1,
                    setup=game.setup, first=since,
                    moves=[[r.seat + 1, r.move] for r in game.records[since:]],
                    seats=game.seat_list(live.present()), **self._situation(game), **ident)
        if seat is not None and seat not in was:
            self._tell_presence(live, seat, True)
            await self.store.tell_presence(live.id, seat, True)

    async def _unfollow(self, client: Client, game: int) -> None:
        seats = client.following.pop(game, frozenset())
        live = self.games.get(game)
        if live is None or client not in live.followers:
            return
        del live.followers[client]
        for seat in sorted(seats - live.present()):
            self._tell_presence(live, seat, False)
            await self.store.tell_presence(live.id, seat, False)
        self._forget_if_idle(live)

    def _tell_presence(self, live: Live, seat: int, present: bool) -> None:
        self._broadcast(live, "presence", game=live.id, seat=seat + 1, present=present,
                        name=live.game.name(seat) if live.game else "")

    async def _on_move(self, client: Client, message: dict, ident: dict) -> None:
        live = await self._game_for(client, message["game"], ident)
        if live is None:
            return
        number = message["number"]
        async with live.lock:
            game = live.game
            seat = game.seat_of(message["token"])
            move = Move.parse(message["move"])
            verdict = game.judge(seat, number, move)
            if verdict is None:
                record = MoveRecord(number, seat.index, str(move), "player", time.time())
                stored = await self._store(live, record, client, ident)
                if not stored:
                    verdict = ("stale", f"move {number} was made already (catch up and "
                                        "move again)")
        if verdict is not None:
            client.send("refused", game=live.id, number=number, code=verdict[0],
                        reason=verdict[1], **ident)
            return
        self._next(live, here=True)

    async def _on_status(self, client: Client, message: dict, ident: dict) -> None:
        found = []
        for entry in message["games"]:
            live = await self.live(entry["game"])
            seat = live.game.seat_of(entry["token"]) if live and live.game else None
            if live is None or seat is None:
                found.append({"game": entry["game"], "error": "unknown-game" if live is None
                              else "set-aside" if live.game is None else "token"})
                continue
            game = live.game
            found.append({"game": live.id, "you": seat.number, "name": game.name(seat.index),
                          "track": game.race.track.name, "rules": game.race.rules.name,
                          "moves": game.number,
                          "your_turn": game.current_seat is seat,
                          "seats": game.seat_list(live.present()),
                          **self._situation(game)})
            self._forget_if_idle(live)
        client.send("status", games=found, **ident)

    async def _on_export(self, client: Client, message: dict, ident: dict) -> None:
        if "watch" in message:
            found = await self.store.find_watch(secret_hash(message["watch"])) \
                if normal(message["watch"]) else None
            if found is None:
                client.send("error", code="watch", reason="no game has that watch code",
                            **ident)
                return
            live = await self._game_for(client, found, ident)
        else:
            live = await self._game_for(client, message["game"], ident)
            if live is not None and not live.game.over and (
                    "token" not in message or live.game.seat_of(message["token"]) is None):
                client.send("error", code="token", reason="a game under way is exported "
                            "with a seat's token or its watch code (a finished game with its "
                            "number alone)", game=live.id, **ident)
                return
        if live is not None:
            client.send("replay", game=live.id, replay=live.game.replay(), **ident)
            self._forget_if_idle(live)

    # -- moves ----------------------------------------------------------------------------------

    def _situation(self, game: HostedGame) -> dict[str, Any]:
        """Whose turn it is, where the cars are, and the result once it is over."""
        return {"turn": game.turn(time.time()), "cars": game.cars(), "over": game.over,
                **({"result": result_data(game.state)} if game.over else {})}

    async def _store(self, live: Live, record: MoveRecord, proposer: Client | None = None,
                     ident: dict | None = None) -> bool:
        """Play a judged move on a copy, commit it, then make it the game's (under the game's
        lock), acknowledge it to its ``proposer`` and tell everyone: ``False`` if another
        process stored that move first (this one catches up)."""
        game = live.game
        after = game.state.clone()
        after.apply(Move.parse(record.move))
        stored = await self.store.add_move(live.id, record, after.is_over)
        if not stored:
            await self._catch_up(live)
            return False
        game.state = after
        game.records.append(record)
        self.moves += 1
        if proposer is not None:
            proposer.send("ack", game=live.id, number=record.number, **(ident or {}))
        self._tell_move(live, record)
        return True

    def _tell_move(self, live: Live, record: MoveRecord) -> None:
        game = live.game
        self._broadcast(live, "move", game=live.id, number=record.number,
                        seat=record.seat + 1, move=record.move, by=record.by,
                        **self._situation(game))

    def _broadcast(self, live: Live, kind: str, **fields: Any) -> None:
        text = encode(kind, **fields)
        for client in list(live.followers):
            client.send_text(text)

    async def _catch_up(self, live: Live) -> None:
        """Play the moves other processes stored since this one's last (under the lock)."""
        game = live.game
        if game is None:
            return
        for record in await self.store.moves_since(live.id, game.number):
            if record.number != game.number:
                continue
            try:
                game.play(record)
            except ValueError as exc:  # the database holds a move this engine refuses
                live.game, live.set_aside = None, f"game {live.id}: {exc}"
                log.error("game %s: a stored move does not re-simulate (%s); set aside",
                          live.id, exc)
                await self.store.set_aside(live.id, live.set_aside)
                return
            self._tell_move(live, record)

    async def _heard_moves(self, game: int, count: int) -> None:
        """Another process stored a move (``game`` 0: maybe several, while not listening)."""
        lives = list(self.games.values()) if game == 0 else \
            [self.games[game]] if game in self.games else []
        for live in lives:
            if live.game is None or live.game.number >= count > 0:
                continue
            async with live.lock:
                # Asked again under the lock: the news may be of this process's own move,
                # announced while the move was still being stored and played here.
                before = live.game
                if before is None or before.number >= count > 0:
                    continue
                made = before.number
                await self._catch_up(live)
                changed = live.game is not before or before.number != made
            if changed:  # else this process's own schedule (a computer's move at once) stands
                self._next(live, here=False)

    async def _heard_presence(self, game: int, seat: int, present: bool, process: str) -> None:
        live = self.games.get(game)
        if live is None or live.game is None or not 0 <= seat < len(live.game.seats):
            return
        was = seat in live.present()
        live.remote[(process, seat)] = present
        if (seat in live.present()) != was:
            self._tell_presence(live, seat, not was)

    # -- the server's own moves -----------------------------------------------------------------

    def _next(self, live: Live, here: bool) -> None:
        """After a change, start what the server owes the game: a computer seat's move, or the
        clock of a human seat with a time per move. ``here``: this process made the change,
        so it moves the computer at once (others wait a little, then step in)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        game = live.game
        if game is None or game.over:
            self._forget_if_idle(live)
            return
        seat = game.current_seat
        if seat.kind == "computer":
            pause = self.config.computer_pause if here else FALLBACK_SECONDS
            live.timer = asyncio.create_task(self._server_move(live, game.number, pause,
                                                               seat.level, "computer"))
        elif game.deadline is not None:
            pause = max(0.0, game.deadline - time.time())
            live.timer = asyncio.create_task(self._server_move(live, game.number, pause,
                                                               game.time.level, "timeout"))

    async def _server_move(self, live: Live, number: int, pause: float, level: str,
                           by: str) -> None:
        """Move for a computer seat, or for a seat whose time ran out (``by="timeout"``:
        its computer driver's move, or its retirement where the game drops such seats)."""
        try:
            await asyncio.sleep(pause)
            game = live.game
            if game is None or game.number != number:
                return
            move = None
            if by == "timeout" and game.time.on_timeout == "drop":
                move = game.retirement()
                if game.state.check(move) is not None:
                    move = None  # a missile to move first: the driver moves it
            if move is None:
                seat = game.current_seat.index
                driver = live.drivers.get((seat, level))
                if driver is None:
                    driver = make_driver(level, driver_seed(game.race.seed, seat))
                    live.drivers[(seat, level)] = driver
                copy = game.state.clone()
                loop = asyncio.get_running_loop()
                move = await loop.run_in_executor(self.thinkers, driver.choose, copy)
            async with live.lock:
                if live.game is not game or game.number != number or game.over:
                    return
                if game.state.check(move) is not None:
                    move = game.state.legal_moves()[0]
                stored = await self._store(live, MoveRecord(number, game.current_seat.index,
                                                            str(move), by, time.time()))
            if live.timer is asyncio.current_task():
                live.timer = None
            self._next(live, here=stored)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the server's move failed; trying again shortly", live.id)
            await asyncio.sleep(1.0)
            if live.timer is asyncio.current_task():
                live.timer = None
            self._next(live, here=True)


def _checked_race(message: dict):
    """The race a ``create`` asks for (``SetupError`` says why there is none)."""
    return race_of(new_setup(message), "the new game")


async def run_server(store: Store, config: ServerConfig, ready=None,
                     stop: asyncio.Event | None = None) -> None:
    """Serve until ``stop`` is set (or the task is cancelled); ``ready(server)`` is called
    once it listens."""
    server = GameServer(store, config)
    await server.start()
    try:
        if ready is not None:
            ready(server)
        await (stop.wait() if stop is not None else asyncio.Future())
    finally:
        await server.stop()

