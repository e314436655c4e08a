"""The protocol's messages and secrets, without a socket."""

from __future__ import annotations

import json

import pytest

from racetrack.net import codes, protocol
from racetrack.net.protocol import ProtocolError, client_message


def text(**fields) -> str:
    return json.dumps({"v": 1, **fields})


@pytest.mark.parametrize(("raw", "code"), [
    ("", "malformed"), ("{", "malformed"), ("[]", "malformed"), ("3", "malformed"),
    (json.dumps({"type": "ping"}), "version"), (json.dumps({"v": "1", "type": "ping"}),
                                                 "version"),
    (json.dumps({"v": True, "type": "ping"}), "version"), (text(), "malformed"),
    (text(type=7), "malformed"), (text(type="fly"), "unknown-type"),
    (text(type="move", game=1, token="t", number=0, move="1,2+jump"), "malformed"),
    (text(type="move", game=0, token="t", number=0, move="1,2"), "malformed"),
    (text(type="move", game=1.5, token="t", number=0, move="1,2"), "malformed"),
    (text(type="move", game=True, token="t", number=0, move="1,2"), "malformed"),
    (text(type="move", game=1, token="", number=0, move="1,2"), "malformed"),
    (text(type="move", game=1, token="t", number=-1, move="1,2"), "malformed"),
    (text(type="move", game=1, token="t", number=0, move="12345678,2"), "malformed"),
    (text(type="join", game=1, token="x" * 65), "malformed"),
    (text(type="ping", id=[1]), "malformed"), (text(type="ping", id="x" * 65), "malformed"),
    (text(type="status", games=[{"game": 1}]), "malformed"),
    (text(type="status", games=[{"game": 1, "token": "t"}] * 201), "malformed"),
    (text(type="create", track="oval", rules="gardner", seats=[]), "malformed"),
    (text(type="create", track="oval", rules="gardner", seats=[{"kind": "robot"}]),
     "malformed"),
    (text(type="create", track="oval", rules="gardner",
          seats=[{"kind": "computer", "level": "godlike"}]), "malformed"),
    (text(type="create", track="oval", rules="gardner", seats=[{"kind": "human"}],
          move_time=0), "malformed"),
    (text(type="create", track=3, rules="gardner", seats=[{"kind": "human"}]), "malformed"),
    ('{"v": 1, "type": "ping", "x": NaN}', "malformed"),
    ('{"v": 1, "type": "ping", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "malformed"),
    (text(type="ping", x=list(range(protocol.MAX_NODES))), "too-large"),
    (" " * (protocol.MAX_MESSAGE_BYTES + 1), "too-large"),
])
def test_bad_messages_are_refused_with_a_code(raw, code):
    with pytest.raises(ProtocolError) as caught:
        client_message(raw)
    assert caught.value.code == code and caught.value.reason


def test_good_messages_pass_and_unknown_fields_are_ignored():
    move = client_message(text(type="move", game=3, token="ABC", number=7, move="-4,12+oil",
                               id="m7", later="ignored"))
    assert move["move"] == "-4,12+oil" and move["id"] == "m7"
    assert client_message(text(type="join", game=3, token="T"))["since"] == 0
    created = client_message(text(type="create", track={"name": "x"}, rules="baker",
                                  seats=[{"kind": "human", "name": "Ann"},
                                         {"kind": "computer", "level": "hard"}],
                                  move_time=86400, on_timeout="drop"))
    assert created["seats"][1]["level"] == "hard"
    assert json.loads(protocol.encode("ack", game=1, number=2)) == \
        {"v": 1, "type": "ack", "game": 1, "number": 2}
    with pytest.raises(ProtocolError):
        client_message(b'{"v": 1, "type": "ping"}')  # binary frames are not messages


def test_tokens_are_long_random_and_stored_only_as_hashes():
    tokens = {codes.new_token() for _ in range(200)}
    assert len(tokens) == 200
    assert all(len(t) == codes.TOKEN_LENGTH and codes.normal(t) == t for t in tokens)
    assert codes.TOKEN_LENGTH * 5 >= 128  # bits
    token = next(iter(tokens))
    stored = codes.secret_hash(token)
    assert token not in stored and len(stored) == 64
    typed = codes.grouped(token).lower().replace("0", "o").replace("1", "l")
    assert codes.secret_hash(typed) == stored  # typed by hand, look-alikes mended
    assert codes.normal("not a code!") == "" and codes.normal(None) == ""


def test_invitations_carry_the_game_and_the_token():
    token = codes.new_token()
    line = codes.invitation(42, token)
    assert codes.read_invitation(f"  {line.lower()} ") == (42, token)
    for bad in ("", "42", "x-" + token, "42-" + token[:-1], "1" * 20 + "-" + token):
        with pytest.raises(ValueError):
            codes.read_invitation(bad)
