"""The shop: what a car may buy before the race, what it costs, and the kit it starts with.

Baker's "Design Your Own Car": each player gets $100 (``equipment.budget``) to spend on good
brakes ($10 a use), turbo boosts ($10 a use) and damage points ($5 each); in James Bond mode
(``equipment.bond``) also missiles ($30), oil sprayers ($10), rocket boosters ($30), the
submarine ($30) and sets of rear machine guns ($20): the rules' ``prices.*``. Money not spent
stays with the car.
Without the shop every car gets the rules' ``equipment.brakes`` and ``equipment.turbo`` uses.
"""

from __future__ import annotations

from dataclasses import replace

from racetrack.engine.model import MAX_ITEMS, MAX_MONEY, CarSetup, Kit
from racetrack.rules.ruleset import RuleSet

#: The shop's shelves: item, label; the Bond gadgets only in James Bond mode.
BASIC_ITEMS = (("brakes", "Good brakes (a use)"), ("turbo", "Turbo boost (a use)"),
               ("damage", "Damage point"))
BOND_ITEMS = (("missiles", "Missile"), ("sprayers", "Oil sprayer"),
              ("boosters", "Rocket boosters"), ("submarine", "Submarine"),
              ("guns", "Rear machine guns (a set)"))


def shop_items(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    """The items the shop sells under these rules (none when there is no shop)."""
    if rules.equipment_shop != "design":
        return ()
    return BASIC_ITEMS + (BOND_ITEMS if rules.equipment_bond else ())


def budget_of(rules: RuleSet, setup: CarSetup) -> int:
    return rules.equipment_budget if setup.budget is None else setup.budget


def starting_kit(rules: RuleSet, setup: CarSetup) -> Kit:
    """The kit a car starts the race with: the one it bought (plus money left), or the rules'
    standard kit, or (in the shop, having bought nothing yet) the suggested buy."""
    if setup.kit is not None:
        return setup.kit
    if rules.equipment_shop == "design":
        return suggested_kit(rules, budget_of(rules, setup))
    return Kit(brakes=rules.equipment_brakes, turbo=rules.equipment_turbo)


def standard_kit(rules: RuleSet) -> Kit:
    """The kit every car starts with where there is no shop."""
    return Kit(brakes=rules.equipment_brakes, turbo=rules.equipment_turbo)


def check_kit(rules: RuleSet, setup: CarSetup) -> str | None:
    """Why a car's kit (or budget) is not allowed under these rules, or ``None`` when it is.

    Without a shop a car has exactly the rules' standard kit and no budget. With the shop its
    budget is at most the rules' budget plus what a championship can carry, no James Bond
    gadgets outside James Bond mode, and the kit and the money left add up to at most the
    budget."""
    kit = setup.kit
    if rules.equipment_shop != "design":
        if setup.budget is not None:
            return f"{setup.name} has a budget, but these rules have no shop"
        standard = standard_kit(rules)
        if kit is not None and kit != standard:
            return (f"{setup.name}'s kit is not the rules' standard kit "
                    f"({standard.describe()}): these rules have no shop")
        return None
    budget = budget_of(rules, setup)
    most = rules.equipment_budget + MAX_MONEY
    if budget > most:
        return f"{setup.name}'s budget of ${budget} is more than ${most}"
    if kit is None:
        return None
    if not rules.equipment_bond:
        gadgets = [name for name, _ in BOND_ITEMS if getattr(kit, name)]
        if gadgets:
            return (f"{setup.name}'s kit has {gadgets[0]}, but the shop sells James Bond "
                    "gadgets only in James Bond mode")
    cost = kit.cost(rules.prices())
    if cost > budget:
        return f"{setup.name}'s kit costs ${cost}, more than its ${budget}"
    if kit.money > budget - cost:
        return (f"{setup.name}'s kit holds ${kit.money}, more than the ${budget - cost} "
                "left of its budget")
    return None


def can_buy(rules: RuleSet, kit: Kit, budget: int, item: str) -> bool:
    """Whether one more of ``item`` fits the budget (and the submarine is bought only once)."""
    if item not in dict(shop_items(rules)):
        return False
    prices = rules.prices()
    affordable = kit.cost(prices) + prices[item] <= budget
    if item == "submarine":
        return not kit.submarine and affordable
    return getattr(kit, item) < MAX_ITEMS and affordable


def buy(rules: RuleSet, kit: Kit, budget: int, item: str) -> Kit:
    """The kit with one more of ``item`` and the money left updated; unchanged if it cannot."""
    if not can_buy(rules, kit, budget, item):
        return kit
    more = True if item == "submarine" else getattr(kit, item) + 1
    bought = replace(kit, **{item: more})
    return replace(bought, money=budget - bought.cost(rules.prices()))


def sell(rules: RuleSet, kit: Kit, budget: int, item: str) -> Kit:
    """The kit with one fewer of ``item`` (the money back); unchanged if it has none."""
    if not getattr(kit, item, 0):
        return kit
    fewer = False if item == "submarine" else getattr(kit, item) - 1
    sold = replace(kit, **{item: fewer})
    return replace(sold, money=budget - sold.cost(rules.prices()))


def suggested_kit(rules: RuleSet, budget: int) -> Kit:
    """What a computer driver buys: damage points first (a car without them blows up at its
    first hit), then turbo and brakes, a missile and guns in James Bond mode, and more damage
    points with what is left."""
    kit = Kit(money=budget)
    plan = ["damage"] * 6 + ["turbo", "turbo", "brakes"]
    if rules.equipment_bond:
        plan += ["missiles", "guns"]
    plan += ["turbo", "brakes"] + ["damage"] * 40
    for item in plan:
        kit = buy(rules, kit, budget, item)
    return kit
