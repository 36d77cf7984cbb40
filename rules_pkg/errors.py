"""The errors rules_pkg raises: each carries a message fit to show a player."""

from __future__ import annotations

from collections.abc import Iterable


class RulesError(ValueError):
    """Bad input or a question the source cannot answer; the message says which."""


class EventError(RulesError):
    """An event of a log the rules refuse: which one (its index in the log, from 0), its
    kind, and the bare reason, so a page can say "event 12 (hit): …" of a file, and only
    the reason of a tap just made."""

    def __init__(self, index: int, kind: str, reason: str) -> None:
        super().__init__(f"event {index + 1} ({kind}): {reason}")
        self.index = index
        self.reason = reason
        self.eid = ""  # the stored event's id, when the log had ids (replay.replay)


class LimitError(RulesError):
    """A request over one of the engine's limits (checked before any work)."""


class InputError(RulesError):
    """Bad input that one input is to blame for, given by its name: a calculator's answer
    puts that input's label first (Calculator.run), so a player knows which field to
    change, however deep in the rule the refusal was made."""

    def __init__(self, input: str, message: str) -> None:
        super().__init__(message)
        self.input = input

    def named(self, labels: Iterable[tuple[str, str]]) -> InputError:
        """The same refusal, its input's label first (`labels`: name, label pairs)."""
        label = dict(labels).get(self.input)
        text = str(self)
        if label is None or text.startswith(label):
            return self
        return InputError(self.input, f"{label}: {text}")


class InputLimitError(InputError, LimitError):
    """An engine limit that one input is to blame for."""
