"""Modal windows a scene opens on its page: a question with a button per answer, a line of text
to type, and a list to pick from.

pygame_gui's own ``UIConfirmationDialog`` offers one action and Cancel; the editor asks
"Save, Discard or Cancel?", so these are plain ``UIWindow``\\ s laid out here, themed like every
other window. Each is blocking (clicks elsewhere do nothing), closes with its own close button
as a Cancel, and leaves the keys it does not use to the scene (Esc, the letters that answer a
question, the arrows that move through a list).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UISelectionList, UITextBox, UIWindow

from racetrack.ui import theme
from racetrack.ui.gui import Button, Entry, Page, SelectAllEntry
from racetrack.ui.render.words import wrap_pixels

#: The window's title bar and frame, above and around its inside.
CHROME = 40


def text_height(text: str, width: int) -> int:
    """How tall ``text`` stands wrapped to a window ``width`` wide (the words' box inside it
    has margins, and a little room is kept for the text box's own padding)."""
    font = theme.gui_font(19)
    lines = len(wrap_pixels(text, font, width - theme.px(56))) or 1
    return lines * font.get_linesize() + theme.px(28)


def width_in(area: pygame.Rect | None, page: Page, most: int) -> int:
    """A dialog's width: ``most`` (at the UI scale) where the area allows."""
    room = area.w if area is not None else page.app.size[0]
    return min(theme.px(most), room - theme.px(20))


def button_widths(words: Sequence[str], styles: Sequence[str | None] = ()) -> list[int]:
    """How wide each button at a dialog's foot wants to be: its words and a margin (a primary
    button's words are larger)."""
    widths = []
    for number, word in enumerate(words):
        primary = number < len(styles) and styles[number] == "primary"
        font = theme.gui_font(24, bold=True) if primary else theme.ui_font(19, bold=True)
        widths.append(max(theme.px(96), font.size(word)[0] + theme.px(36)))
    return widths


class Dialog:
    """A blocking window over ``area`` (default: the whole window), with buttons along its
    foot. ``on_close`` hears the window's own close button (not ``close()``)."""

    def __init__(self, page: Page, title: str, size: tuple[int, int],
                 area: pygame.Rect | None = None, on_close: Callable[[], None] | None = None):
        self.page = page
        area = pygame.Rect(area) if area is not None else pygame.Rect((0, 0), page.app.size)
        width = min(size[0], area.w - theme.px(20))
        height = min(size[1], area.h - theme.px(20))
        rect = pygame.Rect(0, 0, width, height)
        rect.center = area.center
        self.window = UIWindow(rect, page.gui.manager, window_display_title=title,
                               resizable=False, draggable=False)
        self.window.set_blocking(True)
        self.on_close = on_close
        page.dialogs.append(self.window)
        page.gui.on(pygame_gui.UI_WINDOW_CLOSE, self.window, self._closed)
        self.widgets: list[Button] = []

    @property
    def inner(self) -> pygame.Rect:
        """The window's inside, in its own coordinates."""
        return pygame.Rect((0, 0), self.window.get_container().get_size())

    @property
    def alive(self) -> bool:
        return self.window.alive()

    def buttons(self, words: Sequence[str], actions: Sequence[Callable[[], None]],
                styles: Sequence[str | None] = ()) -> None:
        """A row of buttons at the foot, right-aligned, the first one leftmost."""
        inner, gap = self.inner, theme.px(10)
        height = theme.px(40)
        widths = button_widths(words, styles)
        spare = inner.w - 2 * gap - (len(words) - 1) * gap
        if sum(widths) > spare:  # a narrow window: equal shares
            widths = [spare // len(words)] * len(words)
        x = inner.right - gap - sum(widths) - (len(words) - 1) * gap
        for number, (word, action) in enumerate(zip(words, actions, strict=True)):
            style = styles[number] if number < len(styles) else None
            rect = (x, inner.bottom - gap - height, widths[number], height)
            self.widgets.append(self.page.button(rect, word, action, style=style,
                                                 container=self.window, focusable=False))
            x += widths[number] + gap

    def words(self, html: str, top: int = 0, bottom: int | None = None) -> UITextBox:
        """Text across the window, wrapped, from ``top`` down to ``bottom`` (default: just
        above the buttons)."""
        inner, gap = self.inner, theme.px(10)
        bottom = inner.bottom - theme.px(60) if bottom is None else bottom
        rect = pygame.Rect(gap, top + gap, inner.w - 2 * gap, max(theme.px(30),
                                                                   bottom - top - gap))
        return UITextBox(html, rect, self.page.gui.manager, container=self.window,
                         object_id=ObjectID(class_id="@plain_text"))

    def close(self) -> None:
        """Close it from the game's side (an answer given by a key): no ``on_close``."""
        self.on_close = None
        if self.window.alive():
            self.window.kill()

    def _closed(self, event: pygame.event.Event) -> None:
        on_close, self.on_close = self.on_close, None
        if on_close is not None:
            on_close()


class Question(Dialog):
    """A question with a button per answer ("Save", "Discard", "Cancel"); ``on_answer`` gets
    the answer's index, or ``None`` when the window is closed."""

    def __init__(self, page: Page, title: str, text: str, answers: Sequence[str],
                 on_answer: Callable[[int | None], None], styles: Sequence[str | None] = (),
                 area: pygame.Rect | None = None):
        buttons = sum(button_widths(answers, styles)) + theme.px(10) * (len(answers) + 2)
        width = min(width_in(area, page, 640), max(width_in(area, page, 520), buttons))
        words = text_height(text, width)
        size = (width, theme.px(CHROME) + words + theme.px(70))
        super().__init__(page, title, size, area, on_close=lambda: on_answer(None))
        self.words(_escape(text))
        self.buttons(answers, [lambda n=n: on_answer(n) for n in range(len(answers))], styles)


class Prompt(Dialog):
    """A line of text to type, offered with ``text`` selected so typing replaces it; Enter or
    OK gives it to ``on_answer``, Cancel or the close button gives ``None``."""

    def __init__(self, page: Page, title: str, label: str, text: str, max_length: int,
                 on_answer: Callable[[str | None], None], area: pygame.Rect | None = None,
                 ignore: str | None = None):
        width = width_in(area, page, 560)
        words = text_height(label, width)
        size = (width, theme.px(CHROME) + words + theme.px(130))
        super().__init__(page, title, size, area, on_close=lambda: on_answer(None))
        inner, gap = self.inner, theme.px(10)
        self.words(_escape(label), bottom=words)
        element = SelectAllEntry(pygame.Rect(gap, words + gap, inner.w - 2 * gap,
                                             theme.px(40)),
                                 page.gui.manager, container=self.window, initial_text=text)
        element.set_text_length_limit(max_length)
        element.ignore_text = ignore
        self.field = Entry(element)
        page.gui.on(pygame_gui.UI_TEXT_ENTRY_FINISHED, element,
                    lambda event: on_answer(element.get_text()))
        self.buttons(("OK", "Cancel"), (lambda: on_answer(element.get_text()),
                                        lambda: on_answer(None)), ("primary",))
        element.focus()


class Picker(Dialog):
    """A scrolling list to pick one row from: a click picks it, as do Enter after the arrow
    keys (``key``). ``extra`` adds buttons beside Cancel (another file, say)."""

    def __init__(self, page: Page, title: str, hint: str, rows: Sequence[str],
                 on_pick: Callable[[int], None], on_cancel: Callable[[], None],
                 extra: Sequence[tuple[str, Callable[[], None]]] = (),
                 area: pygame.Rect | None = None):
        area = pygame.Rect(area) if area is not None else pygame.Rect((0, 0), page.app.size)
        size = (min(area.w - theme.px(40), theme.px(720)),
                min(area.h - theme.px(40), theme.px(620)))
        super().__init__(page, title, size, area, on_close=on_cancel)
        inner, gap = self.inner, theme.px(10)
        font = theme.gui_font(19)
        lines = len(wrap_pixels(hint, font, inner.w - 4 * gap)) or 1
        top = theme.px(16) + lines * font.get_linesize() + gap
        self.words(_escape(hint), bottom=top)
        # Each row is told apart by its place, even where two tracks share a name.
        self.rows = list(rows)
        self.list = UISelectionList(
            pygame.Rect(gap, top + theme.px(4), inner.w - 2 * gap,
                        inner.h - top - theme.px(4) - theme.px(64)),
            [(row, f"#row_{number}") for number, row in enumerate(self.rows)],
            page.gui.manager, container=self.window, allow_double_clicks=False,
            object_id=ObjectID(object_id="#picker"))
        self.index = 0
        self.on_pick = on_pick
        page.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, self.list, self._clicked)
        page.gui.on(pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION, self.list, self._clicked)
        words = [word for word, _ in extra] + ["Cancel"]
        self.buttons(words, [action for _, action in extra] + [on_cancel])
        self._show(0)

    def row_button(self, index: int):
        """The element drawn for a row (None while it is scrolled out of sight)."""
        return self.list.item_list[index]["button_element"]

    def _clicked(self, event: pygame.event.Event) -> None:
        """A row clicked. The list marks the clicked row and unmarks the one marked before
        (two events); a click on the marked row unmarks it, leaving none marked."""
        marked = [n for n, item in enumerate(self.list.item_list) if item["selected"]]
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and marked:
            self.on_pick(marked[0])
        elif event.type == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION and not marked:
            self.on_pick(self.index)

    def key(self, name: str) -> bool:
        """Up, down, Page Up/Down, Home and End move the choice; Enter picks it."""
        if not self.rows:
            return False
        page = max(1, self.list.item_list_container.rect.h // max(1,
                                                                 self.list.list_item_height))
        moves = {"up": -1, "down": 1, "pageup": -page, "pagedown": page,
                 "home": -len(self.rows), "end": len(self.rows)}
        if name in moves:
            self._show(max(0, min(len(self.rows) - 1, self.index + moves[name])))
            return True
        if name == "enter":
            self.on_pick(self.index)
            return True
        return False

    def _show(self, index: int) -> None:
        """Mark the row ``index`` and scroll it into sight."""
        self.index = index
        for number, item in enumerate(self.list.item_list):
            item["selected"] = number == index
            button = item["button_element"]
            if button is not None:
                button.select() if number == index else button.unselect()
        bar = self.list.scroll_bar
        if bar is not None:
            shown = bar.visible_percentage
            start = bar.start_percentage
            place = index / len(self.rows)
            if place < start or place + 1 / len(self.rows) > start + shown:
                bar.set_scroll_from_start_percentage(max(0.0, min(1.0 - shown,
                                                                  place - shown / 2)))


def _escape(text: str) -> str:
    """Plain words for a text box (which reads a little HTML)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
