"""The shop before a race (Baker's Design Your Own Car, and James Bond mode): each human car in
turn buys with - and + buttons, the money left shown; computer cars buy the suggested kit.
When the last car is done, ``on_done`` gets the cars with their kits. The buttons are
pygame_gui's, each with what it buys and for how much."""

from __future__ import annotations

from dataclasses import replace

import pygame

from racetrack.model import CarSetup, Kit
from racetrack.rules import RuleSet
from racetrack.shop import budget_of, buy, can_buy, sell, shop_items, suggested_kit
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.scenes.form import FormScene, heading

ROW = 52


class ShopScene(FormScene):
    idles = True
    caption = "Shop"

    def __init__(self, app, rules: RuleSet, cars: list[CarSetup], on_done, heading: str = ""):
        super().__init__(app)
        self.rules = rules
        self.items = shop_items(rules)
        self.heading = heading  # e.g. the championship's race number
        self.cars = [car if car.is_human else
                     replace(car, kit=suggested_kit(rules, budget_of(rules, car)))
                     for car in cars]
        self.on_done = on_done
        self.shopper = -1
        self.kit = Kit()
        self.left = 0
        self._next()

    @property
    def budget(self) -> int:
        return budget_of(self.rules, self.cars[self.shopper])

    def _next(self) -> None:
        """Move on to the next human car, or finish."""
        if self.shopper >= 0:
            self.cars[self.shopper] = replace(self.cars[self.shopper], kit=self.kit)
        self.shopper += 1
        while self.shopper < len(self.cars) and not self.cars[self.shopper].is_human:
            self.shopper += 1
        if self.shopper >= len(self.cars):
            self.on_done(self.cars)
            return
        self.kit = Kit(money=self.budget)
        self.relayout()

    def change(self, item: str, more: bool) -> None:
        self.kit = (buy if more else sell)(self.rules, self.kit, self.budget, item)
        self.relayout()

    @property
    def row(self) -> int:
        """The rows' spacing: closer together on a short window, so Done stays below them."""
        return max(theme.px(30), min(theme.px(ROW), (self.app.size[1] - theme.px(250))
                                     // max(1, len(self.items))))

    def layout(self, page: Page, width: int, height: int) -> None:
        self.left = width // 2 - min(theme.px(300), width // 2 - theme.px(16))
        right = width - self.left
        tall = min(theme.px(40), self.row - theme.px(4))
        small = min(theme.px(44), tall + theme.px(4))
        for row, (item, label) in enumerate(self.items):
            y = theme.px(170) + row * self.row
            page.button((right - theme.px(170), y, small, tall), "-",
                        lambda item=item: self.change(item, False),
                        enabled=bool(getattr(self.kit, item)), tooltip=f"Sell back: {label}")
            page.button((right - small, y, small, tall), "+",
                        lambda item=item: self.change(item, True),
                        enabled=can_buy(self.rules, self.kit, self.budget, item),
                        tooltip=f"Buy: {label} (${self.rules.prices()[item]})")
        done_y = theme.px(180) + len(self.items) * self.row
        self.done = page.button((width // 2 - theme.px(110), min(done_y, height - theme.px(66)),
                                 theme.px(220), theme.px(50)), "Done", self._next,
                                style="primary", tooltip="This car is ready: on to the next, "
                                                         "or the race")

    def first_focus(self, page: Page) -> int:
        return page.widgets.index(self.done)

    def draw_paper(self, surface: pygame.Surface) -> None:
        width = surface.get_width()
        if self.shopper >= len(self.cars):
            return
        car = self.cars[self.shopper]
        heading(surface, f"{car.name}'s shop", (width // 2, theme.px(30)), 54, centred=True)
        sub = (f"{self.heading} · " if self.heading else "") + \
            f"${self.budget} to spend · ${self.kit.money} left"
        text = theme.ui_font(26).render(sub, True, theme.TEXT)
        surface.blit(text, text.get_rect(center=(width // 2, theme.px(112))))
        if not self.kit.damage:
            warn = theme.ui_font(20).render("No damage points: the car blows up at its first "
                                            "hit", True, theme.ERROR)
            surface.blit(warn, warn.get_rect(center=(width // 2, theme.px(142))))
        right = width - self.left
        font, bold = theme.ui_font(24), theme.ui_font(26, bold=True)
        small = min(theme.px(44), min(theme.px(40), self.row - theme.px(4)) + theme.px(4))
        for row, (item, label) in enumerate(self.items):
            middle = theme.px(170) + row * self.row + min(theme.px(40), self.row - theme.px(4)) // 2
            name = font.render(label, True, theme.TEXT)
            surface.blit(name, name.get_rect(midleft=(self.left, middle)))
            price = font.render(f"${self.rules.prices()[item]}", True, theme.MUTED)
            surface.blit(price, price.get_rect(midright=(right - theme.px(190), middle)))
            count = getattr(self.kit, item)
            shown = ("yes" if count else "no") if item == "submarine" else str(count)
            value = bold.render(shown, True, theme.TEXT)
            surface.blit(value, value.get_rect(center=((right - theme.px(170) + small
                                                        + right - small) // 2, middle)))
