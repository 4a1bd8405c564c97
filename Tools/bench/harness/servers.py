"""What some steps need around them, started for those steps only and stopped after: a private PulseAudio
null sink, a private headless PipeWire, the simulated sound card's configuration, and a busy core."""
import contextlib
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def _exports(text: str) -> dict[str, str]:
    env = {}
    for line in text.splitlines():
        if line.startswith("export ") and "=" in line:
            key, value = line[len("export "):].split("=", 1)
            env[key] = value
    return env


@contextlib.contextmanager
def server(script: str):
    """Starts Tools/dev/SCRIPT (pulse-null-sink.sh or pipewire-null-sink.sh) with a private runtime folder,
    yields the environment its clients need (os.environ plus the script's exports), and stops it."""
    runtime = tempfile.mkdtemp(prefix="thrum-bench-server-")
    key = "THRUM_PULSE_RUNTIME" if "pulse" in script else "THRUM_PIPEWIRE_RUNTIME"
    env = dict(os.environ, **{key: runtime})
    path = os.path.join(ROOT, "Tools", "dev", script)
    started = subprocess.run([path, "start"], env=env, capture_output=True, text=True)
    if started.returncode != 0:
        raise RuntimeError(f"{script} start failed: {started.stderr.strip()[-300:]}")
    try:
        yield dict(env, **_exports(started.stdout))
    finally:
        subprocess.run([path, "stop"], env=env, capture_output=True)
        subprocess.run(["rm", "-rf", runtime])


def simcard_env() -> dict[str, str]:
    """The environment that shows the simulated cards (Tools/dev/simcard) to ALSA in the processes it is given
    to, and to nothing else: ALSA_CONFIG_PATH with the card's profiles after the system's own file."""
    plugin = subprocess.run([os.path.join(ROOT, "Tools/dev/simcard/build.sh")], capture_output=True, text=True,
                            check=True).stdout.strip()
    profiles = os.path.join(ROOT, "Tools/dev/simcard/profiles.conf")
    return dict(os.environ, THRUM_SIMCARD_PLUGIN=plugin, THRUM_SIMCARD_PROFILES=profiles,
                ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{profiles}")


@contextlib.contextmanager
def busy_core(busy: bool):
    """With `busy`, keeps one core busy (`yes > /dev/null`) for the duration; otherwise does nothing."""
    if not busy:
        yield
        return
    load = subprocess.Popen(["yes"], stdout=subprocess.DEVNULL)
    try:
        yield
    finally:
        load.terminate()
        load.wait()
