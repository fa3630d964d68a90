"""Every picture the README and the docs show exists (a regeneration once deleted them)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def test_every_image_the_readme_and_the_docs_show_exists() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    shown = [(page, link) for page in pages for link in IMAGE.findall(page.read_text())]
    assert any(page.name == "README.md" for page, _ in shown)  # the check reads the README
    missing = [
        f"{page.relative_to(ROOT)}: {link}"
        for page, link in shown
        if not link.startswith("http") and not (page.parent / link).is_file()
    ]
    assert not missing, missing
