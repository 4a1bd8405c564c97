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
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from ._native import ThrumError, lib as _lib

from ._live import Engine, Player

__all__ = ["__version__", "ThrumError", "Pattern", "Diagnostic", "render", "check", "convert", "analyze",
           "import_project", "Engine", "Player", "monotonic_now", "devices", "Device"]

from ._measure import Latency, Measurement, measure  # noqa: E402 (after __all__ above: a separate list)

__all__ += ["measure", "Measurement", "Latency"]
from ._onsets import Onset  # noqa: E402

__all__ += ["Onset"]

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
        self.warnings: list = []
        """What :func:`analyze` noted while making it (empty otherwise)."""

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
        """The pattern's length in seconds (release tails excluded), each audio file it plays counted at its
        length (a sound file loaded as a pattern lasts as long as the sound)."""
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
    engine = _native.engine_settings(sample_rate=sample_rate, channels=None if layout is not None else channels, layout=layout,
                              profile=profile, voices=voices, resources=resources, allow_any_path=allow_any_path,
                              haptics_from_audio=haptics_from_audio, preset=preset)
    options = _native.RenderOptions(engine=engine, loops=loops, loop=loop, loop_end=loop_end, rate=rate, seek=seek,
                                    duration=duration)
    renderer = _native.call(_lib.thrum_renderer_open, pattern._handle, _ctypes_ref(options), failed=lambda h: not h)
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
          profile: Union[None, str, Sequence[str]] = None, resources: Union[None, PathLike, Sequence[PathLike]] = None,
          allow_any_path: bool = False, max_pattern_bytes: Optional[int] = None, max_events: Optional[int] = None,
          max_curve_points: Optional[int] = None) -> list[Diagnostic]:
    """Checks a pattern file (or a bundled pattern by name) as ``thrum check PATH`` does (the file, its audio
    files, what ``play`` would refuse or lose) and returns every finding: ``[]`` for a clean file. Errors and
    warnings are findings, not exceptions; with ``strict`` every warning is an error. max_pattern_bytes,
    max_events, max_curve_points raise the pattern limits. Raises ThrumError (status 66) when the file is
    missing or unreadable, 64 for a bad option."""
    engine = _native.engine_settings(sample_rate=sample_rate, voices=voices, profile=profile, resources=resources,
                              allow_any_path=allow_any_path)
    options = _native.CheckOptions(strict=strict, engine=engine, max_pattern_bytes=max_pattern_bytes,
                                   max_events=max_events, max_curve_points=max_curve_points)
    handle = _native.ctypes.c_void_p()
    _native.call_status(_lib.thrum_check, _native.encode(path), _ctypes_ref(options), _ctypes_ref(handle))
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


def convert(inputs: Union[PathLike, Sequence[PathLike]], output: PathLike, *, to: Optional[str] = None,
            split: bool = False, meta_compatible: bool = False, resolution: Optional[int] = None,
            strict: bool = False) -> list[str]:
    """Converts as ``thrum convert IN... -o OUTPUT`` does: ``.haptic`` ↔ AHAP, AHAP → Android JSON
    (``.json``); inputs may be bundled patterns by name. to: ``"ahap"``, ``"haptic"`` or ``"android"``
    whatever the output's extension; split, meta_compatible: ``.haptic`` → AHAP as the command's options;
    resolution: the Android waveform step in ms (1 … 1000); strict: refuse any loss. Returns the losses, one
    line each (``FILE:LINE:COLUMN: warning: ...``); raises ThrumError (nothing written) on errors."""
    files = [inputs] if isinstance(inputs, (str, os.PathLike)) else list(inputs)
    names, name_count = _native.strings_of(os.fspath(f) for f in files)
    options = _native.ConvertOptions(to=to, split=split, meta_compatible=meta_compatible, resolution=resolution,
                                     strict=strict)
    warnings = _native._owned()
    _native.call_status(_lib.thrum_convert, names, name_count, _native.encode(output), _ctypes_ref(options),
                        _ctypes_ref(warnings))
    return _lines(_native.take_string(warnings))


def analyze(sound: PathLike, output: PathLike, *, preset: Optional[str] = None, settings: Optional[PathLike] = None,
            clip: Optional[str] = None, breakpoints_per_second: Optional[float] = None,
            tolerance: Optional[float] = None, attack: Optional[float] = None, hold: Optional[float] = None,
            release: Optional[float] = None, sensitivity: Optional[float] = None, gain: Optional[float] = None,
            band: Optional[Tuple[float, float]] = None, no_normalize: bool = False, split: bool = False) -> Pattern:
    """Derives haptics from a sound as ``thrum analyze SOUND -o OUTPUT`` does (``.ahap`` or ``.haptic``)
    and returns the pattern written. preset: general, ui, impacts, footsteps or music; settings: a settings
    JSON file, or a Haptics Studio project (``.hasp``) with ``clip``; the values (breakpoints_per_second,
    tolerance, attack, hold, release, sensitivity, gain, band as ``(low, high)`` in Hz, no_normalize) win over
    the file, the file over the preset; split: the transients in ``OUT_transients.ahap``. Raises
    ThrumError. The pattern's ``warnings`` holds the notes on the settings and what the conversion to AHAP
    changed, one line each (``note: ...``, ``warning: ...``), as ``thrum analyze`` prints them."""
    low, high = band if band is not None else (None, None)
    options = _native.AnalyzeOptions(
        preset=preset, settings=settings, clip=clip, breakpoints_per_second=breakpoints_per_second,
        tolerance=tolerance, attack=attack, hold=hold, release=release, sensitivity=sensitivity, gain=gain,
        band_low=low, band_high=high, no_normalize=no_normalize, split=split)
    warnings = _native._owned()
    _native.call_status(_lib.thrum_analyze, _native.encode(sound), _native.encode(output), _ctypes_ref(options),
                        _ctypes_ref(warnings))
    notes = _lines(_native.take_string(warnings))
    pattern = Pattern.load(output)
    pattern.warnings = notes
    return pattern


@dataclass(frozen=True)
class Imported:
    """What :func:`import_project` wrote."""

    written: list
    """The files written (pattern files and audio files), in order."""
    notes: list
    """Notes on the project: fields Thrum does not read, clips without a haptic yet (skipped)."""


def import_project(project: PathLike, folder: PathLike, *, format: str = "haptic", split: bool = False) -> Imported:
    """Writes each clip of a Haptics Studio project (``.hasp``) into ``folder`` (made if missing) as ``thrum
    import PROJECT -o FOLDER`` does: ``NAME.haptic`` (the designer's haptic as it is) or ``NAME.ahap``
    (``format="ahap"``; ``split``: ``NAME_continuous.ahap`` and ``NAME_transients.ahap``), and the clip's audio
    file beside it (a Freeform Haptics clip, which has none, is written alone). A clip that cannot be written
    is named and the others are written; then ThrumError is raised with the status of the first clip that
    failed (65 its haptic has errors, 66 its audio is missing) and ``error.written`` (the files written) and
    ``error.warnings`` (why each clip failed, and the notes). Raises ThrumError when nothing can be
    imported."""
    options = _native.ImportOptions(format=format, split=split)
    written, warnings, error = _native._owned(), _native._owned(), _native._owned()
    status = _lib.thrum_import(_native.encode(project), _native.encode(folder), _ctypes_ref(options),
                               _ctypes_ref(written), _ctypes_ref(warnings), _ctypes_ref(error))
    files, lines = _lines(_native.take_string(written)), _lines(_native.take_string(warnings))
    message = _native.take_string(error)
    if status != 0:
        failure = ThrumError(message or "thrum_import failed without a message", status)
        failure.written, failure.warnings = files, lines
        raise failure
    return Imported(written=files, notes=[line[len("note: "):] for line in lines if line.startswith("note: ")])


@dataclass(frozen=True)
class Device:
    """A playback device ALSA lists."""
    name: str
    """The name ``Engine(device=…)`` takes (``default``, ``pulse``, ``hw:CARD=PCH,DEV=0``, …)."""
    description: str
    """ALSA's description (its lines joined with " — "), or ""."""
    default: bool
    """True for the device opened when none is named."""


def devices() -> list[Device]:
    """The playback devices ALSA lists (its name hints), in ALSA's order, as ``thrum devices`` shows them;
    empty when it lists none. Reads ALSA's configuration."""
    listed = _native._owned()
    _native.call_status(_lib.thrum_devices, _ctypes_ref(listed))
    found = []
    for line in _lines(_native.take_string(listed)):
        name, default, description = line.split("\t", 2)
        found.append(Device(name=name, description=description, default=default == "1"))
    return found


def monotonic_now() -> float:
    """CLOCK_MONOTONIC now, in seconds: the clock of ``Player.start(monotonic=…)``, ``Engine.output_time`` and
    the onset log's ``dac_time`` (``time.clock_gettime(time.CLOCK_MONOTONIC)`` reads the same clock)."""
    return float(_lib.thrum_monotonic_now())


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
