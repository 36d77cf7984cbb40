"""The bench: speed and size figures (`make bench`, `python -m scripts.bench`; see main.py)."""
