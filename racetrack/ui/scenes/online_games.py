"""My games: every online game the player holds a seat in, on every server used, with whose
turn it is and the time left; open any of them, or forget it.

The servers are asked on a worker thread (``racetrack.net.status``), so the list shows at once
with what is known and fills in when they answer; a server that cannot be reached says so on
its rows.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future, ThreadPoolExecutor

import pygame

from racetrack.net.mygames import MyGame, forget, load_games
from racetrack.net.status import game_statuses
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.scenes.form import FormScene, heading


class MyGamesScene(FormScene):
    caption = "My games"

    def __init__(self, app):
        super().__init__(app)
        self.games, self.problem = load_games()
        self.rows: list[dict] = []
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="my-games")
        self.asking: Future | None = None
        self.refresh()

    def refresh(self) -> None:
        """Ask every server again (off the frame)."""
        self.games, self.problem = load_games()
        if self.asking is None or self.asking.done():
            games = list(self.games)
            self.asking = self.worker.submit(lambda: asyncio.run(game_statuses(games)))
        self.relayout()

    def update(self, dt: float) -> None:
        if self.asking is not None and self.asking.done():
            future, self.asking = self.asking, None
            try:
                self.rows = future.result()
            except Exception as exc:  # a failure to ask must not close the screen
                self.problem = f"could not ask the servers: {exc}"
            self.relayout()
        super().update(dt)

    def layout(self, page: Page, width: int, height: int) -> None:
        top, row = theme.px(120), theme.px(70)
        box = page.scroller((theme.px(20), top, width - theme.px(40),
                             height - top - theme.px(90)),
                            (width - theme.px(60), max(1, len(self.games) * row)))
        button_width = theme.px(110)
        words = {(r["server"], r["game"], r["seat"]): r for r in self.rows}
        for number, game in enumerate(sorted(self.games, key=lambda g: -g.added)):
            y = number * row
            found = words.get(game.key, {})
            mine = found.get("your_turn")
            title = f"{game.track or 'Game'} · game {game.game} · seat {game.seat}" + \
                (f" ({game.name})" if game.name else "")
            text_width = width - theme.px(100) - 2 * (button_width + theme.px(10))
            page.label((theme.px(10), y + theme.px(4), text_width, theme.px(30)), title,
                       container=box, style="big")
            status = found.get("words", "asking the server…" if self.asking else "")
            page.label((theme.px(10), y + theme.px(36), text_width, theme.px(26)),
                       f"{status} · {game.server}", container=box,
                       style=None if mine else "muted")
            right = width - theme.px(80) - 2 * button_width - theme.px(10)
            page.button((right, y + theme.px(12), button_width, theme.px(44)), "Open",
                        lambda g=game: self.open(g), container=box,
                        style="primary" if mine else None)
            page.button((right + button_width + theme.px(10), y + theme.px(12), button_width,
                         theme.px(44)), "Forget", lambda g=game: self.forget(g),
                        container=box, style="danger")
        bottom = height - theme.px(70)
        page.button((theme.px(20), bottom, theme.px(140), theme.px(50)), "Back", self.back)
        page.button((width - theme.px(180), bottom, theme.px(160), theme.px(50)), "Refresh",
                    self.refresh)

    def open(self, game: MyGame) -> None:
        self.app.routes.online_race(game.server, ("join", {"game": game.game,
                                                           "token": game.token}))

    def forget(self, game: MyGame) -> None:
        self.form.confirm("Forget game", f"Forget game {game.game} on {game.server}? The "
                          "game goes on on the server; without its invitation you cannot "
                          "open it again.", "Forget", lambda: self._forgotten(game))

    def _forgotten(self, game: MyGame) -> None:
        try:
            forget(game)
        except (OSError, ValueError) as exc:
            self.problem = str(exc)
        self.refresh()

    def on_show(self) -> None:
        self.refresh()

    def back(self) -> None:
        self.worker.shutdown(wait=False, cancel_futures=True)
        super().back()

    def draw_paper(self, surface: pygame.Surface) -> None:
        heading(surface, "My games", (surface.get_width() // 2, theme.px(30)), 48,
                centred=True)
        note = self.problem or ("" if self.games else
                                "No online games yet: host one, or join one with an invitation")
        if note:
            text = theme.ui_font(21).render(note[:150], True,
                                            (180, 40, 40) if self.problem else theme.MUTED)
            surface.blit(text, text.get_rect(midtop=(surface.get_width() // 2,
                                                     theme.px(88))))
