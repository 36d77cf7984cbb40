"""The limits of a fight, declared once (issue 24: a bounded replay).

Everything a stored or imported encounter may hold is bounded here, and the page shows
these same numbers (api op "limits"); a file beyond one is refused with a message naming
it. Within them, a replay is bounded too: replay.py folds in slices and keeps checkpoints.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    combatants: int = 40  # in one encounter at a time
    events: int = 5000  # in its log, undo events included
    file_chars: int = 2_000_000  # an encounter file's text (and a request's)
    name: int = 60  # a combatant's name, in characters (an encounter's: 80)
    encounter_name: int = 80
    depth: int = 20  # how deeply a file's JSON may nest (an encounter needs 4)

    def to_dict(self) -> dict[str, int | str]:
        return {"combatants": self.combatants, "events": self.events,
                "file_chars": self.file_chars, "depth": self.depth, "text": self.text()}

    def text(self) -> str:
        return (f"A fight holds at most {self.combatants} combatants and {self.events:,} "
                f"events; an encounter file is at most {self.file_chars:,} characters.")


LIMITS = Limits()
MAX_COMBATANTS = LIMITS.combatants
MAX_EVENTS = LIMITS.events
MAX_FILE = LIMITS.file_chars
MAX_NAME = LIMITS.name
