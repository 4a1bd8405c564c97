"""ctypes declarations of libthrum (include/thrum.h) and the helpers that turn its status + message errors
into ThrumError. Internal: use the names exported by the thrum package."""
from __future__ import annotations

import ctypes
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

# Owned C strings (char *) are declared as POINTER(c_char) so that they can be freed with thrum_free.
_owned = ctypes.POINTER(ctypes.c_char)
_handle = ctypes.c_void_p
_error = ctypes.POINTER(_owned)
_strings = ctypes.POINTER(ctypes.c_char_p)

COMPLETION = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p)


class ThrumError(Exception):
    """A call failed: ``str(error)`` is the one-line message the ``thrum`` command prints for the same
    mistake (after ``thrum COMMAND:``). ``error.status`` is the command's exit code for it (64 usage, 65 bad
    data, 66 missing file, 69 no device, 70 internal error, 73 cannot create, 74 cannot write), for every
    call; None only for errors raised by Python itself."""

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.status = status


def _library_path() -> str:
    override = os.environ.get("THRUM_LIBRARY")
    if override:
        return override
    return str(Path(__file__).resolve().parent / "lib" / "libthrum.so")


lib = ctypes.CDLL(_library_path())

_signatures: dict[str, tuple[Any, list[Any]]] = {
    "thrum_version": (ctypes.c_char_p, []),
    "thrum_free": (None, [ctypes.c_void_p]),
    "thrum_last_status": (ctypes.c_int, []),
    "thrum_pattern_load": (_handle, [ctypes.c_char_p, _error]),
    "thrum_pattern_from_json": (_handle, [ctypes.c_char_p, ctypes.c_size_t, _error]),
    "thrum_pattern_from_haptic": (_handle, [ctypes.c_char_p, ctypes.c_size_t, _error]),
    "thrum_pattern_duration": (ctypes.c_double, [_handle]),
    "thrum_pattern_write": (ctypes.c_int, [_handle, ctypes.c_char_p, _error, _error]),
    "thrum_pattern_free": (None, [_handle]),
    "thrum_check": (ctypes.c_int, [ctypes.c_char_p, _strings, ctypes.c_size_t, ctypes.POINTER(_handle), _error]),
    "thrum_diagnostics_count": (ctypes.c_size_t, [_handle]),
    "thrum_diagnostic_file": (ctypes.c_char_p, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_line": (ctypes.c_int32, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_column": (ctypes.c_int32, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_severity": (ctypes.c_char_p, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_message": (ctypes.c_char_p, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_text": (ctypes.c_char_p, [_handle, ctypes.c_size_t]),
    "thrum_diagnostics_free": (None, [_handle]),
    "thrum_convert": (
        ctypes.c_int, [_strings, ctypes.c_size_t, ctypes.c_char_p, _strings, ctypes.c_size_t, _error, _error]),
    "thrum_analyze": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, _strings, ctypes.c_size_t, _error, _error]),
    "thrum_renderer_open": (_handle, [_handle, _strings, ctypes.c_size_t, _error]),
    "thrum_renderer_channels": (ctypes.c_int32, [_handle]),
    "thrum_renderer_sample_rate": (ctypes.c_double, [_handle]),
    "thrum_renderer_read": (ctypes.c_int64, [_handle, ctypes.c_void_p, ctypes.c_int64, _error]),
    "thrum_renderer_free": (None, [_handle]),
    "thrum_engine_open": (_handle, [_strings, ctypes.c_size_t, _error]),
    "thrum_engine_time": (ctypes.c_double, [_handle]),
    "thrum_engine_sample_rate": (ctypes.c_double, [_handle]),
    "thrum_engine_channels": (ctypes.c_int32, [_handle]),
    "thrum_engine_xruns": (ctypes.c_uint64, [_handle]),
    "thrum_engine_output_time": (ctypes.c_double, [_handle, ctypes.c_double]),
    "thrum_monotonic_now": (ctypes.c_double, []),
    "thrum_engine_finish": (ctypes.c_int, [_handle, _error]),
    "thrum_engine_close": (None, [_handle]),
    "thrum_player_new": (_handle, [_handle, _handle, ctypes.c_char_p, _error]),
    "thrum_player_start": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_start_at_monotonic": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_stop": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_pause": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_resume": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_seek": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_set_loop": (ctypes.c_int, [_handle, ctypes.c_int, ctypes.c_double, ctypes.c_int32, _error]),
    "thrum_player_set_rate": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_set_muted": (None, [_handle, ctypes.c_int]),
    "thrum_player_position": (ctypes.c_double, [_handle]),
    "thrum_player_send_parameter": (ctypes.c_int, [_handle, ctypes.c_char_p, ctypes.c_float, ctypes.c_double, _error]),
    "thrum_player_schedule_curve": (
        ctypes.c_int,
        [_handle, ctypes.c_char_p, ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_float), ctypes.c_size_t,
         ctypes.c_double, _error]),
    "thrum_player_set_completion": (None, [_handle, COMPLETION, ctypes.c_void_p]),
    "thrum_player_free": (None, [_handle]),
}
for _name, (_result, _arguments) in _signatures.items():
    _function = getattr(lib, _name)
    _function.restype = _result
    _function.argtypes = _arguments


def encode(text: "str | os.PathLike[str]") -> bytes:
    """A str or path as the bytes the C side takes (file names that are not UTF-8 survive)."""
    return os.fsencode(text)


def decode(data: Optional[bytes]) -> str:
    return os.fsdecode(data) if data is not None else ""


def take_string(pointer: Any) -> Optional[str]:
    """The text of an owned C string, which is then freed; None for NULL."""
    if not pointer:
        return None
    text = decode(ctypes.string_at(pointer))
    lib.thrum_free(pointer)
    return text


def string_array(items: Sequence[str]) -> Any:
    array = (ctypes.c_char_p * max(len(items), 1))()
    for index, item in enumerate(items):
        array[index] = encode(item)
    return array


def options(values: dict[str, Any]) -> list[str]:
    """Keyword arguments as command-line options: ``loop_end=0.5`` → ``--loop-end 0.5``, ``strict=True`` →
    ``--strict``; None and False are left out; a list repeats the option."""
    result: list[str] = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        option = "--" + key.replace("_", "-")
        if value is True:
            result.append(option)
        elif isinstance(value, (list, tuple)):
            for item in value:
                result += [option, _text(item)]
        else:
            result += [option, _text(value)]
    return result


def _text(value: Any) -> str:
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)


def call(function: Callable[..., Any], *arguments: Any, failed: Callable[[Any], bool]) -> Any:
    """Calls ``function(*arguments, &error)``; raises ThrumError when ``failed(result)``."""
    error = _owned()
    result = function(*arguments, ctypes.byref(error))
    if failed(result):
        status = lib.thrum_last_status()  # read first: nothing else on this thread may call in between
        message = take_string(error) or "libthrum call failed without a message"
        raise ThrumError(message, status)
    take_string(error)
    return result


def call_status(function: Callable[..., Any], *arguments: Any) -> None:
    """Calls a function returning a status; raises ThrumError unless it is 0."""
    call(function, *arguments, failed=lambda status: status != 0)


def strings_of(items: Iterable[str]) -> tuple[Any, int]:
    listed = list(items)
    return string_array(listed), len(listed)
