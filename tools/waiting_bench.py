"""``python tools/waiting_bench.py TREE``: the frames bench's *waiting for the computer*
scenario (:func:`tools.benchmarks.frames._waiting`, from this checkout) run on the game of
TREE, another checkout, so that a commit before the scenario existed can be measured side
by side with this one; prints JSON.  ``SDL_VIDEODRIVER`` chooses the video driver (dummy by
default; ``x11`` with a DISPLAY).  Run it with TREE as the working directory and on
PYTHONPATH, e.g.::

    git worktree add /tmp/before 94655e4
    cd /tmp/before && PYTHONPATH=/tmp/before python /path/to/this/tools/waiting_bench.py .
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path

FRAMES = Path(__file__).resolve().parent / "benchmarks" / "frames.py"


def main(tree: str) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from game.client.app import App, Paths  # TREE's game: it is first on the path

    spec = importlib.util.spec_from_file_location("frames_bench", FRAMES)
    assert spec is not None and spec.loader is not None
    frames = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(frames)
    home = Path(tempfile.mkdtemp())
    app = App(Paths(home / "config", home / "data"), size=(1920, 1080), fullscreen=False)
    try:
        print(json.dumps({"tree": str(Path(tree).resolve()), **frames._waiting(app)}))
    finally:
        app.close()


if __name__ == "__main__":  # the worker process is spawned: it must not run this again
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
