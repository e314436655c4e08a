"""Host a game: the race set up as New race sets it up, played on a server on this machine.

Players marked human are seats for people (the host takes the first, the others get an
invitation each); computer players are seats the server drives. Hosting starts the machine's
server in the background if it is not running (``racetrack.net.hosting``) and asks it for the
game, both on a worker thread; then the invitations screen shows the address friends connect
to, an invitation per seat (a line to read out or paste, in a field that selects itself for
copying) and the watch code. Online races have no shop: every car starts with the rules' kit.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace

import pygame

from racetrack.board.track import track_to_data
from racetrack.engine.shop import shop_items
from racetrack.games.lineup import line_up
from racetrack.games.race import Race
from racetrack.net.client import ask_once
from racetrack.net.codes import grouped, invitation
from racetrack.net.hosting import local_server
from racetrack.net.mygames import MyGame, remember
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.scenes.form import FormScene, heading
from racetrack.ui.scenes.setup import ERROR, SetupScene, default_name

#: Time per move a host may choose, and its seconds (None: no limit).
MOVE_TIMES = {"no time limit": None, "1 min a move": 60.0, "10 min a move": 600.0,
              "1 hour a move": 3600.0, "1 day a move": 86_400.0, "3 days a move": 259_200.0}


class HostSetupScene(SetupScene):
    caption, start_label = "Host a game", "Host game"

    def __init__(self, app):
        super().__init__(app)
        self.move_time = "no time limit"

    @property
    def time_trial(self) -> bool:
        return False  # alone online is still a race on the server, not a time trial

    def layout_take_backs(self, page: Page, x: int, y: int, right: int) -> int:
        """In the take-backs' place (the server holds every move made: none is taken back
        online), the time each player has for a move; returns the y below it."""
        field = theme.px(36)
        self.time_choice = page.choice(
            (x, y, right - x, field), list(MOVE_TIMES), self.move_time, self._time,
            tooltip="Time for each move; when it runs out a computer driver makes that move",
            upward=True)
        return y + field + theme.px(10)

    def _time(self, value: str) -> None:
        self.move_time = value

    def notes(self) -> list[tuple[str, tuple[int, int, int]]]:
        found = super().notes()
        found.append(("Human players are seats for people: you take the first, the others "
                      "get an invitation. Computer players are driven by the server.",
                      theme.MUTED))
        if shop_items(self.chosen_rules()):
            found.append(("Online races have no shop: every car starts with the rules' kit",
                          theme.MUTED))
        return found

    def start(self) -> None:
        choice = self.tracks[self.selected]
        players = [replace(p, name=p.name.strip() or default_name(p.driver, i + 1),
                           reverse=False) for i, p in enumerate(self.players)]
        rules = self.chosen_rules()
        cars = line_up(rules, players)
        try:
            Race(choice.track, rules, cars)  # too many cars for the start line, say
        except ValueError as exc:
            self.error = str(exc)
            return
        seats = [{"kind": "human", "name": car.name} if car.is_human
                 else {"kind": "computer", "level": car.driver, "name": car.name}
                 for car in cars]
        for seat, car in zip(seats, cars, strict=True):
            if car.team:
                seat["team"] = car.team
        message = {"track": track_to_data(choice.track), "rules": rules.to_data(),
                   "seats": seats, "move_time": MOVE_TIMES[self.move_time],
                   "on_timeout": "computer", "timeout_level": "medium"}
        self.par.close()
        self.app.routes.invitations(message, choice.track.name)


class InvitationsScene(FormScene):
    """The hosted game: the address, an invitation per seat, the watch code, and Play."""

    caption = "Invitations"

    def __init__(self, app, message: dict, track_name: str):
        super().__init__(app)
        self.track_name = track_name
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="host")
        self.hosting: Future | None = self.worker.submit(self._host, message)
        self.reply: dict | None = None
        self.address = self.url = ""
        self.problem = ""
        self.left = 0

    @staticmethod
    def _host(message: dict) -> tuple[str, str, dict]:
        url, address = local_server()
        return url, address, asyncio.run(ask_once(url, "create", **message))

    def update(self, dt: float) -> None:
        if self.hosting is not None and self.hosting.done():
            future, self.hosting = self.hosting, None
            try:
                self.url, self.address, self.reply = future.result()
            except Exception as exc:  # no server, or it refused: said on the screen
                self.problem = f"Could not host the game: {exc}"
            else:
                self._keep()
            self.relayout()
        super().update(dt)

    def _keep(self) -> None:
        """The host's own seat joins My games."""
        reply = self.reply
        if reply and reply["seats"]:
            seat = reply["seats"][0]
            try:
                remember(MyGame(self.url, reply["game"], seat["seat"], seat["token"],
                                seat.get("name", ""), self.track_name, reply["watch"]))
            except (OSError, ValueError) as exc:
                self.problem = f"Could not keep the game in My games: {exc}"

    def layout(self, page: Page, width: int, height: int) -> None:
        field = min(theme.px(560), width - theme.px(280))
        left = max(theme.px(30), (width - theme.px(230) - field) // 2)
        self.left = left
        self.rows_y = []
        y = theme.px(160)
        if self.reply is not None:
            rows = [(f"Seat {s['seat']} ({s['name']})" + (": you" if n == 0 else ""),
                     invitation(self.reply["game"], s["token"]))
                    for n, s in enumerate(self.reply["seats"])]
            rows.append(("Watch code (for spectators)", grouped(self.reply["watch"])))
            for words, code in rows:
                self.rows_y.append((y, words))
                page.entry((left + theme.px(230), y, field, theme.px(38)), code,
                           max_length=80, tooltip="Select, then Ctrl+C to copy")
                y += theme.px(48)
        bottom = height - theme.px(70)
        page.button((theme.px(30), bottom, theme.px(160), theme.px(50)), "Menu",
                    self.app.routes.menu, style="big")
        if self.reply is not None:
            seats = self.reply["seats"]
            words = "Play" if seats else "Watch"
            page.button((width - theme.px(230), bottom, theme.px(200), theme.px(50)), words,
                        self.play, style="primary")

    def first_focus(self, page: Page) -> int:
        return max(0, len(page.widgets) - 1)  # Enter plays

    def play(self) -> None:
        reply = self.reply
        assert reply is not None
        if reply["seats"]:
            follow = ("join", {"game": reply["game"], "token": reply["seats"][0]["token"]})
        else:
            follow = ("watch", {"watch": reply["watch"]})
        self.app.routes.online_race(self.url, follow)

    def back(self) -> None:
        self.worker.shutdown(wait=False)
        self.app.routes.menu()

    def draw_paper(self, surface: pygame.Surface) -> None:
        width = surface.get_width()
        reply = self.reply
        title = f"Game {reply['game']} on {self.track_name}" if reply else \
            f"Hosting a game on {self.track_name}…"
        heading(surface, title, (width // 2, theme.px(24)), 44, centred=True)
        font = theme.ui_font(22)
        if reply is not None:
            line = f"Friends connect to {self.address} with their invitation (Join a game)"
            text = font.render(line, True, theme.TEXT)
            surface.blit(text, text.get_rect(midtop=(width // 2, theme.px(96))))
        for y, words in getattr(self, "rows_y", []):
            text = font.render(words, True, theme.TEXT)
            surface.blit(text, text.get_rect(midleft=(self.left, y + theme.px(19))))
        if self.problem:
            text = theme.ui_font(21).render(self.problem[:150], True, ERROR)
            surface.blit(text, text.get_rect(midtop=(width // 2, theme.px(126))))
