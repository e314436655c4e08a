"""Waking the window when work done off the frame comes in.

The window draws only when something changes (``ui.app``): between a player's inputs it sleeps.
A computer driver's move, a table built, a file listed or written are worked out on threads;
each posts a ``WAKE`` event when it is done and rings ``ALARM``, so the sleeping window wakes at
once, takes the result in and draws it.

The window sleeps on ``ALARM`` rather than in ``pygame.event.wait``, which polls SDL's queue a
thousand times a second (3 % of a core doing nothing): it looks at the queue some thirty times
a second for the player's inputs, and at once when a job rings.
"""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import Future
from typing import Any

import pygame

#: The event a finished job posts (SDL's queue is safe to post to from any thread).
WAKE = pygame.event.custom_type()
#: Rung with every ``WAKE``: the sleeping window waits on it.
ALARM = threading.Event()


def wake(*_: Any) -> None:
    """Post ``WAKE`` and ring ``ALARM`` (the arguments, such as a finished future, are
    ignored). Harmless once the window has closed."""
    with contextlib.suppress(pygame.error):
        pygame.event.post(pygame.event.Event(WAKE))
    ALARM.set()


def waking(future: Future) -> Future:
    """``future``, set to wake the window when it is done; returned for chaining."""
    future.add_done_callback(wake)
    return future
