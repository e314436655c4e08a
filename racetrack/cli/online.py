"""``racetrack serve`` and ``racetrack online ...``: the server, and online games without a
window (for bots, scripts and tests).

Registered on the command line in one call (``add_online_commands``). Nothing here is imported
by ``racetrack --help`` but the parser itself: asyncio, the server and the client load when a
command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from racetrack.cli.common import chosen_rules, find_track, load_track, say
from racetrack.search.drivers import LEVELS

EXIT_OK = 0


def add_online_commands(commands) -> None:
    serve = commands.add_parser("serve", help="run a game server for online races")
    serve.add_argument("--host", default="127.0.0.1", metavar="ADDR",
                       help="the address to listen on (default: 127.0.0.1, this machine "
                            "only; 0.0.0.0 for every network)")
    serve.add_argument("--port", type=int, default=8765, metavar="N",
                       help="the port (default: 8765; 0 picks a free one)")
    serve.add_argument("--db", default=None, metavar="PATH_OR_URL",
                       help="an SQLite file (default: games.sqlite3 in the data folder) or "
                            "postgresql://... (several servers on one database)")
    serve.add_argument("--certfile", metavar="F", help="TLS certificate (for wss://)")
    serve.add_argument("--keyfile", metavar="F", help="TLS private key (for wss://)")
    serve.add_argument("--computer-pause", type=float, default=0.0, metavar="SECONDS",
                       help="how long computer seats wait before moving (default: 0)")
    serve.add_argument("--client-buffer", type=int, default=2 * 1024 * 1024, metavar="BYTES",
                       help="how much may wait for a client that does not read before it is "
                            "disconnected (default: 2 MiB)")
    serve.add_argument("--close-timeout", type=float, default=5.0, metavar="SECONDS",
                       help="how long a client closed by the server is given to answer "
                            "before its connection is dropped (default: 5)")
    serve.set_defaults(run=run_serve)

    online = commands.add_parser("online", help="online games without a window: make one, "
                                 "play a seat with a computer driver, watch, export")
    verbs = online.add_subparsers(dest="verb", metavar="VERB", required=True)

    new = verbs.add_parser("new", help="make a game on a server; print its seats' tokens and "
                                       "its watch code")
    new.add_argument("url", metavar="URL", help="the server: ws://HOST:PORT or wss://...")
    new.add_argument("--track", required=True, metavar="T",
                     help="a bundled track's name or a track file")
    new.add_argument("--rules", default=None, metavar="R",
                     help="a rule variant's name or a rules file (default: the track's, "
                          "else gardner)")
    new.add_argument("--seats", type=int, default=None, metavar="N",
                     help="human seats (default: 2, or 1 when --ai is given)")
    new.add_argument("--ai", action="append", default=[], metavar="LEVEL", choices=LEVELS,
                     help=f"add a computer seat the server plays ({', '.join(LEVELS)}); "
                          "repeatable")
    new.add_argument("--move-time", type=float, default=None, metavar="SECONDS",
                     help="time for each move (default: no limit)")
    new.add_argument("--on-timeout", choices=("computer", "drop"), default="computer",
                     help="when a seat's time runs out: a computer driver makes that move "
                          "(default), or the car drops out")
    new.add_argument("--timeout-driver", choices=LEVELS, default="medium", metavar="LEVEL",
                     help="the driver that moves for a seat out of time (default: medium)")
    new.add_argument("--json", action="store_true", help="print the game as JSON")
    new.set_defaults(run=run_new, overrides=[])

    play = verbs.add_parser("play", help="play a seat with a computer driver to the end")
    play.add_argument("url", metavar="URL")
    play.add_argument("game", type=int, metavar="GAME")
    play.add_argument("--token", required=True, metavar="T", help="the seat's token")
    play.add_argument("--driver", choices=LEVELS, default="medium", metavar="LEVEL",
                      help="the driver's level (default: medium)")
    play.add_argument("--save", metavar="FILE", help="save the race as a replay file")
    play.add_argument("--patience", type=float, default=300.0, metavar="SECONDS",
                      help="how long to keep trying to reach a server that is down "
                           "(default: 300)")
    play.add_argument("--json", action="store_true",
                      help="print the result as `racetrack race --json` does")
    play.set_defaults(run=run_play)

    watch = verbs.add_parser("watch", help="follow a game by its watch code to the end")
    watch.add_argument("url", metavar="URL")
    watch.add_argument("code", metavar="CODE", help="the game's watch code")
    watch.add_argument("--save", metavar="FILE", help="save the race as a replay file")
    watch.add_argument("--patience", type=float, default=300.0, metavar="SECONDS")
    watch.add_argument("--json", action="store_true", help="print the result as JSON")
    watch.set_defaults(run=run_watch)

    export = verbs.add_parser("export", help="write a game so far as a replay file")
    export.add_argument("url", metavar="URL")
    export.add_argument("game", metavar="GAME",
                        help="the game's number (a finished game), or its watch code")
    export.add_argument("file", metavar="FILE")
    export.add_argument("--token", metavar="T", help="a seat's token (a game under way)")
    export.set_defaults(run=run_export)

    games = verbs.add_parser("games", help="the games you hold a seat in, on every server, "
                                           "and whose turn it is")
    games.add_argument("--json", action="store_true")
    games.set_defaults(run=run_games)


def _run(coroutine) -> Any:
    """Run a client's coroutine; its ``OnlineError`` becomes the command line's one line."""
    import asyncio

    from racetrack.base.errors import RacetrackError
    from racetrack.net.client import OnlineError

    try:
        return asyncio.run(coroutine)
    except OnlineError as exc:
        raise RacetrackError(str(exc)) from None


# -- the server ---------------------------------------------------------------------------------


def run_serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal

    from racetrack.base.errors import RacetrackError
    from racetrack.net.server import ServerConfig, run_server
    from racetrack.net.stores import default_database, open_store

    if bool(args.certfile) != bool(args.keyfile):
        raise RacetrackError("--certfile and --keyfile go together")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)
    config = ServerConfig(host=args.host, port=args.port, certfile=args.certfile,
                          keyfile=args.keyfile, computer_pause=max(0.0, args.computer_pause),
                          client_buffer=max(1024, args.client_buffer),
                          close_timeout=min(max(0.1, args.close_timeout), 60.0))
    store = open_store(args.db)
    where = args.db if args.db else str(default_database())
    if "://" in where and "@" in where:  # never print a password
        where = where.split("://", 1)[0] + "://" + where.rsplit("@", 1)[1]

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)

        def ready(server) -> None:
            scheme = "wss" if args.certfile else "ws"
            print(f"serving on {scheme}://{args.host}:{server.port} (games in {where})",
                  flush=True)

        await run_server(store, config, ready, stop)

    try:
        asyncio.run(main())
    except OSError as exc:
        raise RacetrackError(f"cannot serve on {args.host}:{args.port}: "
                             f"{exc.strerror or exc}") from None
    return EXIT_OK


# -- making a game ------------------------------------------------------------------------------


def new_game_message(track, rules, humans: int, computers: list[str],
                     move_time: float | None = None, on_timeout: str = "computer",
                     timeout_level: str = "medium", names: list[str] | None = None
                     ) -> dict[str, Any]:
    """The ``create`` message for a track and rules (sent whole, so a track of the player's
    own races as well as a bundled one)."""
    from racetrack.board.track import track_to_data

    seats = [{"kind": "human", **({"name": names[i]} if names and i < len(names) else {})}
             for i in range(humans)]
    seats += [{"kind": "computer", "level": level} for level in computers]
    return {"track": track_to_data(track), "rules": rules.to_data(), "seats": seats,
            "move_time": move_time, "on_timeout": on_timeout, "timeout_level": timeout_level}


def run_new(args: argparse.Namespace) -> int:
    from racetrack.base.errors import RacetrackError
    from racetrack.net.client import ask_once, check_url
    from racetrack.net.codes import grouped, invitation
    from racetrack.net.protocol import MAX_SEATS

    url = _checked(check_url, args.url)
    humans = args.seats if args.seats is not None else (1 if args.ai else 2)
    if humans < 0 or humans + len(args.ai) < 1 or humans + len(args.ai) > MAX_SEATS:
        raise RacetrackError(f"a game has 1 to {MAX_SEATS} seats (--seats and --ai)")
    if args.move_time is not None and not 0 < args.move_time <= 30 * 24 * 3600:
        raise RacetrackError("--move-time is seconds from 0 to 30 days")
    track = load_track(find_track(args.track))
    rules = chosen_rules(args, track)
    message = new_game_message(track, rules, humans, args.ai, args.move_time,
                               args.on_timeout, args.timeout_driver)
    reply = _run(ask_once(url, "create", **message))
    if args.json:
        say(json.dumps({"game": reply["game"],
                         "seats": [{"seat": s["seat"], "token": s["token"]}
                                   for s in reply["seats"]],
                         "watch": reply["watch"]}))
        return EXIT_OK
    say(f"game {reply['game']} on {url}: {track.name}, {rules.name} rules; watch code "
         f"{grouped(reply['watch'])}")
    for seat in reply["seats"]:
        say(f"seat {seat['seat']} ({seat['name']}): token {seat['token']}, invitation "
             f"{invitation(reply['game'], seat['token'])}")
    return EXIT_OK


def _checked(function, *args):
    from racetrack.base.errors import RacetrackError
    from racetrack.net.client import OnlineError

    try:
        return function(*args)
    except OnlineError as exc:
        raise RacetrackError(str(exc)) from None


# -- playing and watching -----------------------------------------------------------------------


def _finish(args: argparse.Namespace, state) -> int:
    from racetrack.games.playout import race_result
    from racetrack.games.replay import save_replay

    if args.save:
        save_replay(state, args.save)
    result = race_result(state)
    if args.json:
        say(json.dumps(result))
        return EXIT_OK
    say(f"{result['track']}, {result['rules']} rules: {result['reason']}")
    for place, name in enumerate(result["ranking"], start=1):
        car = next(c for c in result["cars"] if c["name"] == name)
        status = (f"finished in turn {car['finish_round']}" if car["finish_round"]
                  else car["status"])
        say(f"{place}. {name}: {status}, {car['moves']} moves, damage {car['damage']}")
    say(f"Winner: {result['winner'] or 'nobody'} after {result['turns']} turns")
    return EXIT_OK


def run_play(args: argparse.Namespace) -> int:
    from racetrack.net.bot import play_seat
    from racetrack.net.client import check_url
    from racetrack.net.codes import normal

    url = _checked(check_url, args.url)
    state = _run(play_seat(url, args.game, normal(args.token) or args.token, args.driver,
                           args.patience))
    return _finish(args, state)


def run_watch(args: argparse.Namespace) -> int:
    from racetrack.net.bot import follow
    from racetrack.net.client import check_url
    from racetrack.net.codes import normal

    url = _checked(check_url, args.url)
    state = _run(follow(url, normal(args.code) or args.code, args.patience))
    return _finish(args, state)


def run_export(args: argparse.Namespace) -> int:
    from racetrack.base.errors import RacetrackError
    from racetrack.base.yamlio import YamlDocument
    from racetrack.games.replay import replay_from_document, save_replay
    from racetrack.net.client import ask_once, check_url
    from racetrack.net.codes import normal

    url = _checked(check_url, args.url)
    if args.game.isdigit():
        fields: dict[str, Any] = {"game": int(args.game)}
        if args.token:
            fields["token"] = normal(args.token) or args.token
    elif normal(args.game):
        fields = {"watch": normal(args.game)}
    else:
        raise RacetrackError(f"{args.game!r} is neither a game's number nor a watch code")
    reply = _run(ask_once(url, "export", **fields))
    # The server's replay is checked here as any file is: re-simulated, its result compared.
    replay = replay_from_document(YamlDocument(reply.get("replay"), f"game {reply['game']}"))
    state = replay.verify()
    save_replay(state, args.file)
    verdict = "finished" if state.is_over else "under way"
    say(f"game {reply['game']} ({verdict}, {len(state.history)} moves) written to "
         f"{args.file}")
    return EXIT_OK


def run_games(args: argparse.Namespace) -> int:
    from racetrack.net.mygames import load_games
    from racetrack.net.status import game_statuses

    games, problem = load_games()
    if problem:
        print(f"warning: {problem}", file=sys.stderr)
    rows = _run(game_statuses(games))
    if args.json:
        say(json.dumps(rows))
        return EXIT_OK
    if not rows:
        say("no online games yet (host or join one in the window)")
    for row in rows:
        say(f"{row['server']} game {row['game']} seat {row['seat']}: {row['words']}")
    return EXIT_OK
