"""Settings: the window (size, fullscreen), the UI scale, colour-blind-safe pencils, the sound
(volume, mute) and how long computer moves glide. Each change applies at once and is kept in
the player's settings file."""

from __future__ import annotations

from dataclasses import replace

import pygame

from racetrack.settings import UI_SCALES, load_settings
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.scenes.form import FormScene, heading

SPEEDS = {"slow": 0.6, "normal": 0.35, "fast": 0.15, "instant": 0.0}
#: Window sizes to choose from ("fit the screen" forgets the size, so it fits whatever screen).
WINDOWS = {"fit the screen": None, "1024 x 700": (1024, 700), "1280 x 800": (1280, 800),
           "1600 x 1000": (1600, 1000), "1920 x 1080": (1920, 1080)}


class OptionsScene(FormScene):
    idles = True
    caption = "Settings"
    def __init__(self, app):
        super().__init__(app)
        self.settings = load_settings()
        self.rows: list[tuple[str, pygame.Rect]] = []

    def change(self, **values) -> None:
        self.settings = replace(load_settings(), **values)
        self.app.apply_settings(self.settings)
        if "volume" in values or "muted" in values:
            self.app.sound.play("move")  # hear the new volume

    def layout(self, page: Page, width: int, height: int) -> None:
        settings = self.settings
        label_width = min(theme.px(230), width // 3)
        field = min(theme.px(320), width - label_width - theme.px(80))
        left = width // 2 - (label_width + field) // 2
        x = left + label_width
        row = min(theme.px(56), (height - theme.px(200)) // 8)
        tall = row - theme.px(12)
        y = theme.px(130)
        self.rows = []
        speed = min(SPEEDS, key=lambda k: abs(SPEEDS[k] - settings.animation_seconds))
        kept = settings.window_for(self.app.screen_at_start)
        window = next((name for name, size in WINDOWS.items() if size == kept),
                      "fit the screen")
        rows = [("Window", "choice", (list(WINDOWS), window,
                                      lambda value: self._window(WINDOWS[value]),
                                      "The window's size (it never reaches past the screen)")),
                ("Fullscreen (F11)", "toggle", "fullscreen"),
                ("UI scale", "choice", (list(UI_SCALES), settings.ui_scale,
                                        lambda value: self.change(ui_scale=value),
                                        "auto: grows with the window")),
                ("Colour-blind pencils", "toggle", "colour_blind"),
                ("Sound volume", "slider", "volume"),
                ("Mute", "toggle", "muted"),
                ("Computer moves", "choice", (list(SPEEDS), speed,
                                              lambda value: self.change(
                                                  animation_seconds=SPEEDS[value]),
                                              "How long a computer car takes to glide to its "
                                              "point"))]
        box = theme.px(24)
        for text, kind, what in rows:
            self.rows.append((text, pygame.Rect(left, y, label_width, tall)))
            if kind == "choice":
                choices, value, on_change, tip = what
                page.choice((x, y, field, tall), choices, value, on_change, tooltip=tip)
            elif kind == "toggle":
                page.toggle((x, y + tall // 2 - box // 2, box, box), "",
                            getattr(settings, what),
                            lambda on, key=what: self.change(**{key: on}))
            else:
                page.slider((x, y, field, tall), settings.volume, 0, 100,
                            lambda value: self.change(volume=value), step=10)
            y += row
        y += theme.px(10)
        page.button((width // 2 - theme.px(110), min(y, height - theme.px(70)), theme.px(220),
                     theme.px(50)), "Done", self.back, style="primary")

    def _window(self, size: tuple[int, int] | None) -> None:
        """A size for the window on this screen (kept for this screen only)."""
        self.app.set_window_size(size)
        self.settings = self.app.settings

    def note(self) -> str:
        """The line under the heading: how changes are kept, or that the UI scale chosen is
        larger than the window fits."""
        chosen = UI_SCALES.get(self.settings.ui_scale)
        if chosen is not None and self.app.ui_scale() < chosen - 0.005:
            return (f"UI scale {self.settings.ui_scale} is drawn at "
                    f"{round(self.app.ui_scale() * 100)}%, the most this window fits.")
        return "Changes apply at once and are kept for next time."

    def draw_paper(self, surface: pygame.Surface) -> None:
        width = surface.get_width()
        heading(surface, "Settings", (width // 2, theme.px(30)), 52, centred=True)
        note = theme.ui_font(20).render(self.note(), True, theme.MUTED)
        surface.blit(note, note.get_rect(midtop=(width // 2, theme.px(92))))
        font = theme.ui_font(22)
        for text, rect in self.rows:
            rendered = font.render(text, True, theme.TEXT)
            surface.blit(rendered, rendered.get_rect(midleft=(rect.x, rect.centery)))
