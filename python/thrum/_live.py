"""Live playback: an Engine on an ALSA device and its Players (re-exported by the thrum package)."""
from __future__ import annotations

import ctypes
import os
import queue
import threading
from typing import Any, Callable, Iterator, Optional, Sequence, Tuple, Union

from . import _native
from ._native import ThrumError, lib as _lib
from ._onsets import Onset, install as _install_onsets

PathLike = Union[str, "os.PathLike[str]"]


def _ctypes_ref(value: Any) -> Any:
    return _native.ctypes.byref(value)


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

    on_onset: a callable given each :class:`Onset` as the device plays it (player id, label, event index, frame,
    DAC time, ...), on an internal thread of the engine (never the render thread), in order, once its frame has
    left the DAC, until the engine closes; keep it short (a slow callable delays the next onsets; an exception in it is printed and ignored).
    :meth:`onsets` yields the same onsets to a loop instead.
    """

    def __init__(self, device: str = "default", channels: Optional[str] = None, sample_rate: Optional[int] = None,
                 period: Optional[int] = None, periods: Optional[int] = None, onset_log: Optional[PathLike] = None, *,
                 layout: Optional[str] = None, profile: Union[None, str, Sequence[str]] = None,
                 voices: Optional[int] = None, resources: Union[None, PathLike, Sequence[PathLike]] = None,
                 allow_any_path: bool = False, haptics_from_audio: bool = False, preset: Optional[str] = None,
                 on_onset: Optional[Callable[[Onset], Any]] = None):
        engine = _native.engine_settings(sample_rate=sample_rate, channels=channels, layout=layout, profile=profile,
                                  voices=voices, resources=resources, allow_any_path=allow_any_path,
                                  haptics_from_audio=haptics_from_audio, preset=preset)
        options = _native.DeviceOptions(device=device, period=period, periods=periods, onset_log=onset_log,
                                        engine=engine)
        self._handle = _native.call(_lib.thrum_engine_open, _ctypes_ref(options), failed=lambda h: not h)
        self._on_onset = on_onset
        self._onset_queue: Optional[queue.SimpleQueue] = None  # made by the first onsets()
        # Kept while the engine lives: the C side holds its address.
        self._onset_callback = _install_onsets(self._handle, self._deliver) if on_onset is not None else None
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

    @property
    def latency(self) -> Optional[float]:
        """Seconds from now until what the engine renders now leaves the DAC (the device buffer plus the sound
        server's latency, from ALSA's timestamps): how late ``start()`` at 0 is heard. None until the device
        has played its first periods."""
        seconds = _lib.thrum_engine_latency(self._open())
        return None if seconds < 0 else float(seconds)

    def output_time(self, engine_time: float) -> Optional[float]:
        """The estimated CLOCK_MONOTONIC time (seconds) at which the frame of ``engine_time`` leaves the DAC;
        None until the device has played its first periods."""
        seconds = _lib.thrum_engine_output_time(self._open(), engine_time)
        return None if seconds < 0 else float(seconds)

    def player(self, pattern: "Pattern", actuator: Optional[str] = None, *, label: Optional[str] = None) -> "Player":
        """A player of ``pattern`` on this engine (on the actuators of ``actuator``: a name of the channel map
        or a group such as ``"handles"``; None: every actuator). Loads its audio files. ``label`` names its
        onsets (``"trial-12"``: the onset log's ``label`` and :attr:`Onset.label`). Raises ThrumError."""
        name = None if actuator is None else _native.encode(actuator)
        handle = _native.call(_lib.thrum_player_new, self._open(), pattern._handle, name, failed=lambda h: not h)
        if label is not None:
            _lib.thrum_player_set_label(handle, _native.encode(label))
        return Player(handle, self)

    def onsets(self, timeout: Optional[float] = None) -> Iterator[Onset]:
        """The onsets the device plays from this call on, as they happen (the same :class:`Onset` ``on_onset``
        gets): ``for onset in engine.onsets(timeout=2): ...`` blocks for each next one. It ends when the engine
        closes, or when no onset came for ``timeout`` seconds (None: wait as long as the engine is open). Onsets
        played while nobody iterates wait in a queue for the next iteration; use one iterator at a time."""
        if self._onset_queue is None:
            self._onset_queue = queue.SimpleQueue()
            if self._onset_callback is None:
                self._onset_callback = _install_onsets(self._open(), self._deliver)
        return self._drain(self._onset_queue, timeout)

    @staticmethod
    def _drain(onsets: queue.SimpleQueue, timeout: Optional[float]) -> Iterator[Onset]:
        while True:
            try:
                onset = onsets.get(timeout=timeout)
            except queue.Empty:
                return
            if onset is None:  # the engine closed
                onsets.put(None)  # for an iterator made later
                return
            yield onset

    def _deliver(self, onset: Onset) -> None:
        if self._onset_queue is not None:
            self._onset_queue.put(onset)
        if self._on_onset is not None:
            self._on_onset(onset)

    def close(self) -> None:
        """Stops every player, lets the device play what it was given, closes it and writes the onset log.
        Idempotent. Raises ThrumError (the engine is closed all the same): 74 when the onset log cannot be
        written, 69 when the device or its sound server was lost while playing."""
        handle, self._handle = self._handle, None
        if handle:
            try:
                _native.call_status(_lib.thrum_engine_finish, handle)
            finally:
                _lib.thrum_engine_close(handle)
                if self._onset_queue is not None:
                    self._onset_queue.put(None)  # no onset comes after finish: iterators end

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
        self._finished = threading.Event()
        self._started = False  # wait() on a player never started would block for ever: it raises instead
        self._failure: Optional[ThrumError] = None  # why the last playback failed (device loss: 69)
        self._on_completion: Optional[Callable[[Optional[ThrumError]], None]] = None
        self._callback = _native.COMPLETION(self._completed)  # kept: the C side holds its address
        _lib.thrum_player_set_completion(self._handle, self._callback, None)

    def start(self, at: float = 0, *, monotonic: Optional[float] = None, late: str = "refuse") -> None:
        """Plays a new instance of the pattern from its start (or from a seek made while stopped), at engine
        time ``at``, or with ``monotonic`` on the frame that leaves the DAC at that CLOCK_MONOTONIC time
        (seconds, see :func:`monotonic_now`), as ``thrum play --start-at`` does: that call waits until the
        device's clock has settled (at most 5 s) and raises ThrumError (64) for a time that has passed or
        is nearer than the device's buffer reaches (the message names the earliest time). An ``at`` the
        engine clock (:attr:`Engine.time`) has passed raises ThrumError (64, naming how many ms late) unless
        ``late="play"``, which starts it at once, late."""
        if late not in ("refuse", "play"):
            raise ThrumError(f"late takes 'refuse' or 'play', not {late!r}", 64)
        self._finished.clear()
        self._started = True
        self._failure = None
        if monotonic is None:
            start = _lib.thrum_player_start if late == "refuse" else _lib.thrum_player_start_late
            _native.call_status(start, self._handle, at)
        else:
            _native.call_status(_lib.thrum_player_start_at_monotonic, self._handle, float(monotonic))

    @property
    def id(self) -> int:
        """The player's number on its engine: 1, 2, ... in the order the engine made its players (the onset
        log's ``player`` and :attr:`Onset.player`)."""
        return int(_lib.thrum_player_id(self._handle))

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
        return self._loop_state()[0]

    @loop.setter
    def loop(self, enabled: bool) -> None:
        _, end, passes = self._loop_state()
        self._set_loop(bool(enabled), end, passes)

    @property
    def loop_end(self) -> float:
        """The loop point in pattern seconds; 0 (default): the pattern's end."""
        return self._loop_state()[1]

    @loop_end.setter
    def loop_end(self, seconds: float) -> None:
        enabled, _, passes = self._loop_state()
        self._set_loop(enabled, float(seconds), passes)

    @property
    def loop_passes(self) -> int:
        """Passes played in all when looping, then the release tail; 0 (default): forever. From the next start."""
        return self._loop_state()[2]

    @loop_passes.setter
    def loop_passes(self, passes: int) -> None:
        enabled, end, _ = self._loop_state()
        self._set_loop(enabled, end, int(passes))

    def _set_loop(self, enabled: bool, end: float, passes: int) -> None:
        _native.call_status(_lib.thrum_player_set_loop, self._handle, int(enabled), end, passes)

    def _loop_state(self) -> Tuple[bool, float, int]:
        """The loop as libthrum holds it (thrum_player_loop): enabled, end, passes."""
        end, passes = ctypes.c_double(), ctypes.c_int32()
        enabled = _lib.thrum_player_loop(self._live(), ctypes.byref(end), ctypes.byref(passes))
        return enabled == 1, end.value, passes.value

    def _live(self) -> Any:
        """The player's handle; ThrumError (64) once it is closed."""
        if not self._handle:
            raise ThrumError("the player is closed", 64)
        return self._handle

    @property
    def rate(self) -> float:
        """Playback speed, 0.01 … 100 (2: twice as fast; pitch unchanged)."""
        return float(_lib.thrum_player_rate(self._live()))

    @rate.setter
    def rate(self, rate: float) -> None:
        _native.call_status(_lib.thrum_player_set_rate, self._handle, float(rate))

    @property
    def muted(self) -> bool:
        """Whether the player's audio and haptics are silenced (it keeps its place)."""
        return _lib.thrum_player_muted(self._live()) == 1

    @muted.setter
    def muted(self, muted: bool) -> None:
        _lib.thrum_player_set_muted(self._handle, int(bool(muted)))

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
        """Waits until playback ends (or ``timeout`` seconds); returns whether it ended. Raises the
        ThrumError playback ended with when it failed (69: the device or its sound server was lost), and
        ThrumError 64 for a player never started (nothing would ever end)."""
        if not self._started:
            raise ThrumError("the player was never started: call player.start() before wait()", 64)
        ended = self._finished.wait(timeout)
        if ended and self._failure is not None:
            raise self._failure
        return ended

    def _completed(self, context: Any, status: int, message: Optional[bytes]) -> None:
        callback = self._on_completion
        failure = None if status == 0 else ThrumError(_native.decode(message), status)
        self._failure = failure
        try:
            if callback is not None:
                callback(failure)
        finally:
            self._finished.set()

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle and _lib is not None:
            _lib.thrum_player_set_completion(handle, _native.COMPLETION(), None)
            _lib.thrum_player_free(handle)
