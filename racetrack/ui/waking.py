"""Waking the window when work done off the frame comes in.

The window draws only when something changes (``ui.app``): between a player's inputs it sleeps
in ``pygame.event.wait``. A computer driver's move, a table built, a file listed or written are
worked out on threads; each posts a ``WAKE`` event when it is done, so the window wakes at once,
takes the result in and draws it, and never has to poll.
"""

from __future__ import annotations

import contextlib
from concurrent.futures import Future
from typing import Any

import pygame

#: The event a finished job posts (SDL's queue is safe to post to from any thread).
WAKE = pygame.event.custom_type()


def wake(*_: Any) -> None:
    """Post ``WAKE`` (the arguments, such as a finished future, are ignored). Harmless once
    the window has closed."""
    with contextlib.suppress(pygame.error):
        pygame.event.post(pygame.event.Event(WAKE))


def waking(future: Future) -> Future:
    """``future``, set to wake the window when it is done; returned for chaining."""
    future.add_done_callback(wake)
    return future
