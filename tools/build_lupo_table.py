"""Solve Lupo e pecore by retrograde analysis and write assets/ai/lupo.bin (zlib).

python tools/build_lupo_table.py
"""

from __future__ import annotations

import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai.lupo_table import ASSET, solve

OUT = Path(__file__).resolve().parent.parent / "assets" / ASSET


def main() -> int:
    began = time.perf_counter()
    table = solve()
    data = zlib.compress(bytes(table), 9)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(data)
    print(
        f"solved {len(table):,} positions in {time.perf_counter() - began:.1f} s; "
        f"wrote {OUT.name}: {len(data):,} bytes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
