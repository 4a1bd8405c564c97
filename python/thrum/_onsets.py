"""Onsets as they happen (libthrum's thrum_engine_set_onset_handler): the Onset a live Engine passes to its
``on_onset`` callable. Internal module: use ``thrum.Engine(on_onset=...)`` and ``thrum.Onset``."""
from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from typing import Any, Callable, Optional

from . import _native
from ._native import lib as _lib


class _COnset(ctypes.Structure):
    """thrum_onset (include/thrum.h)."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t), ("player", ctypes.c_int64), ("label", ctypes.c_char_p),
        ("pattern", ctypes.c_char_p), ("event", ctypes.c_int64), ("type", ctypes.c_char_p), ("frame", ctypes.c_int64),
        ("engine_time", ctypes.c_double), ("dac_time", ctypes.c_double), ("pattern_time", ctypes.c_double),
        ("instance", ctypes.c_int64), ("loop", ctypes.c_int64),
    ]


# Registered with the option structs (python/tests/test_abi.py compares them all with thrum.h).
_native.STRUCTS["thrum_onset"] = _COnset

ONSET = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_COnset))

_signatures = {
    "thrum_engine_set_onset_handler": (None, [ctypes.c_void_p, ONSET, ctypes.c_void_p]),
    "thrum_player_id": (ctypes.c_int64, [ctypes.c_void_p]),
    "thrum_player_set_label": (None, [ctypes.c_void_p, ctypes.c_char_p]),
}
for _name, (_result, _arguments) in _signatures.items():
    _function = getattr(_lib, _name)
    _function.restype = _result
    _function.argtypes = _arguments


@dataclass(frozen=True)
class Onset:
    """One event onset the device played (the onset log's line, as it happens): ``player`` (its
    :attr:`Player.id`), ``label`` (``engine.player(..., label=)``, or None), ``pattern`` (its name), ``event``
    (index in the pattern, from 0), ``type`` (``"HapticTransient"``, ...), ``frame`` (stream frame),
    ``engine_time`` (s), ``dac_time`` (CLOCK_MONOTONIC s it left the DAC, None when unknown), ``pattern_time``
    (s), ``instance``, ``loop``."""
    player: int
    label: Optional[str]
    pattern: Optional[str]
    event: int
    type: str
    frame: int
    engine_time: float
    dac_time: Optional[float]
    pattern_time: float
    instance: int
    loop: int


def install(engine: int, on_onset: Callable[[Onset], Any]) -> Any:
    """Passes every onset of the engine to ``on_onset`` (on the engine's onset thread); returns the C callback,
    which the engine must keep for as long as it is open."""
    def deliver(_context: Any, pointer: Any) -> None:
        record = pointer.contents
        on_onset(Onset(
            player=record.player, label=_text(record.label), pattern=_text(record.pattern), event=record.event,
            type=_native.decode(record.type), frame=record.frame, engine_time=record.engine_time,
            dac_time=None if math.isnan(record.dac_time) else record.dac_time, pattern_time=record.pattern_time,
            instance=record.instance, loop=record.loop))
    callback = ONSET(deliver)
    _lib.thrum_engine_set_onset_handler(engine, callback, None)
    return callback


def _text(data: Optional[bytes]) -> Optional[str]:
    return None if data is None else _native.decode(data)
