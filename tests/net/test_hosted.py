"""The referee: a hosted game judges proposed moves with the engine, and new games are set up
from messages as files are read."""

from __future__ import annotations

import pytest

from racetrack.model import Action, Move
from racetrack.net.codes import new_token, secret_hash
from racetrack.net.hosted import (
    HostedGame,
    MoveRecord,
    Seat,
    SetupError,
    TimeRule,
    new_setup,
    race_of,
    setup_of,
)


def hosted(seats: int = 2, rules: str = "gardner", **time) -> tuple[HostedGame, list[str]]:
    message = {"track": "oval", "rules": rules,
               "seats": [{"kind": "human"} for _ in range(seats)]}
    race = race_of(new_setup(message, seed=5))
    tokens = [new_token() for _ in range(seats)]
    game = HostedGame(1, race, tuple(Seat(i, "human", None, secret_hash(t))
                                     for i, t in enumerate(tokens)),
                      TimeRule(**time), "", created=100.0, setup=setup_of(race))
    return game, tokens


def test_the_referee_refuses_with_the_engines_reason_and_changes_nothing():
    game, tokens = hosted()
    mover = game.current_seat
    waiter = game.seats[1 - mover.index]
    legal = game.state.legal_moves()[0]
    assert game.seat_of(tokens[mover.index]) is mover
    assert game.seat_of("0" * 26) is None
    assert game.judge(None, 0, legal)[0] == "token"
    assert game.judge(waiter, 0, legal)[0] == "turn"
    assert game.judge(mover, 1, legal)[0] == "stale"
    code, reason = game.judge(mover, 0, Move((400, 400)))
    assert code == "illegal" and reason == game.state.check(Move((400, 400)))
    assert game.number == 0 and game.judge(mover, 0, legal) is None
    game.play(MoveRecord(0, mover.index, str(legal), "player", 101.0))
    assert game.number == 1 and game.judge(mover, 0, legal)[0] == "stale"
    assert game.turn_started == 101.0


def test_a_turn_tells_a_bot_everything_it_needs():
    game, _ = hosted(move_time=60.0)
    turn = game.turn(now=130.0)
    assert turn["number"] == 0 and turn["seat"] == game.current_seat.number
    assert turn["deadline"] == 160.0 and turn["left"] == 30.0
    assert turn["legal"] == [str(m) for m in game.state.legal_moves()]
    assert [car["at"] for car in game.cars()] == [list(c.position) for c in game.state.cars]


def test_a_seat_that_drops_out_retires_where_it_stands():
    game, _ = hosted()
    car = game.state.current_car
    retire = game.retirement()
    assert retire.action is Action.RETIRE and game.state.check(retire) is None
    game.play(MoveRecord(0, car, str(retire)))
    assert game.state.cars[car].status.value == "out"


def test_setups_are_checked_as_files_are_and_cars_named_by_seat():
    setup = new_setup({"track": "oval", "rules": "baker",
                       "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human",
                                                                    "name": "Ann"},
                                 {"kind": "computer", "level": "easy"}]}, seed=1)
    assert [c["name"] for c in setup["cars"]] == ["Ann", "Ann 2", "Green"]
    assert setup_of(race_of(setup))["seed"] == 1
    for bad, words in [({"track": "nowhere"}, "no bundled track"),
                       ({"rules": "/etc/passwd"}, "no bundled rule set"),
                       ({"track": {"name": "x"}}, "")]:
        message = {"track": "oval", "rules": "gardner", "seats": [{"kind": "human"}], **bad}
        with pytest.raises(SetupError) as caught:
            race_of(new_setup(message))
        assert words in caught.value.reason
    broken = {**setup, "cars": [{"name": "\x1b[31m", "colour": "red"}]}
    with pytest.raises(SetupError):
        race_of(broken)


def test_team_racing_seats_carry_their_teams():
    setup = new_setup({"track": "oval", "rules": "baker-teams",
                       "seats": [{"kind": "human", "name": "Ann", "team": "Red team"},
                                 {"kind": "computer", "level": "easy", "team": "Blue team"}]},
                      seed=2)
    race = race_of(setup)
    assert [car.team for car in race.cars] == ["Red team", "Blue team"]
