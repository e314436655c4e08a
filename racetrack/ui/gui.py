"""The menus' forms and lists, made with pygame_gui and themed to the paper.

pygame_gui gives the game what a form needs and was tedious to draw by hand: buttons with
tooltips, drop-down lists, text fields that select all when focused, scrolling containers,
sliders, check boxes, and modal confirmation and file dialogs. Its look comes from
``assets/gui-theme.json`` (the bundled fonts, paper and pencil colours), scaled with the UI scale.
The paper, the tracks, the cars and the trails stay the game's own drawing.

The app owns one ``Gui`` (a ``UIManager``); each scene that uses it owns a ``Page``, a container
of its elements that is shown only while the scene is on top and killed when the scene leaves
the stack, however it leaves. A page also keeps a keyboard focus order (Tab, the arrows, Enter),
so every form works without the mouse. Controls wrap the elements in small objects with the old
widgets' words (``text``, ``rect``, ``press``, ``value``, ``set``, ``step``), so scenes and tests
read the same either way.
"""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.core import ObjectID, UIContainer
from pygame_gui.elements import (
    UIButton,
    UICheckBox,
    UIDropDownMenu,
    UIHorizontalSlider,
    UIImage,
    UILabel,
    UIScrollingContainer,
    UITextBox,
    UITextEntryLine,
)
from pygame_gui.windows import UIConfirmationDialog, UIFileDialog

from racetrack.ui import theme
from racetrack.ui.input import Intent, Key, Motion
from racetrack.ui.render.words import shorten

log = logging.getLogger(__name__)

#: The key repeat the game uses (text fields change it while they have the focus).
KEY_REPEAT = (350, 40)
#: Theme numbers that are lengths, scaled with the UI scale like the font sizes.
SCALED_MISC = ("list_item_height", "title_bar_height", "shape_corner_radius", "rect_width")
#: The narrowest a tooltip is made to fit beside its control, at a UI scale of 1.
TIP_MIN_WIDTH = 150


def theme_data(scale: float = 1.0) -> dict:
    """The JSON theme with the bundled fonts' paths filled in and sizes scaled."""
    path = theme.asset("gui-theme.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # a damaged install: pygame_gui's own look
        log.warning("GUI theme not loaded (%s)", exc)
        return {}
    fonts = str(theme.asset("fonts"))

    def fix(node):
        if isinstance(node, dict):
            fixed = {key: fix(value) for key, value in node.items()}
            if "size" in fixed and "name" in fixed:
                fixed["size"] = str(max(8, round(int(fixed["size"]) * scale)))
            for key in SCALED_MISC:
                if key in fixed and str(fixed[key]).isdigit():
                    fixed[key] = str(max(1, round(int(fixed[key]) * scale)))
            return fixed
        if isinstance(node, str):
            return node.replace("{fonts}", fonts)
        return node

    return fix(data)


def tip_place(owner: pygame.Rect, size: tuple[int, int], screen: pygame.Rect,
              others: Sequence[pygame.Rect], gap: int = 8) -> pygame.Rect | None:
    """Where a tooltip of ``size`` goes for the control at ``owner``: beside it (right, then
    left) or under or over it, the first place inside the screen that covers no other
    control (``others``); else the place inside the screen that covers the fewest; ``None``
    where it fits nowhere."""
    width, height = size
    middle = owner.centery - height // 2
    places = [pygame.Rect(owner.right + gap, middle, width, height),
              pygame.Rect(owner.left - gap - width, middle, width, height),
              pygame.Rect(owner.left, owner.bottom + gap, width, height),
              pygame.Rect(owner.left, owner.top - gap - height, width, height)]
    fitting = []
    for place in places:
        place.clamp_ip(screen)
        if place.colliderect(owner) or not screen.contains(place):
            continue
        covered = sum(1 for other in others if place.colliderect(other))
        if not covered:
            return place
        fitting.append((covered, place))
    return min(fitting, key=lambda found: found[0])[1] if fitting else None


class PaperManager(pygame_gui.UIManager):
    """pygame_gui's manager, with tooltips put beside their control where they cover no
    other (pygame_gui puts them under the pointer, over the next button in a column)."""

    #: The controls a tooltip should not cover.
    CONTROLS = (UIButton, UIDropDownMenu, UITextEntryLine, UICheckBox, UIHorizontalSlider)

    def __init__(self, *args, scale: float = 1.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.scale = scale

    def create_tool_tip(self, text, position, hover_distance, parent_element, object_id, *,
                        wrap_width=None, text_kwargs=None):
        screen = self.get_root_container().get_rect()
        owner = pygame.Rect(parent_element.rect)
        gap = max(4, round(8 * self.scale))
        side = max(screen.right - owner.right, owner.left - screen.left) - 2 * gap
        if side >= TIP_MIN_WIDTH * self.scale:  # narrower, to fit beside the control
            wrap_width = min(wrap_width or round(320 * self.scale), side)
        tip = super().create_tool_tip(text, position, hover_distance, parent_element,
                                      object_id, wrap_width=wrap_width,
                                      text_kwargs=text_kwargs)
        others = [pygame.Rect(element.rect) for element in self.get_sprite_group().sprites()
                  if isinstance(element, self.CONTROLS) and element is not parent_element
                  and element.visible and element.alive()]
        place = tip_place(owner, tip.rect.size, screen, others, gap)
        if place is not None:
            tip.set_position(place.topleft)
        return tip


class Gui:
    """The app's UIManager, the pages of the scenes, and the callbacks for its events."""

    #: pygame_gui events that carry a value a page asked to hear about.
    EVENTS = (pygame_gui.UI_DROP_DOWN_MENU_CHANGED, pygame_gui.UI_TEXT_ENTRY_CHANGED,
              pygame_gui.UI_TEXT_ENTRY_FINISHED, pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED,
              pygame_gui.UI_FILE_DIALOG_PATH_PICKED, pygame_gui.UI_HORIZONTAL_SLIDER_MOVED,
              pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED,
              pygame_gui.UI_WINDOW_CLOSE, pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
              pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION)

    def __init__(self, size: tuple[int, int], scale: float = 1.0):
        self.scale = scale
        data = theme_data(scale)
        self.manager = PaperManager(size, data, enable_live_theme_updates=False, scale=scale)
        # Bold text in the help's HTML asks for faces the theme names but never loads.
        sizes = sorted({int(block["font"]["size"]) for block in data.values()
                        if isinstance(block, dict) and "font" in block})
        with warnings.catch_warnings():  # some are loaded already: no matter
            warnings.simplefilter("ignore", UserWarning)
            self.manager.preload_fonts([{"name": "inter", "point_size": size, "style": style}
                                        for size in sizes for style in ("regular", "bold")])
        self.pages: list[Page] = []
        self.handlers: dict[tuple[int, int], Callable[[pygame.event.Event], None]] = {}

    def resize(self, size: tuple[int, int]) -> None:
        self.manager.set_window_resolution(size)
        for page in self.pages:
            page.root.set_dimensions(size)

    def on(self, event_type: int, element, callback: Callable[[pygame.event.Event], None],
           ) -> None:
        self.handlers[(event_type, id(element))] = callback

    def process(self, event: pygame.event.Event) -> bool:
        """Hand an event to the widgets; True when one used it (the scene then never sees it).
        A GUI event with a callback calls it. Esc closes an open drop-down list, and does
        nothing else."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE \
                and any(page.close_lists() for page in self.pages if page.visible):
            return True
        used = self.manager.process_events(event)
        if event.type in self.EVENTS:
            callback = self.handlers.get((event.type, id(getattr(event, "ui_element", None))))
            if callback is not None:
                callback(event)
            return True
        return used

    @property
    def typing(self) -> bool:
        """Whether a text field has the keyboard."""
        focused = self.manager.get_focus_set() or ()
        return any(isinstance(element, UITextEntryLine) for element in focused)

    def arrange(self, scenes: Sequence[object]) -> None:
        """Show the top scene's page, hide the others', kill those whose scene has left."""
        top = scenes[-1] if scenes else None
        for page in list(self.pages):
            if not any(page.owner is scene for scene in scenes):
                page.kill()
            else:
                page.show(page.owner is top)

    def update(self, dt: float) -> None:
        self.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        self.manager.draw_ui(surface)
        for page in self.pages:
            if page.visible:
                page.draw_focus(surface)

    def kill_all(self) -> None:
        for page in list(self.pages):
            page.kill()


class Control:
    """A page's element with the words the scenes and tests use."""

    element: object
    tooltip: str = ""

    def __init__(self, element, tooltip: str = ""):
        self.element = element
        self.tooltip = tooltip

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(self.element.rect)

    @property
    def enabled(self) -> bool:
        return bool(self.element.is_enabled)

    @enabled.setter
    def enabled(self, value: bool) -> None:
        if value:
            self.element.enable()
        else:
            self.element.disable()

    def activate(self) -> None:
        """Enter or space while it has the keyboard focus."""

    def arrow(self, by: int) -> bool:
        """Left or right while it has the keyboard focus; True when used."""
        return False


class Button(Control):
    def __init__(self, element: UIButton, action: Callable[[], None] | None, tooltip: str = ""):
        super().__init__(element, tooltip)
        self.action = action

    @property
    def text(self) -> str:
        return self.element.text

    @text.setter
    def text(self, value: str) -> None:
        self.element.set_text(value)

    def press(self) -> None:
        if self.enabled and self.action is not None:
            self.action()

    def activate(self) -> None:
        self.press()


class Choice(Control):
    """A drop-down list of words; ``step`` and ``set`` change it from code or the keyboard.
    ``labels`` gives an entry words of its own to show (a rule set's id and what it is),
    cut to the list's width; the values stay the choices."""

    def __init__(self, page: Page, rect: pygame.Rect, choices: Sequence[str], value: str,
                 on_change: Callable[[str], None] | None, tooltip: str = "",
                 container=None, height_limit: int | None = None,
                 labels: Mapping[str, str] | None = None, upward: bool = False):
        self.page = page
        self._upward = upward
        self.choices = list(choices)
        self._rect = pygame.Rect(rect)
        self._container = container
        self._height_limit = height_limit
        self.on_change = on_change
        self.index = self.choices.index(value) if value in self.choices else 0
        self._labels = self._fitted(labels or {})
        super().__init__(self._make(), tooltip)

    def _fitted(self, labels: Mapping[str, str]) -> dict[str, str]:
        """Each choice's words, cut to fit the list's width beside its arrow (told apart,
        should two cuts come out the same)."""
        font = self.page.gui.manager.get_theme().get_font(["drop_down_menu"])
        room = self._rect.w - theme.px(44) - 20
        found: dict[str, str] = {}
        for choice in self.choices:
            words = shorten(labels.get(choice, choice), font, room)
            found[choice] = words if words not in found.values() else choice
        return found

    def label_of(self, value: str) -> str:
        """The words the list shows for a choice."""
        return self._labels.get(value, value)

    def _make(self) -> UIDropDownMenu:
        menu = UIDropDownMenu([self.label_of(c) for c in self.choices],
                              self.label_of(self.value), self._rect, self.page.gui.manager,
                              container=self._container or self.page.root,
                              expansion_height_limit=self._height_limit,
                              # A list at the foot of a screen opens upwards (the theme's
                              # "#upward" block), or it would open past the window's edge.
                              object_id=ObjectID(object_id="#upward") if self._upward
                              else None)
        self.page.gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, menu, self._picked)
        return menu

    @property
    def value(self) -> str:
        return self.choices[self.index] if self.choices else ""

    @property
    def expanded(self) -> bool:
        return self.element.current_state is self.element.menu_states.get("expanded")

    def _picked(self, event: pygame.event.Event) -> None:
        shown = [self.label_of(c) for c in self.choices]
        if event.text in shown:
            self.index = shown.index(event.text)
            if self.on_change:
                self.on_change(self.value)

    def close(self) -> bool:
        """Close the list if it is open (Esc); True when it was."""
        if not self.expanded:
            return False
        self.element.unfocus()  # pygame_gui closes it on its next update
        return True

    def set(self, value: str) -> None:
        """Show ``value`` (no callback), rebuilding the list around it."""
        if value not in self.choices or value == self.value:
            return
        self.index = self.choices.index(value)
        enabled = self.enabled
        self.element.kill()
        self.element = self._make()
        self.enabled = enabled

    def step(self, by: int) -> None:
        if self.choices:
            self.set(self.choices[(self.index + by) % len(self.choices)])
            if self.on_change:
                self.on_change(self.value)

    def arrow(self, by: int) -> bool:
        self.step(by)
        return True

    def open_list(self, opened: bool = True) -> None:
        """Open the list (or close it) at the next frame, as a click on it would."""
        state = self.element.current_state
        if state is not None and self.expanded != opened:
            state.should_transition = True

    def browse(self, by: int) -> None:
        """Up / Down with the list open: the entry before or after is chosen, and the list
        stays open, scrolled to it (at the first or last entry it goes no further)."""
        target = max(0, min(len(self.choices) - 1, self.index + by))
        if self.choices and target != self.index:
            self.set(self.choices[target])
            if self.on_change:
                self.on_change(self.value)
        self.open_list()


class SelectAllEntry(UITextEntryLine):
    """A text field that selects all of its text when it gets the focus, so typing replaces
    a default name at once."""

    _selecting = False  # just focused: the click that did it still selects all
    #: A character not to type if it comes first: the key that opened the field.
    ignore_text: str | None = None

    def focus(self) -> None:
        super().focus()
        self.select_all()
        self._selecting = True

    def process_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.TEXTINPUT and self.ignore_text is not None:
            ignored, self.ignore_text = self.ignore_text, None
            if event.text.lower() == ignored.lower():
                return True
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.ignore_text = None
        used = super().process_event(event)
        if self._selecting and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP,
                                              pygame.MOUSEMOTION):
            self.select_all()
            self._selecting = event.type != pygame.MOUSEBUTTONUP
        elif event.type in (pygame.KEYDOWN, pygame.TEXTINPUT):
            self._selecting = False
        return used

    def select_all(self) -> None:
        self.select_range = [0, len(self.text)]
        self.edit_position = len(self.text)

    def unfocus(self) -> None:
        super().unfocus()
        pygame.key.set_repeat(*KEY_REPEAT)


class Entry(Control):
    def __init__(self, element: SelectAllEntry, tooltip: str = ""):
        super().__init__(element, tooltip)

    @property
    def text(self) -> str:
        return self.element.get_text()

    @text.setter
    def text(self, value: str) -> None:
        self.element.set_text(value)

    @property
    def selected(self) -> bool:
        """Whether all of its text is selected (typing replaces it)."""
        low, high = sorted(self.element.select_range)
        return bool(self.text) and (low, high) == (0, len(self.text))

    def activate(self) -> None:
        self.element.focus()
        self.element.select_all()


class Toggle(Control):
    def __init__(self, element: UICheckBox, on_change: Callable[[bool], None] | None,
                 tooltip: str = ""):
        super().__init__(element, tooltip)
        self.on_change = on_change

    @property
    def value(self) -> bool:
        return bool(self.element.get_state())

    def set(self, value: bool) -> None:
        self.element.set_state(value)
        if self.on_change:
            self.on_change(value)

    def activate(self) -> None:
        self.set(not self.value)


class Slider(Control):
    def __init__(self, element: UIHorizontalSlider, on_change: Callable[[int], None] | None,
                 step: int = 5, tooltip: str = ""):
        super().__init__(element, tooltip)
        self.on_change = on_change
        self.step_size = step

    @property
    def value(self) -> int:
        return int(round(self.element.get_current_value()))

    def set(self, value: int) -> None:
        low, high = self.element.value_range
        self.element.set_current_value(max(low, min(high, value)))
        if self.on_change:
            self.on_change(self.value)

    def arrow(self, by: int) -> bool:
        self.set(self.value + by * self.step_size)
        return True


class Page:
    """One scene's elements in one container, with a keyboard focus order."""

    def __init__(self, app, owner):
        self.app = app
        self.owner = owner
        self.gui: Gui = app.gui
        self.root = UIContainer(pygame.Rect((0, 0), app.size), self.gui.manager)
        self.widgets: list[Control] = []
        self.focus = 0
        self.keyboard = False  # the focus ring shows after a key moved it
        self.visible = True
        self.gui.pages.append(self)

    # -- making elements ------------------------------------------------------------------

    def clear(self) -> None:
        """Kill every element (a new layout follows)."""
        self.root.clear()
        self.root.set_dimensions(self.app.size)
        self.widgets = []

    def text_width(self, text: str, style: str | None = None) -> int:
        """How wide a button's words are drawn in the theme's font for its style (the room
        a button needs is this and a margin)."""
        ids = [f"@{style}", "button"] if style else ["button"]
        return self.gui.manager.get_theme().get_font(ids).size(text)[0]

    def button(self, rect, text: str, action: Callable[[], None] | None, tooltip: str = "",
               enabled: bool = True, style: str | None = None, container=None,
               focusable: bool = True) -> Button:
        control: Button | None = None

        def pressed() -> None:
            self.app.sound.play("click")
            if control is not None:
                control.press()

        element = UIButton(pygame.Rect(rect), text, self.gui.manager,
                           container=container or self.root, tool_tip_text=tooltip or None,
                           object_id=ObjectID(class_id=f"@{style}") if style else None,
                           command=pressed)
        control = Button(element, action, tooltip)
        if not enabled:
            element.disable()
        if focusable:
            self.widgets.append(control)
        return control

    def choice(self, rect, choices: Sequence[str], value: str,
               on_change: Callable[[str], None] | None = None, tooltip: str = "",
               height_limit: int | None = None,
               labels: Mapping[str, str] | None = None, upward: bool = False) -> Choice:
        control = Choice(self, pygame.Rect(rect), choices, value, on_change, tooltip,
                         height_limit=height_limit, labels=labels, upward=upward)
        self.widgets.append(control)
        return control

    def entry(self, rect, text: str, on_change: Callable[[str], None] | None = None,
              max_length: int = 20, tooltip: str = "",
              on_finish: Callable[[str], None] | None = None) -> Entry:
        element = SelectAllEntry(pygame.Rect(rect), self.gui.manager, container=self.root,
                                 initial_text=text)
        element.set_text_length_limit(max_length)
        control = Entry(element, tooltip)
        if on_change is not None:
            self.gui.on(pygame_gui.UI_TEXT_ENTRY_CHANGED, element,
                        lambda event: on_change(element.get_text()))
        if on_finish is not None:  # Enter in the field
            self.gui.on(pygame_gui.UI_TEXT_ENTRY_FINISHED, element,
                        lambda event: on_finish(element.get_text()))
        self.widgets.append(control)
        return control

    def toggle(self, rect, text: str, value: bool,
               on_change: Callable[[bool], None] | None = None, tooltip: str = "") -> Toggle:
        element = UICheckBox(pygame.Rect(rect), text, self.gui.manager, container=self.root,
                             initial_state=value, tool_tip_text=tooltip or None)
        control = Toggle(element, on_change, tooltip)
        for kind in (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED):
            self.gui.on(kind, element, lambda event, c=control: c.on_change and c.on_change(
                c.value))
        self.widgets.append(control)
        return control

    def slider(self, rect, value: int, low: int, high: int,
               on_change: Callable[[int], None] | None = None, step: int = 5) -> Slider:
        element = UIHorizontalSlider(pygame.Rect(rect), value, (low, high), self.gui.manager,
                                     container=self.root, click_increment=step)
        control = Slider(element, on_change, step)
        self.gui.on(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, element,
                    lambda event: on_change and on_change(control.value))
        self.widgets.append(control)
        return control

    def label(self, rect, text: str, style: str | None = None, container=None) -> UILabel:
        return UILabel(pygame.Rect(rect), text, self.gui.manager,
                       container=container or self.root,
                       object_id=ObjectID(class_id=f"@{style}") if style else None)

    def text_box(self, rect, html: str, style: str | None = None) -> UITextBox:
        return UITextBox(html, pygame.Rect(rect), self.gui.manager, container=self.root,
                         object_id=ObjectID(class_id=f"@{style}") if style else None)

    def image(self, rect, surface: pygame.Surface, container=None) -> UIImage:
        return UIImage(pygame.Rect(rect), surface, self.gui.manager,
                       container=container or self.root)

    def scroller(self, rect, content: tuple[int, int]) -> UIScrollingContainer:
        box = UIScrollingContainer(pygame.Rect(rect), self.gui.manager, container=self.root,
                                   allow_scroll_x=False)
        box.set_scrollable_area_dimensions(content)
        return box

    # -- dialogs --------------------------------------------------------------------------

    def confirm(self, title: str, question: str, action: str, on_yes: Callable[[], None],
                ) -> UIConfirmationDialog:
        """A modal question ("Delete this replay?") with the action's word and Cancel."""
        width, height = self.app.size
        size = (max(300, min(width - 40, theme.px(460))), max(210, min(height - 40,
                                                                        theme.px(220))))
        rect = pygame.Rect((0, 0), size)
        rect.center = (width // 2, height // 2)
        dialog = UIConfirmationDialog(rect, question, self.gui.manager, window_title=title,
                                      action_short_name=action, blocking=True)
        self.gui.on(pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, dialog,
                    lambda event: on_yes())
        self.dialogs.append(dialog)
        return dialog

    def choose_file(self, title: str, start: Path, suffixes: set[str],
                    on_pick: Callable[[Path], None]) -> UIFileDialog:
        """A modal file dialog: the chosen path goes to ``on_pick``."""
        width, height = self.app.size
        rect = pygame.Rect(0, 0, min(width - 40, theme.px(640)), min(height - 40,
                                                                       theme.px(480)))
        rect.center = (width // 2, height // 2)
        dialog = UIFileDialog(rect, self.gui.manager, window_title=title,
                              initial_file_path=str(start), allowed_suffixes=suffixes,
                              allow_existing_files_only=True)
        self.gui.on(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, dialog,
                    lambda event: on_pick(Path(event.text)))
        self.dialogs.append(dialog)
        return dialog

    @property
    def dialogs(self) -> list:
        """Dialogs this page opened (windows live outside its container)."""
        if not hasattr(self, "_dialogs"):
            self._dialogs: list = []
        self._dialogs[:] = [d for d in self._dialogs if d.alive()]
        return self._dialogs

    @property
    def modal(self) -> bool:
        """Whether a dialog of this page is open (the scene then leaves the keys to it)."""
        return bool(self.dialogs)

    # -- the page on the stack ------------------------------------------------------------

    def show(self, visible: bool) -> None:
        if visible != self.visible:
            self.visible = visible
            if visible:
                self.root.show()
            else:
                self.root.hide()
            for dialog in self.dialogs:
                dialog.show() if visible else dialog.hide()

    def cover(self, covered: bool) -> None:
        """Hide the page's controls under a sheet the scene draws over the whole window (a
        list of keys), or show them again; the page stays the one on top."""
        if covered:
            self.root.hide()
        elif self.visible:
            self.root.show()

    def kill(self) -> None:
        for dialog in self.dialogs:
            dialog.kill()
        self.root.kill()
        if self in self.gui.pages:
            self.gui.pages.remove(self)

    # -- the keyboard ---------------------------------------------------------------------

    def close_lists(self) -> bool:
        """Close any open drop-down list (Esc); True when one was open."""
        closed = False
        for control in self.widgets:
            if isinstance(control, Choice) and control.close():
                closed = True
        return closed

    def handle(self, intent: Intent) -> bool:
        """Keyboard focus: Tab / Shift+Tab or up / down move it, Enter or space use the
        focused control, left / right change a list or a slider. True when used."""
        if self.modal:
            return True
        if isinstance(intent, Motion):
            if intent.rel == (0, 0):  # a pointer at rest (a window opened under it): it
                return False          # does not take the focus Enter uses
            self.keyboard = False
            for index, control in enumerate(self.widgets):
                if control.enabled and control.rect.collidepoint(intent.pos):
                    self.focus = index
            return False
        if not isinstance(intent, Key) or not self.widgets or self.gui.typing:
            return False
        if self.focus >= len(self.widgets):
            self.focus = 0
        focused = self.widgets[self.focus]
        if isinstance(focused, Choice) and focused.expanded:
            return False
        if intent.name in ("tab", "down", "up"):
            self.keyboard = True
            self.move(-1 if intent.name == "up" or intent.shift else 1)
            return True
        if intent.name in ("enter", "space") and focused.enabled:
            self.keyboard = True
            focused.activate()
            return True
        if intent.name in ("left", "right") and focused.enabled:
            self.keyboard = True
            return focused.arrow(-1 if intent.name == "left" else 1)
        return False

    def move(self, by: int) -> None:
        for _ in range(len(self.widgets)):
            self.focus = (self.focus + by) % len(self.widgets)
            control = self.widgets[self.focus]
            if control.enabled and control.element.visible:
                return

    def draw_focus(self, surface: pygame.Surface) -> None:
        """A pencil ring round the focused control while the keyboard drives."""
        if not self.keyboard or not self.widgets or self.modal:
            return
        control = self.widgets[min(self.focus, len(self.widgets) - 1)]
        if control.element.visible:
            pygame.draw.rect(surface, theme.palette().ink, control.rect.inflate(6, 6), 2,
                             border_radius=10)
