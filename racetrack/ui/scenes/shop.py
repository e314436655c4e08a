"""The shop before a race (Baker's Design Your Own Car, and James Bond mode): each human car in
turn buys with - and + buttons, the money left shown; computer cars buy the suggested kit.
When the last car is done, ``on_done`` gets the cars with their kits."""

from __future__ import annotations

from dataclasses import replace

import pygame

from racetrack.model import PRICES, CarSetup, Kit
from racetrack.rules import RuleSet
from racetrack.shop import budget_of, buy, can_buy, sell, shop_items, suggested_kit
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key
from racetrack.ui.widgets import Button, Form, paper_background, title

ROW = 52


class ShopScene:
    def __init__(self, app, rules: RuleSet, cars: list[CarSetup], on_done, heading: str = ""):
        self.app = app
        self.rules = rules
        self.items = shop_items(rules)
        self.heading = heading  # e.g. the championship's race number
        self.cars = [car if car.is_human else
                     replace(car, kit=suggested_kit(rules, budget_of(rules, car)))
                     for car in cars]
        self.on_done = on_done
        self.shopper = -1
        self.kit = Kit()
        self.form = Form()
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
        self._layout()

    def change(self, item: str, more: bool) -> None:
        self.kit = (buy if more else sell)(self.rules, self.kit, self.budget, item)
        self._layout()

    @property
    def row(self) -> int:
        """The rows' spacing: closer together on a short window, so Done stays below them."""
        return max(30, min(ROW, (self.app.size[1] - 170 - 80) // max(1, len(self.items))))

    def _layout(self) -> None:
        width, height = self.app.size
        left = width // 2 - 300
        widgets = []
        tall = min(40, self.row - 4)
        for row, (item, _) in enumerate(self.items):
            y = 170 + row * self.row
            minus = Button(pygame.Rect(left + 430, y, 44, tall), text="-",
                           action=lambda item=item: self.change(item, False))
            minus.enabled = bool(getattr(self.kit, item))
            plus = Button(pygame.Rect(left + 540, y, 44, tall), text="+",
                          action=lambda item=item: self.change(item, True))
            plus.enabled = can_buy(self.rules, self.kit, self.budget, item)
            widgets += [minus, plus]
        done_y = 180 + len(self.items) * self.row
        widgets.append(Button(pygame.Rect(width // 2 - 110, min(done_y, height - 70), 220, 50),
                              text="Done", action=self._next))
        focus = self.form.focus
        self.form.widgets = widgets
        self.form.focus = min(focus, len(widgets) - 1)

    def handle(self, intent: Intent) -> None:
        if isinstance(intent, Key) and intent.name == "escape":
            self.app.pop()
            return
        if isinstance(intent, Key) and intent.name == "enter" and self.form.focus == \
                len(self.form.widgets) - 1:
            self._next()
            return
        self.form.handle(intent)

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        paper_background(surface)
        width = surface.get_width()
        if self.shopper >= len(self.cars):
            return
        car = self.cars[self.shopper]
        title(surface, f"{car.name}'s shop", (width // 2, 60), 54)
        sub = (f"{self.heading} · " if self.heading else "") + \
            f"${self.budget} to spend · ${self.kit.money} left"
        text = theme.font(28).render(sub, True, theme.TEXT)
        surface.blit(text, text.get_rect(center=(width // 2, 112)))
        if not self.kit.damage:
            warn = theme.font(22).render("No damage points: the car blows up at its first hit",
                                         True, (190, 40, 40))
            surface.blit(warn, warn.get_rect(center=(width // 2, 142)))
        left = width // 2 - 300
        font = theme.font(26)
        for row, (item, label) in enumerate(self.items):
            y = 170 + row * self.row
            surface.blit(font.render(label, True, theme.TEXT), (left, y + 8))
            surface.blit(font.render(f"${PRICES[item]}", True, theme.MUTED), (left + 340, y + 8))
            count = getattr(self.kit, item)
            shown = ("yes" if count else "no") if item == "submarine" else str(count)
            value = theme.font(28, bold=True).render(shown, True, theme.TEXT)
            surface.blit(value, value.get_rect(center=(left + 507, y + 20)))
        self.form.draw(surface)
