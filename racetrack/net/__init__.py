"""Online play: races against people on other machines, refereed by a server.

The server holds the one true copy of each game and checks every move with the same engine the
window uses (``racetrack.game``); clients only propose. Layers, each importing only those
before it:

- ``protocol``: the versioned JSON messages, their limits and their checks (no sockets);
- ``codes``: seat tokens, watch codes and invitations, and their hashes;
- ``hosted``: a game as the server holds it (setup, seats, moves, time per move), and the
  referee's verdict on a proposed move;
- ``storage``: where games live (SQLite by default, PostgreSQL for several processes);
- ``server``: the asyncio websocket server;
- ``client``: the connection a window, a bot or a script plays through, with reconnection and
  catch-up; ``bot`` plays a seat with a computer driver;
- ``mygames``: the games this player holds seats in, on every server used;
- ``commands``: ``racetrack serve`` and ``racetrack online ...``.

The protocol is described for writers of other clients in docs/online-protocol.md.
"""
