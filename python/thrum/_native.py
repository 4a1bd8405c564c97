"""ctypes declarations of libthrum (include/thrum.h): its functions, its option structs (field for field as
thrum.h declares them; python/tests/test_abi.py compares them with the header and a C compiler's layout), and
the helpers that turn its status + message errors into ThrumError. Internal: use the names exported by the
thrum package."""
from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

# Owned C strings (char *) are declared as POINTER(c_char) so that they can be freed with thrum_free.
_owned = ctypes.POINTER(ctypes.c_char)
_handle = ctypes.c_void_p
_error = ctypes.POINTER(_owned)
_strings = ctypes.POINTER(ctypes.c_char_p)

COMPLETION = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p)


class Options(ctypes.Structure):
    """An option struct of thrum.h: made with what its _init function sets (struct_size, and "not given"
    everywhere: integers -1, doubles NaN, pointers NULL, flags and counts 0); ``set`` fills fields from
    Python values, leaving None alone."""

    def __init__(self, **values: Any):
        super().__init__()
        for name, kind in self._fields_:
            if name == "struct_size":
                setattr(self, name, ctypes.sizeof(self))
            elif kind is ctypes.c_int64:
                setattr(self, name, -1)
            elif kind is ctypes.c_double:
                setattr(self, name, float("nan"))
        self.set(**values)

    def set(self, **values: Any) -> "Options":
        """Sets each field given a value other than None: strings and paths are encoded, lists become a
        pointer and a `NAME_count`, booleans 0 or 1."""
        for name, value in values.items():
            if value is None:
                continue
            kind = dict(self._fields_)[name]
            if kind is ctypes.c_char_p:
                setattr(self, name, encode(value))
            elif kind is _strings:
                items = [value] if isinstance(value, (str, os.PathLike)) else list(value)
                setattr(self, name, string_array(items))
                setattr(self, name[:-1] + "_count", len(items))
            elif kind is ctypes.c_int:
                setattr(self, name, int(bool(value)))
            elif isinstance(value, Options):
                setattr(self, name, ctypes.pointer(value))
            else:
                setattr(self, name, value)
        return self


class EngineSettings(Options):
    """thrum_engine_settings."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t), ("sample_rate", ctypes.c_int64), ("channels", ctypes.c_char_p),
        ("layout", ctypes.c_char_p), ("profiles", _strings), ("profile_count", ctypes.c_size_t),
        ("voices", ctypes.c_int64), ("resources", _strings), ("resource_count", ctypes.c_size_t),
        ("allow_any_path", ctypes.c_int), ("max_audio_bytes", ctypes.c_int64), ("max_audio_seconds", ctypes.c_double),
        ("max_audio_memory", ctypes.c_int64), ("haptics_from_audio", ctypes.c_int), ("preset", ctypes.c_char_p),
    ]


class CheckOptions(Options):
    """thrum_check_options."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t), ("strict", ctypes.c_int), ("engine", ctypes.POINTER(EngineSettings)),
        ("max_pattern_bytes", ctypes.c_int64), ("max_events", ctypes.c_int64), ("max_curve_points", ctypes.c_int64),
    ]


class ConvertOptions(Options):
    """thrum_convert_options."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t), ("to", ctypes.c_char_p), ("split", ctypes.c_int),
        ("meta_compatible", ctypes.c_int), ("resolution", ctypes.c_int64), ("strict", ctypes.c_int),
    ]


class AnalyzeOptions(Options):
    """thrum_analyze_options."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t), ("preset", ctypes.c_char_p), ("settings", ctypes.c_char_p),
        ("clip", ctypes.c_char_p), ("breakpoints_per_second", ctypes.c_double), ("tolerance", ctypes.c_double),
        ("attack", ctypes.c_double), ("hold", ctypes.c_double), ("release", ctypes.c_double),
        ("sensitivity", ctypes.c_double), ("gain", ctypes.c_double), ("band_low", ctypes.c_double),
        ("band_high", ctypes.c_double), ("no_normalize", ctypes.c_int), ("split", ctypes.c_int),
    ]


class ImportOptions(Options):
    """thrum_import_options."""
    _fields_ = [("struct_size", ctypes.c_size_t), ("format", ctypes.c_char_p), ("split", ctypes.c_int)]


class RenderOptions(Options):
    """thrum_render_options."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t), ("engine", ctypes.POINTER(EngineSettings)), ("loops", ctypes.c_int64),
        ("loop", ctypes.c_int), ("loop_end", ctypes.c_double), ("rate", ctypes.c_double), ("seek", ctypes.c_double),
        ("duration", ctypes.c_double),
    ]


class DeviceOptions(Options):
    """thrum_device_options."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t), ("device", ctypes.c_char_p), ("period", ctypes.c_int64),
        ("periods", ctypes.c_int64), ("onset_log", ctypes.c_char_p), ("engine", ctypes.POINTER(EngineSettings)),
    ]


#: Every option struct, by its name in thrum.h.
STRUCTS = {
    "thrum_engine_settings": EngineSettings, "thrum_check_options": CheckOptions,
    "thrum_convert_options": ConvertOptions, "thrum_analyze_options": AnalyzeOptions,
    "thrum_import_options": ImportOptions, "thrum_render_options": RenderOptions,
    "thrum_device_options": DeviceOptions,
}


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
    """Where libthrum is, found as python-soundfile finds libsndfile: ``$THRUM_LIBRARY`` when set (an explicit
    choice), else the copy bundled in the package (``thrum/lib/libthrum.so``, from ``pip install ./python``),
    else the system's (``ctypes.util.find_library("thrum")``: the ``.deb``'s or ``Tools/install.sh``'s, through
    the loader's cache or ``LD_LIBRARY_PATH``). Raises OSError naming the three places when none has it."""
    override = os.environ.get("THRUM_LIBRARY")
    if override:
        return override
    bundled = Path(__file__).resolve().parent / "lib" / "libthrum.so"
    if bundled.exists():
        return str(bundled)
    system = ctypes.util.find_library("thrum")
    if system:
        return system
    raise OSError(f"libthrum not found: not bundled ({bundled}), $THRUM_LIBRARY not set, and none installed "
                  "(ctypes.util.find_library('thrum')); install Thrum (Tools/install.sh or the .deb) or reinstall "
                  "this package without THRUM_USE_SYSTEM_LIBRARY")


library_path = _library_path()
"""The libthrum this package uses (see ``_library_path``)."""


lib = ctypes.CDLL(library_path)

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
    "thrum_check": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(CheckOptions), ctypes.POINTER(_handle), _error]),
    "thrum_diagnostics_count": (ctypes.c_size_t, [_handle]),
    "thrum_diagnostic_file": (ctypes.c_char_p, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_line": (ctypes.c_int32, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_column": (ctypes.c_int32, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_severity": (ctypes.c_char_p, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_message": (ctypes.c_char_p, [_handle, ctypes.c_size_t]),
    "thrum_diagnostic_text": (ctypes.c_char_p, [_handle, ctypes.c_size_t]),
    "thrum_diagnostics_free": (None, [_handle]),
    "thrum_convert": (
        ctypes.c_int, [_strings, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(ConvertOptions), _error, _error]),
    "thrum_analyze": (
        ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(AnalyzeOptions), _error, _error]),
    "thrum_import": (
        ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ImportOptions), _error, _error, _error]),
    "thrum_renderer_open": (_handle, [_handle, ctypes.POINTER(RenderOptions), _error]),
    "thrum_renderer_channels": (ctypes.c_int32, [_handle]),
    "thrum_renderer_sample_rate": (ctypes.c_double, [_handle]),
    "thrum_renderer_read": (ctypes.c_int64, [_handle, ctypes.c_void_p, ctypes.c_int64, _error]),
    "thrum_renderer_free": (None, [_handle]),
    "thrum_engine_open": (_handle, [ctypes.POINTER(DeviceOptions), _error]),
    "thrum_engine_time": (ctypes.c_double, [_handle]),
    "thrum_engine_sample_rate": (ctypes.c_double, [_handle]),
    "thrum_engine_channels": (ctypes.c_int32, [_handle]),
    "thrum_engine_xruns": (ctypes.c_uint64, [_handle]),
    "thrum_engine_output_time": (ctypes.c_double, [_handle, ctypes.c_double]),
    "thrum_monotonic_now": (ctypes.c_double, []),
    "thrum_engine_latency": (ctypes.c_double, [_handle]),
    "thrum_devices": (ctypes.c_int, [_error, _error]),
    "thrum_engine_finish": (ctypes.c_int, [_handle, _error]),
    "thrum_engine_close": (None, [_handle]),
    "thrum_player_new": (_handle, [_handle, _handle, ctypes.c_char_p, _error]),
    "thrum_player_start": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_start_late": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_start_at_monotonic": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_stop": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_pause": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_resume": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_seek": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_set_loop": (ctypes.c_int, [_handle, ctypes.c_int, ctypes.c_double, ctypes.c_int32, _error]),
    "thrum_player_set_rate": (ctypes.c_int, [_handle, ctypes.c_double, _error]),
    "thrum_player_set_muted": (None, [_handle, ctypes.c_int]),
    "thrum_player_position": (ctypes.c_double, [_handle]),
    "thrum_player_loop": (ctypes.c_int, [_handle, ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_int32)]),
    "thrum_player_rate": (ctypes.c_double, [_handle]),
    "thrum_player_muted": (ctypes.c_int, [_handle]),
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


def engine_settings(*, sample_rate: Optional[int] = None, channels: Optional[str] = None,
                     layout: Optional[str] = None, profile: Any = None,
                     voices: Optional[int] = None, resources: Any = None,
                     allow_any_path: bool = False, haptics_from_audio: bool = False,
                     preset: Optional[str] = None) -> EngineSettings:
    """The engine settings (thrum_engine_settings) the keywords give; None: not given."""
    return EngineSettings(
        sample_rate=sample_rate, channels=channels, layout=layout,
        profiles=[profile] if isinstance(profile, str) else profile, voices=voices, resources=resources,
        allow_any_path=allow_any_path, haptics_from_audio=haptics_from_audio, preset=preset)
