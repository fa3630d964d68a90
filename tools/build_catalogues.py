"""Compile the translation catalogues: assets/locale/*/LC_MESSAGES/tavolo.po → .mo.

    python tools/build_catalogues.py           # write the .mo files
    python tools/build_catalogues.py --check   # exit 1 if any .mo is missing or stale

Needs Babel (in the ``test`` extra).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent.parent / "assets" / "locale"


def compiled(po_path: Path) -> bytes:
    """The .mo bytes for one .po file (fuzzy entries left out, as msgfmt does)."""
    with po_path.open("rb") as source:
        catalog = read_po(source, abort_invalid=True)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def messages(mo_data: bytes) -> dict:
    """What a compiled catalogue says (not its bytes, which vary between Babel versions); a
    plural message's forms as tuples."""
    return {_forms(m.id): _forms(m.string) for m in read_mo(io.BytesIO(mo_data)) if m.id}


def _forms(text: str | list[str] | tuple[str, ...]) -> str | tuple[str, ...]:
    return text if isinstance(text, str) else tuple(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for po_path in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        data = compiled(po_path)
        if mo_path.exists() and messages(mo_path.read_bytes()) == messages(data):
            continue
        if args.check:
            stale.append(mo_path)
        else:
            mo_path.write_bytes(data)
            print(f"wrote {mo_path.relative_to(LOCALE.parent.parent)}")
    for path in stale:
        print(f"stale: {path.relative_to(LOCALE.parent.parent)}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
