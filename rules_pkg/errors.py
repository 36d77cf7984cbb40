"""The errors rules_pkg raises: each carries a message fit to show a player."""


class RulesError(ValueError):
    """Bad input or a question the source cannot answer; the message says which."""


class LimitError(RulesError):
    """A request over one of the engine's limits (checked before any work)."""
