"""The rules bundle: rules_pkg as the zip the browser imports as it is (zipimport).

Its own module, read by runtime.py (which ships it) and stdlib.py (whose probe runs it):
neither needs the other for it.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

_ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # fixed timestamps: the same sources give the same zip


def bundle_bytes(package: Path | None = None) -> bytes:
    """rules_pkg as a deterministic zip: its .py files and its data, nothing else.

    By default the package the build imports (the one registry.json is made from).
    """
    if package is None:
        import rules_pkg

        package = Path(rules_pkg.__file__).parent
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(package.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            if path.suffix not in {".py", ".json", ".typed"}:
                continue
            info = zipfile.ZipInfo(str(path.relative_to(package.parent)), _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    return buf.getvalue()
