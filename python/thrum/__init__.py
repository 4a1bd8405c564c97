"""Thrum from Python: Core Haptics patterns (AHAP, Meta's .haptic) rendered to numpy arrays or played live
through ALSA, with the same engine, options and messages as the ``thrum`` command.

>>> import thrum
>>> p = thrum.Pattern.load("heartbeat")               # a file, or a bundled pattern by name
>>> x = thrum.render(p, sample_rate=48000, channels="L,R,H")   # float32 array (frames, channels)
>>> thrum.check("file.ahap")                           # [] or [thrum.Diagnostic(...), ...]
>>> with thrum.Engine(device="default", channels="L,R,H") as engine:
...     player = engine.player(p); player.loop = True; player.rate = 1.5
...     player.start(); player.seek(0.5); player.pause(); player.resume(); player.stop()

Timing (docs/timing.md): ``Engine(onset_log="onsets.jsonl")`` logs every event onset played (pattern time,
stream frame, estimated DAC time on CLOCK_MONOTONIC) as ``thrum play --onset-log`` does;
``player.start(monotonic=thrum.monotonic_now() + 0.5)`` starts on the frame that leaves the DAC then.

Every failure raises :class:`ThrumError` with the command's one-line message. Thread safety: patterns and
diagnostics are immutable; an Engine and its Players may be used from several threads; ``render`` may run
in several threads at once (each call has its own renderer).
"""
from __future__ import annotations

import json as _json
import os
import threading
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from ._native import ThrumError, lib as _lib

__all__ = ["__version__", "ThrumError", "Pattern", "Diagnostic", "render", "check", "convert", "analyze", "Engine",
           "Player", "monotonic_now"]

ThrumError.__module__ = "thrum"  # shown as thrum.ThrumError in tracebacks

__version__: str = _native.decode(_lib.thrum_version())
"""Thrum's version (the library's: ``thrum --version`` prints the same)."""

PathLike = Union[str, "os.PathLike[str]"]


class Pattern:
    """A haptic pattern (AHAP events, parameters and curves; audio files it names are loaded by players).

    Make one with :meth:`load`, :meth:`from_json` or :meth:`from_haptic`. Immutable: share it between
    threads and players freely.
    """

    def __init__(self, handle: int, name: str):
        """Internal: use :meth:`load`, :meth:`from_json` or :meth:`from_haptic`."""
        self._handle = handle
        self.name = name
        """The name in messages: the path, or ``<json>`` / ``<haptic>`` for text."""

    @classmethod
    def load(cls, path_or_name: PathLike) -> "Pattern":
        """Loads a pattern as ``thrum render PATH_OR_NAME`` does: an AHAP file, a ``.haptic`` file, a bundled
        pattern by name (``"heartbeat"``; ``thrum list`` shows them), or a sound file played as it is.
        ``"NAME@ACTUATOR"`` plays it on one actuator. Raises ThrumError (a missing file, errors in it)."""
        handle = _native.call(_lib.thrum_pattern_load, _native.encode(path_or_name), failed=lambda h: not h)
        return cls(handle, os.fspath(path_or_name))

    @classmethod
    def from_json(cls, json: Union[str, bytes, Mapping[str, Any]]) -> "Pattern":
        """A pattern from AHAP text or an AHAP dictionary (``{"Version": 1, "Pattern": [...]}``). Its audio
        files are looked up in the resource folders only. Raises ThrumError with the first error
        (``<json>:LINE:COLUMN: error: ...``)."""
        data = _text_bytes(json)
        handle = _native.call(_lib.thrum_pattern_from_json, data, len(data), failed=lambda h: not h)
        return cls(handle, "<json>")

    @classmethod
    def from_haptic(cls, json: Union[str, bytes, Mapping[str, Any]]) -> "Pattern":
        """A pattern from the text (or dictionary) of a ``.haptic`` file (Meta Haptics Studio / Lofelt v1),
        played as ``thrum play file.haptic`` plays it. Raises ThrumError."""
        data = _text_bytes(json)
        handle = _native.call(_lib.thrum_pattern_from_haptic, data, len(data), failed=lambda h: not h)
        return cls(handle, "<haptic>")

    @property
    def duration(self) -> float:
        """The pattern's length in seconds (release tails excluded)."""
        return float(_lib.thrum_pattern_duration(self._handle))

    def write(self, path: PathLike) -> list[str]:
        """Writes the pattern as AHAP (``.ahap``) or ``.haptic`` (converted as ``thrum convert`` does), via a
        temporary file (a failure leaves nothing). Returns the conversion's losses, one line each."""
        warnings = _native._owned()
        _native.call_status(_lib.thrum_pattern_write, self._handle, _native.encode(path), _ctypes_ref(warnings))
        return _lines(_native.take_string(warnings))

    def __repr__(self) -> str:
        return f"thrum.Pattern({self.name!r}, duration={self.duration:g})"

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle and _lib is not None:
            _lib.thrum_pattern_free(handle)


@dataclass(frozen=True)
class Diagnostic:
    """One finding of :func:`check`, as ``thrum check`` prints it: ``str(diagnostic)`` is the whole line."""

    file: str
    """The file name as given."""
    line: Optional[int]
    """1-based line, or None when unknown."""
    column: Optional[int]
    """1-based column, or None when unknown."""
    message: str
    """What is wrong: ``PATH: MESSAGE; SUGGESTION [CHHapticError.NAME]``."""
    severity: str = "error"
    """``"error"`` (Core Haptics would refuse it) or ``"warning"``."""

    def __str__(self) -> str:
        place = self.file + (f":{self.line}" if self.line else "") + (f":{self.column}" if self.line and self.column else "")
        return f"{place}: {self.severity}: {self.message}"


def render(pattern: Pattern, sample_rate: int = 48000, channels: str = "L,R,H", loops: Optional[int] = None,
           rate: Optional[float] = None, *, loop: bool = False, loop_end: Optional[float] = None,
           seek: Optional[float] = None, duration: Optional[float] = None, layout: Optional[str] = None,
           profile: Union[None, str, Sequence[str]] = None, voices: Optional[int] = None,
           resources: Union[None, PathLike, Sequence[PathLike]] = None, allow_any_path: bool = False,
           haptics_from_audio: bool = False, preset: Optional[str] = None,
           out: Optional[np.ndarray] = None) -> np.ndarray:
    """Renders ``pattern`` offline: the samples ``thrum render PATTERN --format float`` writes with the same
    options, sample for sample, as a float32 array of shape (frames, channels).

    sample_rate: Hz (1000 … 768000). channels: the channel map, one entry per column (``L,R,H``: audio
    left, right, haptic; ``M+H``; ``H:leftHandle``; …). loops: play N times in all; loop: forever (needs
    ``duration``); loop_end: loop point in pattern seconds; rate: speed 0.01 … 100; seek: start this many
    seconds in; duration: exactly this many seconds (without it a render ends with the pattern's release
    tails and may last at most 600 s). layout, profile (``"lra"``, a JSON file, or ``"NAME=PROFILE"``;
    several in a list), voices, resources, allow_any_path, haptics_from_audio, preset: as the command's
    options of those names. out: a writable C-contiguous float32 array of shape (N, channels) to render into
    (reusing one skips the cost of fresh memory, which can exceed the render's own); the result is then the
    view ``out[:frames]``, and an ``out`` shorter than the render raises ThrumError (64). Raises ThrumError
    with the command's message for a bad option or pattern.
    """
    arguments = {"loops": loops, "loop": loop, "loop_end": loop_end, "rate": rate, "seek": seek,
                 "duration": duration, "sample_rate": sample_rate, "layout": layout, "voices": voices,
                 "profile": profile, "resources": resources, "allow_any_path": allow_any_path,
                 "haptics_from_audio": haptics_from_audio, "preset": preset}
    if layout is None:
        arguments["channels"] = channels
    array, count = _native.strings_of(_native.options(arguments))
    renderer = _native.call(_lib.thrum_renderer_open, pattern._handle, array, count, failed=lambda h: not h)
    try:
        width = _lib.thrum_renderer_channels(renderer)
        if out is not None:
            return _render_into(renderer, out, width)
        # One array, sized for the expected length plus 0.25 s of release tails and doubled if that is short,
        # then shrunk in place: the samples are written once, where they stay.
        seconds = duration if duration else pattern.duration * max(loops or 1, 1) / (rate or 1.0) - (seek or 0)
        rate_hz = _lib.thrum_renderer_sample_rate(renderer)
        out = np.empty((max(int((max(seconds, 0) + 0.25) * rate_hz), 4096), width), dtype=np.float32)
        total = 0
        while True:
            if total == len(out):
                bigger = np.empty((2 * len(out), width), dtype=np.float32)
                bigger[:total] = out
                out = bigger
            room = len(out) - total
            frames = _native.call(_lib.thrum_renderer_read, renderer, out[total:].ctypes.data, room,
                                  failed=lambda n: n < 0)
            total += frames
            if frames < room:
                break
        out.resize((total, width), refcheck=False)
        return out
    finally:
        _lib.thrum_renderer_free(renderer)


def _render_into(renderer: int, out: np.ndarray, width: int) -> np.ndarray:
    """Renders all of ``renderer`` into ``out`` (see :func:`render`); returns ``out[:frames]``."""
    if not (isinstance(out, np.ndarray) and out.dtype == np.float32 and out.ndim == 2 and out.shape[1] == width
            and out.flags.c_contiguous and out.flags.writeable):
        raise ThrumError(f"out= takes a writable C-contiguous float32 array of shape (frames, {width})", 64)
    frames = _native.call(_lib.thrum_renderer_read, renderer, out.ctypes.data, len(out), failed=lambda n: n < 0)
    if frames == len(out):
        probe = np.empty((1, width), dtype=np.float32)
        if _native.call(_lib.thrum_renderer_read, renderer, probe.ctypes.data, 1, failed=lambda n: n < 0):
            raise ThrumError(f"out= has room for {len(out)} frames and the render is longer (give a larger array, "
                             "or duration=)", 64)
    return out[:frames]


def check(path: PathLike, *, strict: bool = False, sample_rate: Optional[int] = None, voices: Optional[int] = None,
          profile: Optional[str] = None, resources: Union[None, PathLike, Sequence[PathLike]] = None,
          allow_any_path: bool = False) -> list[Diagnostic]:
    """Checks a pattern file as ``thrum check PATH`` does (the file, its audio files, what ``play`` would
    refuse or lose) and returns every finding: ``[]`` for a clean file. Errors and warnings are findings,
    not exceptions; with ``strict`` every warning is an error. Raises ThrumError (status 66) when the file
    is missing or unreadable, 64 for a bad option."""
    arguments = {"strict": strict, "sample_rate": sample_rate, "voices": voices, "profile": profile,
                 "resources": resources, "allow_any_path": allow_any_path}
    array, count = _native.strings_of(_native.options(arguments))
    handle = _native.ctypes.c_void_p()
    _native.call_status(_lib.thrum_check, _native.encode(path), array, count, _ctypes_ref(handle))
    try:
        found = []
        for index in range(_lib.thrum_diagnostics_count(handle)):
            line = _lib.thrum_diagnostic_line(handle, index)
            column = _lib.thrum_diagnostic_column(handle, index)
            found.append(Diagnostic(
                file=_native.decode(_lib.thrum_diagnostic_file(handle, index)), line=line or None,
                column=column or None, message=_native.decode(_lib.thrum_diagnostic_message(handle, index)),
                severity=_native.decode(_lib.thrum_diagnostic_severity(handle, index))))
        return found
    finally:
        _lib.thrum_diagnostics_free(handle)


def convert(inputs: Union[PathLike, Sequence[PathLike]], output: PathLike, **options: Any) -> list[str]:
    """Converts as ``thrum convert IN... -o OUTPUT`` does: ``.haptic`` ↔ AHAP, AHAP → Android JSON
    (``.json``). Options: to, split, meta_compatible, resolution, strict. Returns the losses, one line each
    (``FILE:LINE:COLUMN: warning: ...``); raises ThrumError (nothing written) on errors."""
    files = [inputs] if isinstance(inputs, (str, os.PathLike)) else list(inputs)
    names, name_count = _native.strings_of(os.fspath(f) for f in files)
    array, count = _native.strings_of(_native.options(options))
    warnings = _native._owned()
    _native.call_status(_lib.thrum_convert, names, name_count, _native.encode(output), array, count, _ctypes_ref(warnings))
    return _lines(_native.take_string(warnings))


def analyze(sound: PathLike, output: PathLike, **settings: Any) -> Pattern:
    """Derives haptics from a sound as ``thrum analyze SOUND -o OUTPUT`` does (``.ahap`` or ``.haptic``)
    and returns the pattern written. Settings: preset (general, ui, impacts, footsteps, music), settings
    (a JSON file), breakpoints_per_second, tolerance, attack, hold, release, sensitivity, gain, band
    (``"20-250"``), no_normalize, split. Raises ThrumError."""
    array, count = _native.strings_of(_native.options(settings))
    warnings = _native._owned()
    _native.call_status(_lib.thrum_analyze, _native.encode(sound), _native.encode(output), array, count,
                        _ctypes_ref(warnings))
    _native.take_string(warnings)
    return Pattern.load(output)


def monotonic_now() -> float:
    """CLOCK_MONOTONIC now, in seconds: the clock of ``Player.start(monotonic=…)``, ``Engine.output_time`` and
    the onset log's ``dac_time`` (``time.clock_gettime(time.CLOCK_MONOTONIC)`` reads the same clock)."""
    return float(_lib.thrum_monotonic_now())


class Engine:
    """A live engine on an ALSA device: patterns play through :meth:`player` on one clock.

    Set up as ``thrum play`` sets up its device: device (``"default"``, ``"hw:0"``, ``"pulse"``, …),
    channels (default ``"L+H,R+H"``) or layout, sample_rate (default 48000; without it a rate the device
    lacks falls back to its nearest), period (frames, default 256), periods (default 4), profile, voices,
    resources, allow_any_path, haptics_from_audio, preset. onset_log: a ``.jsonl`` file that gets one JSON
    line per event onset played, as ``thrum play --onset-log`` writes it (``pattern_time``, ``stream_frame``,
    ``engine_time``, ``dac_time`` on CLOCK_MONOTONIC, ``pattern``, ``player``, ``instance``, ``event``,
    ``type``, ``loop``; docs/timing.md), written when the engine closes. Use it as a context manager, or call
    :meth:`close`. Thread-safe.
    """

    def __init__(self, device: str = "default", channels: Optional[str] = None, sample_rate: Optional[int] = None,
                 period: Optional[int] = None, periods: Optional[int] = None, onset_log: Optional[PathLike] = None,
                 **options: Any):
        arguments = {"device": device, "channels": channels, "sample_rate": sample_rate, "period": period,
                     "periods": periods, "onset_log": onset_log, **options}
        array, count = _native.strings_of(_native.options(arguments))
        self._handle = _native.call(_lib.thrum_engine_open, array, count, failed=lambda h: not h)
        self.device = device
        """The ALSA device name."""

    @property
    def time(self) -> float:
        """Seconds on the engine clock (the time base of every ``at=``)."""
        return float(_lib.thrum_engine_time(self._open()))

    @property
    def sample_rate(self) -> float:
        """The rate the device runs at, in Hz."""
        return float(_lib.thrum_engine_sample_rate(self._open()))

    @property
    def channels(self) -> int:
        """Output channels per frame."""
        return int(_lib.thrum_engine_channels(self._open()))

    @property
    def xruns(self) -> int:
        """Underruns the device reported since the engine opened (audio lost to a late render thread on a
        loaded machine; a larger ``period`` helps)."""
        return int(_lib.thrum_engine_xruns(self._open()))

    def output_time(self, engine_time: float) -> Optional[float]:
        """The estimated CLOCK_MONOTONIC time (seconds) at which the frame of ``engine_time`` leaves the DAC;
        None until the device has played its first periods."""
        seconds = _lib.thrum_engine_output_time(self._open(), engine_time)
        return None if seconds < 0 else float(seconds)

    def player(self, pattern: Pattern, actuator: Optional[str] = None) -> "Player":
        """A player of ``pattern`` on this engine (on the actuators of ``actuator``: a name of the channel map
        or a group such as ``"handles"``; None: every actuator). Loads its audio files. Raises ThrumError."""
        name = None if actuator is None else _native.encode(actuator)
        handle = _native.call(_lib.thrum_player_new, self._open(), pattern._handle, name, failed=lambda h: not h)
        return Player(handle, self)

    def close(self) -> None:
        """Stops every player, lets the device play what it was given, closes it and writes the onset log.
        Idempotent. Raises ThrumError (status 74) when the onset log cannot be written (the engine is closed
        all the same)."""
        handle, self._handle = self._handle, None
        if handle:
            try:
                _native.call_status(_lib.thrum_engine_finish, handle)
            finally:
                _lib.thrum_engine_close(handle)

    def _open(self) -> int:
        if not self._handle:
            raise ThrumError("the engine is closed", 64)
        return self._handle

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exception: Any) -> None:
        self.close()

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle and _lib is not None:
            _lib.thrum_engine_close(handle)  # no exception from a finalizer: an onset log's failure is lost


class Player:
    """A pattern player on an :class:`Engine` (Core Haptics' advanced player): start, stop, pause, resume
    and seek at engine times; loop, rate and mute; dynamic parameters and curves; a completion callback.
    Every ``at`` is engine time in seconds (0: now). Thread-safe."""

    def __init__(self, handle: int, engine: Engine):
        """Internal: use :meth:`Engine.player`."""
        self._handle = handle
        self._engine = engine
        self._loop = False
        self._loop_end = 0.0
        self._loop_passes = 0
        self._rate = 1.0
        self._muted = False
        self._finished = threading.Event()
        self._on_completion: Optional[Callable[[Optional[ThrumError]], None]] = None
        self._callback = _native.COMPLETION(self._completed)  # kept: the C side holds its address
        _lib.thrum_player_set_completion(self._handle, self._callback, None)

    def start(self, at: float = 0, *, monotonic: Optional[float] = None) -> None:
        """Plays a new instance of the pattern from its start (or from a seek made while stopped), at engine
        time ``at``, or with ``monotonic`` on the frame that leaves the DAC at that CLOCK_MONOTONIC time
        (seconds, see :func:`monotonic_now`), as ``thrum play --start-at`` does: that call waits until the
        device's clock has settled (at most 5 s) and raises ThrumError (64) for a time that has passed or
        is nearer than the device's buffer reaches (the message names the earliest time)."""
        self._finished.clear()
        if monotonic is None:
            _native.call_status(_lib.thrum_player_start, self._handle, at)
        else:
            _native.call_status(_lib.thrum_player_start_at_monotonic, self._handle, float(monotonic))

    def stop(self, at: float = 0) -> None:
        """Stops every instance, with a 5 ms fade."""
        _native.call_status(_lib.thrum_player_stop, self._handle, at)

    def pause(self, at: float = 0) -> None:
        """Pauses; :meth:`resume` continues from the same place."""
        _native.call_status(_lib.thrum_player_pause, self._handle, at)

    def resume(self, at: float = 0) -> None:
        """Resumes from where it paused."""
        _native.call_status(_lib.thrum_player_resume, self._handle, at)

    def seek(self, offset: float) -> None:
        """Moves to ``offset`` seconds into the pattern (now, or at the next start when stopped)."""
        _native.call_status(_lib.thrum_player_seek, self._handle, offset)

    @property
    def loop(self) -> bool:
        """Whether the pattern loops (at :attr:`loop_end`, :attr:`loop_passes` passes)."""
        return self._loop

    @loop.setter
    def loop(self, enabled: bool) -> None:
        self._set_loop(bool(enabled), self._loop_end, self._loop_passes)

    @property
    def loop_end(self) -> float:
        """The loop point in pattern seconds; 0 (default): the pattern's end."""
        return self._loop_end

    @loop_end.setter
    def loop_end(self, seconds: float) -> None:
        self._set_loop(self._loop, float(seconds), self._loop_passes)

    @property
    def loop_passes(self) -> int:
        """Passes played in all when looping, then the release tail; 0 (default): forever. From the next start."""
        return self._loop_passes

    @loop_passes.setter
    def loop_passes(self, passes: int) -> None:
        self._set_loop(self._loop, self._loop_end, int(passes))

    def _set_loop(self, enabled: bool, end: float, passes: int) -> None:
        _native.call_status(_lib.thrum_player_set_loop, self._handle, int(enabled), end, passes)
        self._loop, self._loop_end, self._loop_passes = enabled, end, passes

    @property
    def rate(self) -> float:
        """Playback speed, 0.01 … 100 (2: twice as fast; pitch unchanged)."""
        return self._rate

    @rate.setter
    def rate(self, rate: float) -> None:
        _native.call_status(_lib.thrum_player_set_rate, self._handle, float(rate))
        self._rate = float(rate)

    @property
    def muted(self) -> bool:
        """Whether the player's audio and haptics are silenced (it keeps its place)."""
        return self._muted

    @muted.setter
    def muted(self, muted: bool) -> None:
        _lib.thrum_player_set_muted(self._handle, int(bool(muted)))
        self._muted = bool(muted)

    @property
    def position(self) -> Optional[float]:
        """Pattern seconds into the first playing instance; None when nothing plays."""
        seconds = _lib.thrum_player_position(self._handle)
        return None if seconds < 0 else float(seconds)

    def send(self, parameter: str, value: float, at: float = 0) -> None:
        """Sets a dynamic parameter (AHAP name: ``"HapticIntensityControl"``, ``"HapticSharpnessControl"``,
        ``"AudioVolumeControl"``, ``"ThrumHapticPanX"``, …) at engine time ``at``."""
        _native.call_status(_lib.thrum_player_send_parameter, self._handle, parameter.encode(), value, at)

    def curve(self, parameter: str, points: Sequence[Tuple[float, float]], at: float = 0) -> None:
        """Plays a parameter curve from engine time ``at``: linear ramps through ``(seconds from the curve's
        start, value)`` points."""
        count = len(points)
        times = (_native.ctypes.c_double * max(count, 1))(*[float(t) for t, _ in points])
        values = (_native.ctypes.c_float * max(count, 1))(*[float(v) for _, v in points])
        _native.call_status(_lib.thrum_player_schedule_curve, self._handle, parameter.encode(), times, values, count, at)

    @property
    def on_completion(self) -> Optional[Callable[[Optional[ThrumError]], None]]:
        """Called once each time playback ends, with None, or a ThrumError when it failed. It runs on a Thrum
        thread (never the real-time one): keep it short."""
        return self._on_completion

    @on_completion.setter
    def on_completion(self, callback: Optional[Callable[[Optional[ThrumError]], None]]) -> None:
        self._on_completion = callback

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Waits until playback ends (or ``timeout`` seconds); returns whether it ended."""
        return self._finished.wait(timeout)

    def _completed(self, context: Any, status: int, message: Optional[bytes]) -> None:
        callback = self._on_completion
        try:
            if callback is not None:
                callback(None if status == 0 else ThrumError(_native.decode(message), status))
        finally:
            self._finished.set()

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle and _lib is not None:
            _lib.thrum_player_set_completion(handle, _native.COMPLETION(), None)
            _lib.thrum_player_free(handle)


def _text_bytes(json: Union[str, bytes, Mapping[str, Any]]) -> bytes:
    if isinstance(json, bytes):
        return json
    if isinstance(json, str):
        return json.encode()
    return _json.dumps(json).encode()


def _ctypes_ref(value: Any) -> Any:
    return _native.ctypes.byref(value)


def _lines(text: Optional[str]) -> list[str]:
    return text.splitlines() if text else []
