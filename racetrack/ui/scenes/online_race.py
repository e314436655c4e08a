"""An online race: the race screen, with the server as the referee.

It is the local race scene (the same paper, marks, hovers and outlooks) with one difference
in who decides: a click proposes the move to the server, and a car moves on the screen only
when the server tells the move (the player's own included), so what is drawn is always the
server's game. The network runs on a thread of its own (``racetrack.net.client``); each frame
takes what it has heard. While others move the bar says whose turn it is and how long they
have; a lost connection is said on the screen and made again by itself, catching the game up
from the last move seen. Leaving the screen leaves the game on the server.

``ConnectingScene`` comes first: it opens the connection and waits for the game off the frame,
with a Back button, and says why if the server refuses.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from racetrack.engine.model import Move
from racetrack.net.client import Mirror, OnlineError, ThreadedSession
from racetrack.net.status import time_words
from racetrack.ui import theme, waking
from racetrack.ui.gui import Page
from racetrack.ui.input import Intent, Key
from racetrack.ui.render import hud
from racetrack.ui.scenes.form import FormScene, heading
from racetrack.ui.scenes.race import RaceScene

#: What to send to follow a game: ("join", {"game", "token"}) or ("watch", {"watch"}).
Follow = tuple[str, dict]


class ConnectingScene(FormScene):
    """Connect, and open the race when the server has sent the game."""

    caption = "Connecting"
    idles = True  # the network's messages wake the window

    def __init__(self, app, url: str, follow: Follow,
                 ready: Callable[[ThreadedSession, Mirror], None]):
        super().__init__(app)
        self.url, self.follow, self.ready = url, follow, ready
        self.problem = ""
        self.state = "connecting"
        self.session: ThreadedSession | None = None
        try:
            self.session = ThreadedSession(url, lambda: [(follow[0], {**follow[1], "since": 0})],
                                           patience=30.0, heard=waking.wake)
        except OnlineError as exc:
            self.problem = str(exc)

    def layout(self, page: Page, width: int, height: int) -> None:
        page.button((width // 2 - theme.px(80), height // 2 + theme.px(60), theme.px(160),
                     theme.px(50)), "Back", self.back)

    def back(self) -> None:
        if self.session is not None:
            self.session.close()
        self.app.pop()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.session is None or self.problem:
            return
        for message in self.session.poll():
            kind = message.get("type")
            if kind == "connection":
                self.state = message.get("state", "")
                if self.state == "failed":
                    self.problem = message.get("reason", "the connection failed")
            elif kind == "error":
                self.problem = str(message.get("reason", "refused"))
                self.session.close()
            elif kind == "game":
                try:
                    mirror = Mirror(message)
                except OnlineError as exc:
                    self.problem = str(exc)
                    self.session.close()
                    return
                session, self.session = self.session, None
                self.ready(session, mirror)
                return

    def draw_paper(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        heading(surface, "Online race", (width // 2, height // 2 - theme.px(90)), 44,
                centred=True)
        words = self.problem or {"connecting": f"Connecting to {self.url}…",
                                 "connected": "Connected: waiting for the game…",
                                 "lost": f"Cannot reach {self.url} yet: trying again…"}.get(
            self.state, self.state)
        colour = (180, 40, 40) if self.problem else theme.MUTED
        text = theme.ui_font(24).render(words[:160], True, colour)
        surface.blit(text, text.get_rect(center=(width // 2, height // 2)))


class OnlineRaceScene(RaceScene):
    """A race whose moves the server makes: clicks propose, the server's word moves cars."""

    def __init__(self, app, session: ThreadedSession, mirror: Mirror, url: str, follow: Follow,
                 animation_seconds: float = 0.35, on_over=None):
        self.session = session
        self.mirror = mirror
        self.url = url
        self.follow = follow
        self.seat = mirror.seat  # our car's index, or None for a spectator
        self.connection = "connected"
        self.proposed: int | None = None  # the number of the move proposed, not yet told
        self.heard: list[dict] = []  # moves told while a car still glides
        self.turn: dict | None = mirror.message.get("turn")
        self.turn_heard = time.monotonic()
        self.away: set[int] = {s["seat"] - 1 for s in mirror.message.get("seats", [])
                               if not s.get("present", True)}
        super().__init__(app, mirror.race, {}, animation_seconds, on_over, mirror.state,
                         record=None)
        session.join = self._join

    def _join(self) -> list[tuple[str, dict]]:
        """Sent each time the connection opens again: the game from the last move seen."""
        return [(self.follow[0], {**self.follow[1], "since": len(self.state.history)})]

    def _ask_again(self) -> None:
        """Ask for the game again from the last move seen, on the open connection."""
        for kind, fields in self._join():
            self.session.send(kind, **fields)

    @property
    def caption(self) -> str:
        return f"online race on {self.race.track.name}"

    @property
    def human_turn(self) -> bool:
        return (self.seat is not None and self.state.current_car == self.seat
                and self.glide is None and self.proposed is None
                and self.connection == "connected" and not self.heard)

    @property
    def people_done(self) -> bool:
        """Never: the server plays the race out, the other seats' players with it; there is
        nothing here to finish at once."""
        return False

    def intro_lines(self) -> list[str]:
        lines = super().intro_lines()
        you = "you are watching" if self.seat is None else \
            f"you drive {self.race.cars[self.seat].name}"
        return [*lines[:2], f"Online: {you} · the server makes every move"]

    # -- moves ------------------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """The player's click: proposed to the server, drawn when the server tells it."""
        if not self.human_turn:
            return
        if self.armed is not None and move.action is None:
            move = Move(move.target, self.armed)
        reason = self.state.check(move)
        if reason is not None:
            self.toasts.append(hud.Toast(reason))
            return
        self.proposed = len(self.state.history)
        fields = {"game": self.mirror.game, "number": self.proposed, "move": str(move),
                  **({"token": self.follow[1]["token"]} if "token" in self.follow[1] else {})}
        self.session.send("move", **fields)

    def _told(self, number: int, seat: int, text: str) -> None:
        """A move the server made: drawn as the local race draws its own."""
        if number != len(self.state.history):
            return
        if self.state.current_car != seat - 1:
            self._lost_step(f"move {number} is not the next seat's")
            return
        armed, self.armed = self.armed, None
        try:
            RaceScene.play(self, Move.parse(text))
        finally:
            if self.state.current_car == self.seat and number != self.proposed:
                self.armed = armed
        if number == self.proposed:
            self.proposed = None

    def _lost_step(self, why: str) -> None:
        """The copy and the server disagree: ask for the game again from where they agree."""
        self.toasts.append(hud.Toast(f"Catching up with the server ({why})"))
        self._ask_again()

    # -- what the network says --------------------------------------------------------------

    def update(self, dt: float) -> None:
        for message in self.session.poll():
            self._hear(message)
        if self.glide is None and self.heard and not self.intro:
            message = self.heard.pop(0)
            self._told(message["number"], message["seat"], message["move"])
        super().update(dt)

    def _hear(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "connection":
            state = message.get("state", "")
            if state != self.connection:
                if state == "lost":
                    self.toasts.append(hud.Toast("Connection lost: trying again…"))
                elif state == "connected" and self.connection == "lost":
                    self.toasts.append(hud.Toast("Connected again"))
                elif state == "failed":
                    self.toasts.append(hud.Toast(message.get("reason", "connection failed")))
            self.connection = "connected" if state == "connected" else state
            self.proposed = None if state != "connected" else self.proposed
        elif kind == "move" and message.get("game") == self.mirror.game:
            self.heard.append(message)
            self.turn, self.turn_heard = message.get("turn"), time.monotonic()
        elif kind == "game" and message.get("game") == self.mirror.game:
            first = message.get("first", 0)
            for offset, (seat, move) in enumerate(message.get("moves", [])):
                self.heard.append({"number": first + offset, "seat": seat, "move": move})
            self.turn, self.turn_heard = message.get("turn"), time.monotonic()
            self.away = {s["seat"] - 1 for s in message.get("seats", [])
                         if not s.get("present", True)}
        elif kind == "presence" and message.get("game") == self.mirror.game:
            seat = message["seat"] - 1
            name = message.get("name") or self.race.cars[seat].name
            present = bool(message.get("present"))
            (self.away.discard if present else self.away.add)(seat)
            if seat != self.seat:  # one's own coming and going is no news
                self.toasts.append(hud.Toast(f"{name} is {'back' if present else 'away'}"))
        elif kind == "refused":
            self.proposed = None
            self.toasts.append(hud.Toast(f"The server refused the move: "
                                         f"{message.get('reason', '')}"))
            if message.get("code") == "stale":
                self._ask_again()
        elif kind == "error":
            self.toasts.append(hud.Toast(str(message.get("reason", "error"))))

    # -- what is shown ----------------------------------------------------------------------

    def status(self) -> str:
        """The line under the paper: the connection, and whose turn it is."""
        if self.connection != "connected":
            return "Connection lost: trying again…" if self.connection != "failed" else \
                "Cannot reach the server: leave with Esc, and open the game again later"
        if self.state.is_over:
            return "The race is over"
        index = self.state.current_car
        if index is None:
            return ""
        name = self.race.cars[index].name
        left = ""
        if self.turn and self.turn.get("left") is not None:
            remaining = self.turn["left"] - (time.monotonic() - self.turn_heard)
            left = f" · {time_words(remaining)} left"
        if self.proposed is not None:
            return "Sent: waiting for the server…"
        if index == self.seat:
            return f"Your turn{left}"
        away = " (away)" if index in self.away else ""
        return f"{name}{away} to move{left}"

    @property
    def wake_in(self) -> float | None:
        """Seconds until the status line changes by the clock alone (the time left to move,
        counted down a second at a time), for the window that sleeps between inputs."""
        if self.connection != "connected" or not self.turn or self.turn.get("left") is None:
            return None
        remaining = self.turn["left"] - (time.monotonic() - self.turn_heard)
        return max(0.05, remaining % 1.0) if remaining > 0 else None

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        words = self.status()
        if not words or self.intro:
            return
        font = theme.ui_font(22, bold=True)
        text = font.render(words, True, theme.TEXT)
        # Under the bar, clear of the toasts that rise from the bottom.
        box = text.get_rect(midtop=(surface.get_width() // 2, hud.bar_height() + theme.px(14)))
        card = box.inflate(theme.px(28), theme.px(14))
        lost = self.connection != "connected"
        pygame.draw.rect(surface, (250, 226, 222) if lost else theme.PANEL, card,
                         border_radius=theme.px(10))
        pygame.draw.rect(surface, (180, 40, 40) if lost else theme.PANEL_EDGE, card, 2,
                         border_radius=theme.px(10))
        surface.blit(text, box)

    # -- leaving ----------------------------------------------------------------------------

    def handle(self, intent: Intent) -> None:
        if isinstance(intent, Key) and intent.name == "escape":
            self.leave()
            return
        super().handle(intent)

    def leave(self) -> None:
        """Back to where the race was opened from; the game goes on on the server."""
        self.close()
        self.app.pop()

    def close(self) -> None:
        self.session.close()
        super().close()
