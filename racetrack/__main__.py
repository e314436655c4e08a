"""``python -m racetrack``: the same as the ``racetrack`` command."""

import sys

from racetrack.cli import main

sys.exit(main())
