"""thrum.measure: `thrum measure` from Python (libthrum's thrum_measure), the figures as numbers and numpy
arrays. Internal module: use ``thrum.measure`` and ``thrum.Measurement``."""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Optional, Union

import numpy as np

from . import _native
from ._native import ThrumError, lib as _lib

_handle = ctypes.c_void_p
_error = ctypes.POINTER(_native._owned)
_doubles = ctypes.POINTER(ctypes.c_double)


class MeasureOptions(_native.Options):
    """thrum_measure_options."""
    _fields_ = [
        ("struct_size", ctypes.c_size_t), ("output", ctypes.c_char_p), ("input", ctypes.c_char_p),
        ("channels", ctypes.c_char_p), ("input_channel", ctypes.c_int64), ("duration", ctypes.c_double),
        ("sample_rate", ctypes.c_int64), ("period", ctypes.c_int64), ("periods", ctypes.c_int64),
        ("priority", ctypes.c_int64), ("profile", ctypes.c_char_p),
    ]


# Registered with the other option structs (python/tests/test_abi.py compares them all with thrum.h).
_native.STRUCTS["thrum_measure_options"] = MeasureOptions

_signatures = {
    "thrum_measure": (ctypes.c_int, [ctypes.POINTER(MeasureOptions), ctypes.POINTER(_handle), _error]),
    "thrum_measurement_response": (ctypes.c_size_t, [_handle, _doubles, _doubles, _doubles, ctypes.c_size_t]),
    "thrum_measurement_latency": (None, [_handle, _doubles, _doubles, _doubles, _doubles, _doubles]),
    "thrum_measurement_clicks": (ctypes.c_size_t, [_handle, _doubles, ctypes.c_size_t]),
    "thrum_measurement_resonance": (ctypes.c_double, [_handle]),
    "thrum_measurement_q": (ctypes.c_double, [_handle]),
    "thrum_measurement_band": (None, [_handle, _doubles, _doubles]),
    "thrum_measurement_thd_percent": (ctypes.c_double, [_handle]),
    "thrum_measurement_noise_floor_dbfs": (ctypes.c_double, [_handle]),
    "thrum_measurement_snr_db": (ctypes.c_double, [_handle]),
    "thrum_measurement_sample_rate": (ctypes.c_double, [_handle]),
    "thrum_measurement_model": (ctypes.c_char_p, [_handle]),
    "thrum_measurement_warning_count": (ctypes.c_size_t, [_handle]),
    "thrum_measurement_warning": (ctypes.c_char_p, [_handle, ctypes.c_size_t]),
    "thrum_measurement_json": (ctypes.c_char_p, [_handle]),
    "thrum_measurement_write_profile": (ctypes.c_int, [_handle, ctypes.c_char_p, _error]),
    "thrum_measurement_free": (None, [_handle]),
}
for _name, (_result, _arguments) in _signatures.items():
    _function = getattr(_lib, _name)
    _function.restype = _result
    _function.argtypes = _arguments


@dataclass(frozen=True)
class Latency:
    """The loop's latency from DAC to ADC over the click train, in seconds."""
    median: float
    p99: float
    jitter: float
    #: the device's part (converters, buffers) and the actuator's (its group delay)
    device: float
    actuator: float
    #: each click's latency, seconds
    clicks: np.ndarray


class Measurement:
    """What :func:`measure` found. ``frequencies`` (Hz, log-spaced 20 Hz - 1 kHz), ``magnitude_db`` (captured /
    played) and ``phase_deg`` are numpy arrays of the same length; ``latency`` is a :class:`Latency`;
    ``resonance_hz``, ``q``, ``band_hz`` (low, high), ``thd_percent``, ``noise_floor_dbfs``, ``snr_db``,
    ``sample_rate``, ``model`` and ``warnings`` (empty unless the measurement is doubtful); ``json`` is the
    object ``thrum measure --json`` prints. Immutable; the C measurement is kept for :meth:`write_profile`."""

    def __init__(self, handle: int):
        self._handle = handle
        count = _lib.thrum_measurement_response(handle, None, None, None, 0)
        self.frequencies, self.magnitude_db, self.phase_deg = (np.zeros(count) for _ in range(3))
        _lib.thrum_measurement_response(handle, _pointer(self.frequencies), _pointer(self.magnitude_db),
                                        _pointer(self.phase_deg), count)
        figures = [ctypes.c_double() for _ in range(5)]
        _lib.thrum_measurement_latency(handle, *(ctypes.byref(value) for value in figures))
        clicks = np.zeros(_lib.thrum_measurement_clicks(handle, None, 0))
        _lib.thrum_measurement_clicks(handle, _pointer(clicks), len(clicks))
        self.latency = Latency(*(value.value for value in figures), clicks=clicks)
        self.resonance_hz = _lib.thrum_measurement_resonance(handle)
        self.q = _lib.thrum_measurement_q(handle)
        low, high = ctypes.c_double(), ctypes.c_double()
        _lib.thrum_measurement_band(handle, ctypes.byref(low), ctypes.byref(high))
        self.band_hz = (low.value, high.value)
        self.thd_percent = _lib.thrum_measurement_thd_percent(handle)
        self.noise_floor_dbfs = _lib.thrum_measurement_noise_floor_dbfs(handle)
        self.snr_db = _lib.thrum_measurement_snr_db(handle)
        self.sample_rate = int(_lib.thrum_measurement_sample_rate(handle))
        self.model = _native.decode(_lib.thrum_measurement_model(handle))
        self.warnings = [_native.decode(_lib.thrum_measurement_warning(handle, index))
                         for index in range(_lib.thrum_measurement_warning_count(handle))]
        self.json = _native.decode(_lib.thrum_measurement_json(handle))

    @property
    def doubtful(self) -> bool:
        """True when a warning makes the figures doubtful (a silent, clipped or noisy input, ...)."""
        return bool(self.warnings)

    def write_profile(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the actuator profile that equalises this actuator and records its latency (``thrum measure
        --write-profile PATH``). Raises ThrumError: 65 a doubtful measurement (nothing written), 73, 74."""
        _native.call_status(_lib.thrum_measurement_write_profile, self._handle, _native.encode(path))

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            _lib.thrum_measurement_free(handle)


def _pointer(array: np.ndarray):
    return array.ctypes.data_as(_doubles)


def measure(output: Optional[str] = None, input: Optional[str] = None, *, channels: Optional[str] = None,
            input_channel: Optional[int] = None, duration: Optional[float] = None, sample_rate: Optional[int] = None,
            period: Optional[int] = None, periods: Optional[int] = None, priority: Optional[int] = None,
            profile: Optional[str] = None, allow_doubtful: bool = False) -> Measurement:
    """Measures the actuator loop as ``thrum measure --device OUTPUT --input INPUT`` does (docs/measure.md):
    a sweep and a click train on the haptic channel of ``output`` (ALSA; None: ``default``), captured on
    ``input`` (required). Blocks for about ``duration`` (the sweep, 1-30 s; default 4) plus 6 s.

    Raises ThrumError with the command's status: 64 a bad option, 69 a device missing or refusing the setup,
    74 a capture failure; 65 when the measurement is doubtful (silent, clipped, too noisy, ...) unless
    ``allow_doubtful`` is true, when the Measurement is returned with its ``warnings``."""
    if input is None:
        raise ThrumError("thrum.measure: give input= (the capture device the sensor is on)", 64)
    options = MeasureOptions(output=output, input=input, channels=channels, input_channel=input_channel,
                             duration=duration, sample_rate=sample_rate, period=period, periods=periods,
                             priority=priority, profile=profile)
    handle = _handle()
    error = _native._owned()
    status = _lib.thrum_measure(ctypes.byref(options), ctypes.byref(handle), ctypes.byref(error))
    message = _native.take_string(error)
    measurement = Measurement(handle.value) if handle.value else None
    if status != 0 and not (allow_doubtful and measurement is not None and status == 65):
        failure = ThrumError(message or "thrum_measure failed without a message", status)
        failure.measurement = measurement  # type: ignore[attr-defined]
        raise failure
    assert measurement is not None
    return measurement
