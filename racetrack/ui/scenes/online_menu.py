"""Play online: host a game, join one with an invitation, the games you play, watch one.

Joining and watching are small forms here: a server's address and an invitation (the game's
number and a seat's token on one line, as the host's screen shows it) or a watch code. A
seat joined is kept in the player's list of online games (``racetrack.net.mygames``) once the
server has shown it, so My games can find it again.
"""

from __future__ import annotations

import pygame

from racetrack.net.client import check_url
from racetrack.net.codes import normal, read_invitation
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.render.words import wrap_pixels
from racetrack.ui.scenes.form import FormScene, heading


class OnlineMenuScene(FormScene):
    caption = "Play online"

    def layout(self, page: Page, width: int, height: int) -> None:
        entries = [("Host a game", self.app.routes.host_online,
                    "Set up a race, and invite friends on other machines to it"),
                   ("Join a game", self.app.routes.join_online,
                    "The host's address and your invitation"),
                   ("My games", self.app.routes.my_games,
                    "The online games you play: whose turn it is, and time left"),
                   ("Watch a game", self.app.routes.watch_online,
                    "Follow a race with its watch code"),
                   ("Back", self.back, "")]
        top = theme.px(150)
        step = min(theme.px(64), (height - top - theme.px(20)) // len(entries))
        button_width = min(theme.px(330), width - theme.px(60))
        for number, (text, action, tip) in enumerate(entries):
            page.button((width // 2 - button_width // 2, top + number * step, button_width,
                         step - theme.px(12)), text, action, tooltip=tip,
                        style="primary" if number == 0 else "big")

    def draw_paper(self, surface: pygame.Surface) -> None:
        heading(surface, "Play online", (surface.get_width() // 2, theme.px(40)), 56,
                centred=True)
        line = theme.ui_font(22).render("Race friends on other machines: the server referees "
                                        "every move", True, theme.MUTED)
        surface.blit(line, line.get_rect(midtop=(surface.get_width() // 2, theme.px(108))))


class AddressForm(FormScene):
    """A server's address and a code, then a button: what Join and Watch share."""

    title = ""
    code_label = ""
    code_hint = ""
    action = ""

    def __init__(self, app, address: str = "ws://127.0.0.1:8765"):
        super().__init__(app)
        self.address = address
        self.code = ""
        self.problem = ""

    def layout(self, page: Page, width: int, height: int) -> None:
        left = max(theme.px(30), width // 2 - theme.px(320))
        field_width = min(theme.px(640), width - 2 * left)
        y = theme.px(150)
        self.address_y = y
        page.entry((left, y + theme.px(28), field_width, theme.px(42)), self.address,
                   on_change=self._address, max_length=300,
                   tooltip="ws://HOST:PORT (the host's screen shows it)")
        y += theme.px(100)
        self.code_y = y
        page.entry((left, y + theme.px(28), field_width, theme.px(42)), self.code,
                   on_change=self._code, max_length=80, tooltip=self.code_hint,
                   on_finish=lambda text: self.go())
        bottom = height - theme.px(80)
        page.button((left, bottom, theme.px(140), theme.px(50)), "Back", self.back,
                    style="big")
        page.button((left + field_width - theme.px(200), bottom, theme.px(200), theme.px(50)),
                    self.action, self.go, style="primary")
        self.left = left

    def first_focus(self, page: Page) -> int:
        return 1  # the code: the address is usually right already

    def _address(self, text: str) -> None:
        self.address = text

    def _code(self, text: str) -> None:
        self.code = text

    def go(self) -> None:
        """Read the address and the code; on with them, or say what is wrong."""
        try:
            url = check_url(self.address)
            follow = self.follow(self.code)
        except ValueError as exc:  # OnlineError is one
            self.problem = str(exc)
            return
        self.app.routes.online_race(url, follow)

    def follow(self, code: str) -> tuple[str, dict]:
        """What to send the server for the code typed (``ValueError`` if it is not one)."""
        raise NotImplementedError

    def draw_paper(self, surface: pygame.Surface) -> None:
        heading(surface, self.title, (surface.get_width() // 2, theme.px(40)), 52,
                centred=True)
        font = theme.ui_font(22)
        for y, words in ((self.address_y, "Server address"), (self.code_y, self.code_label)):
            surface.blit(font.render(words, True, theme.TEXT), (self.left, y))
        if self.problem:  # wrapped to the fields' width
            small = theme.ui_font(21)
            room = surface.get_width() - 2 * self.left
            for number, line in enumerate(wrap_pixels(self.problem[:300], small, room)[:4]):
                surface.blit(small.render(line, True, theme.ERROR),
                             (self.left, self.code_y + theme.px(84) + number *
                              small.get_linesize()))


class JoinScene(AddressForm):
    caption = title = "Join a game"
    code_label = "Invitation"
    code_hint = "the line the host sent you: 12-ABCDE-FGHJK-..."
    action = "Join"

    def follow(self, code: str) -> tuple[str, dict]:
        game, token = read_invitation(code)
        return "join", {"game": game, "token": token}


class WatchScene(AddressForm):
    caption = title = "Watch a game"
    code_label = "Watch code"
    code_hint = "ten letters and digits, like XF3ZP-JC0Y0"
    action = "Watch"

    def follow(self, code: str) -> tuple[str, dict]:
        if not normal(code):
            raise ValueError("a watch code is letters and digits, like XF3ZP-JC0Y0")
        return "watch", {"watch": normal(code)}
