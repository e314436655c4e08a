"""Whose turn it is in every game the player holds a seat in, asked of every server at once.

One ``status`` message per server (a server that cannot be reached says so on its own rows),
the answers turned into rows the window's My games and ``racetrack online games`` both show.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

from racetrack.net.client import OnlineError, ask_once
from racetrack.net.mygames import MyGame


def time_words(seconds: float | None) -> str:
    """``"2 d 3 h"``, ``"5 min"``, ``"40 s"`` left; ``""`` for no limit."""
    if seconds is None:
        return ""
    seconds = max(0, int(seconds))
    if seconds >= 86_400:
        return f"{seconds // 86_400} d {seconds % 86_400 // 3600} h"
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def status_words(answer: dict[str, Any]) -> str:
    """One line about a game from the server's status answer."""
    if "error" in answer:
        return {"token": "the server does not know this seat's token",
                "unknown-game": "the server has no such game",
                "set-aside": "set aside by the server: its moves do not re-simulate"}.get(
            answer["error"], str(answer["error"]))
    if answer.get("over"):
        result = answer.get("result") or {}
        return f"over: {result.get('winner') or 'nobody'} won ({result.get('reason', '')})"
    turn = answer.get("turn") or {}
    left = time_words(turn.get("left"))
    who = "your turn" if answer.get("your_turn") else f"{turn.get('name', '?')}'s turn"
    return f"{who}, move {turn.get('number', 0) + 1}" + (f", {left} left" if left else "")


async def _ask(server: str, games: list[MyGame]) -> dict[tuple[int, int], dict]:
    reply = await ask_once(server, "status",
                           games=[{"game": g.game, "token": g.token} for g in games])
    answers = {}
    for answer in reply.get("games", []):
        if isinstance(answer, dict) and isinstance(answer.get("game"), int):
            answers[(answer["game"], answer.get("you", 0))] = answer
            answers.setdefault((answer["game"], -1), answer)
    return answers


async def game_statuses(games: list[MyGame]) -> list[dict[str, Any]]:
    """A row per game: the server, game, seat, track, and what is going on there."""
    by_server: dict[str, list[MyGame]] = defaultdict(list)
    for game in games:
        by_server[game.server].append(game)
    servers = list(by_server)
    found = await asyncio.gather(*(_ask(s, by_server[s]) for s in servers),
                                 return_exceptions=True)
    rows = []
    for server, answers in zip(servers, found, strict=True):
        for game in by_server[server]:
            row: dict[str, Any] = {"server": server, "game": game.game, "seat": game.seat,
                                   "name": game.name, "track": game.track}
            if isinstance(answers, BaseException):
                reason = str(answers) if isinstance(answers, OnlineError) else \
                    f"cannot reach the server ({answers})"
                row.update(reachable=False, words=reason, your_turn=False, over=False)
            else:
                answer = answers.get((game.game, game.seat)) or \
                    answers.get((game.game, -1), {"error": "unknown-game"})
                turn = answer.get("turn") or {}
                row.update(reachable=True, words=status_words(answer),
                           your_turn=bool(answer.get("your_turn")),
                           over=bool(answer.get("over")), left=turn.get("left"),
                           track=answer.get("track", game.track))
            rows.append(row)
    return rows
