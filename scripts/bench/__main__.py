"""`python -m scripts.bench`: the bench (scripts/bench/main.py)."""

from scripts.bench.main import main

main()
