"""Baker's advanced rules on the paper: collectables still lying there, sprayed oil, missiles in
flight, and a panel with each car's kit (uses left, gadgets, money and damage)."""

from __future__ import annotations

import pygame

from racetrack.engine.model import Action
from racetrack.games.race import RaceState
from racetrack.ui import theme
from racetrack.ui.render.camera import Camera

#: A collectable's look: a coin's colour, or a gadget's, and the letter written on it.
COLLECTABLE_LOOK = {"penny": ((196, 110, 60), "1"), "nickel": ((160, 160, 168), "5"),
                    "dime": ((200, 200, 210), "10"), "money": ((60, 150, 80), "$"),
                    "missile": ((190, 40, 40), "M"), "oil-sprayer": ((60, 56, 50), "O"),
                    "rocket-boosters": ((230, 120, 20), "R"), "submarine": ((40, 100, 190), "S"),
                    "machine-guns": ((90, 90, 90), "G")}
#: Keys for the actions (shown in the panel and handled by the race scene).
ACTION_KEYS = {Action.MISSILE: "m", Action.OIL: "o"}
PANEL_LINE = 22


def draw_collectable(surface: pygame.Surface, kind: str, centre: tuple[float, float],
                     scale: float) -> None:
    """A coin or gadget lying on the paper: a disc in its colour with its letter."""
    radius = max(5, round(scale * 0.32))
    colour, letter = COLLECTABLE_LOOK.get(kind, ((120, 120, 120), "?"))
    pygame.draw.circle(surface, colour, centre, radius)
    pygame.draw.circle(surface, theme.palette().ink, centre, radius, 1)
    text = theme.font(max(12, round(radius * 1.3)), bold=True).render(letter, True,
                                                                    (255, 255, 255))
    surface.blit(text, text.get_rect(center=centre))


def draw_paper_items(surface: pygame.Surface, state: RaceState, camera: Camera) -> None:
    """Sprayed oil (like the track's oil), the collectables not yet taken, and missiles."""
    fill, edge = theme.ZONE_COLOURS["oil"]
    for corners in state.oil:
        points = [camera.to_screen(x, y) for x, y in corners]
        patch = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(patch, (*fill, 110), points)
        surface.blit(patch, (0, 0))
        pygame.draw.polygon(surface, edge, points, 2)
    if state.race.rules.collectables == "taken":
        for _, item in state.collectables():
            draw_collectable(surface, item.kind, camera.to_screen(*item.at), camera.scale)
    colours = theme.palette()
    for missile in state.missiles:
        colour = colours.pencil(state.race.cars[missile.owner].colour)
        head = camera.to_screen(*missile.position)
        tail = camera.to_screen(missile.position.x - missile.velocity.x * 0.25,
                                missile.position.y - missile.velocity.y * 0.25)
        if missile == state.steering:  # the one its player moves now
            pygame.draw.circle(surface, theme.HIGHLIGHT, head, max(8, round(camera.scale / 2.5)))
        pygame.draw.line(surface, colour, tail, head, max(3, round(camera.scale / 6)))
        pygame.draw.circle(surface, colours.ink, head, max(3, round(camera.scale / 8)))


def draw_kit_panel(surface: pygame.Surface, state: RaceState, top: int,
                   armed: Action | None) -> None:
    """Each car's kit, money and damage (against what it survives), top left below the bar;
    the current car's actions with their keys, the armed one marked."""
    race = state.race
    rules = race.rules
    if (rules.equipment_shop == "none" and not rules.equipment_brakes
            and not rules.equipment_turbo and rules.collectables == "ignored"):
        return
    font = theme.font(20)
    rows = []
    for index, (setup, car) in enumerate(zip(race.cars, state.cars, strict=True)):
        limit = state.damage_limit(index)
        damage = f"damage {car.damage}" + (f"/{limit}" if limit is not None else "")
        kit = car.kit
        held = [f"brakes {kit.brakes}", f"turbo {kit.turbo}"]
        gadgets = {"missiles": kit.missiles, "oil": kit.sprayers, "boosters": kit.boosters,
                   "guns": kit.guns}
        held += [f"{name} {count}" for name, count in gadgets.items() if count]
        if kit.submarine:
            held.append("submarine")
        held.append(f"${kit.money}")
        rows.append((index, f"{setup.name}: {damage} · " + ", ".join(held)))
    current = state.current_car
    actions = state.actions() if current is not None and not state.placing else []
    if actions:
        words = {Action.MISSILE: "fire missile", Action.OIL: "spray oil"}
        text = "   ".join(f"[{ACTION_KEYS[a].upper()}] {words[a]}" + (" (armed)" if a is armed
                                                                     else "")
                          for a in actions)
        rows.append((None, text))
    rendered = [(i, font.render(text, True, theme.TEXT)) for i, text in rows]
    width = max(r.get_width() for _, r in rendered) + 40
    box = pygame.Rect(8, top + 8, width, PANEL_LINE * len(rendered) + 10)
    card = pygame.Surface(box.size, pygame.SRCALPHA)
    card.fill((*theme.PANEL, 225))
    surface.blit(card, box)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=4)
    colours = theme.palette()
    y = box.y + 6
    for index, label in rendered:
        if index is not None:
            pygame.draw.circle(surface, colours.pencil(race.cars[index].colour),
                               (box.x + 14, y + 10), 6)
            if index == current:
                pygame.draw.circle(surface, colours.ink, (box.x + 14, y + 10), 8, 1)
        surface.blit(label, (box.x + 28, y))
        y += PANEL_LINE
