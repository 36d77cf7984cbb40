"""The extracted model: its types live in rules_pkg/model.py (one set, shared by this
extractor, which writes rules_pkg/data/<game>.json, and rules_pkg.data, which reads it)."""

from rules_pkg.model import Block as Block
from rules_pkg.model import Document as Document
from rules_pkg.model import Lines as Lines
from rules_pkg.model import Lint as Lint
from rules_pkg.model import ListBlock as ListBlock
from rules_pkg.model import ListItem as ListItem
from rules_pkg.model import Paragraph as Paragraph
from rules_pkg.model import Row as Row
from rules_pkg.model import Section as Section
from rules_pkg.model import Table as Table
