"""rules_pkg: the combat rules of five tabletop RPGs, with exact odds.

Pure Python, standard library only; runs unchanged on CPython and in Pyodide.
"""

from .dice import MAX_DICE, Distribution, roll
from .errors import InputError, LimitError, RulesError
from .kernel import In, calculator
from .registry import Calculator, Input, calculators, get
from .result import Die, Highlight, Odds, OddsRow, Result

__all__ = [
    "MAX_DICE", "Calculator", "Die", "Distribution", "Highlight", "In", "Input", "InputError",
    "LimitError",
    "Odds", "OddsRow", "Result", "RulesError", "calculator", "calculators", "get", "roll",
]
