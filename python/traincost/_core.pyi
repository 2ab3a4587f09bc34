# Type stub of the native extension traincost._core (python/src/core_module.cpp). Use the
# functions of the traincost package; they wrap this module.
from typing import List, Tuple, Union

def call(name: str, first: Union[str, bytes] = "", second: Union[str, bytes] = "") -> Tuple[bool, str]:
    """Runs the core API function `name` on JSON text; returns (ok, reply JSON text)."""

def functions() -> List[Tuple[str, int]]:
    """Every function of the core's API with the number of text arguments it takes."""

def _last_call_held_gil() -> bool: ...

def read_file(path: bytes) -> Tuple[bool, bytes]:
    """The file's bytes (at most 1 MiB), or (False, why it cannot be read): the CLI's reader."""
