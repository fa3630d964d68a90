# The part of msgpack's API that game/rules and net use, typed for mypy (msgpack ships no
# types). Anything unpacked is Any: its shape is what the caller checks.
from typing import Any

class UnpackException(Exception): ...  # noqa: N818 (msgpack's name)

def packb(o: object, *, use_bin_type: bool = ...) -> bytes: ...
def unpackb(packed: bytes, **options: Any) -> Any: ...
