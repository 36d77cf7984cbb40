"""`python -m scripts.extract [--check] [--only SOURCE]`: see scripts/extract/pipeline.py."""

import sys

from .pipeline import main

sys.exit(main())
