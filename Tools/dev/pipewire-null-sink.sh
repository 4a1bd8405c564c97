#!/usr/bin/env bash
# Start/stop a private, headless PipeWire (pipewire + wireplumber under dbus-run-session) with a 48 kHz
# float32 stereo null sink "thrum-null", reached through pipewire-alsa's ALSA plugin, for the PipeWire
# real-time tests (ALSA device "pipewire" → sink "thrum-null", captured from its monitor with pw-record).
#
# Nothing is installed system-wide: pipewire-alsa (whose package would make PipeWire the machine's ALSA
# default) is unpacked into the runtime folder and named in ALSA_CONFIG_PATH; the server's config
# fragment lives in a private XDG_CONFIG_HOME. Everything is under THRUM_PIPEWIRE_RUNTIME (default
# /tmp/thrum-pipewire), so two runs with different folders can coexist. Works as root without systemd.
#
#   Tools/dev/pipewire-null-sink.sh start    # prints the env lines the tests need
#   Tools/dev/pipewire-null-sink.sh status
#   Tools/dev/pipewire-null-sink.sh stall 0.3   # freeze the pipewire daemon for 0.3 s (SIGSTOP … SIGCONT)
#   Tools/dev/pipewire-null-sink.sh crash       # SIGKILL the pipewire daemon, as a crash
#   Tools/dev/pipewire-null-sink.sh stop
#
# Then: eval "$(Tools/dev/pipewire-null-sink.sh start)"; swift test --filter PipeWire
set -euo pipefail

RUNTIME="${THRUM_PIPEWIRE_RUNTIME:-/tmp/thrum-pipewire}"
PIDFILE="$RUNTIME/session.pid"
SERVER_PIDFILE="$RUNTIME/pipewire.pid"
LOG="$RUNTIME/pipewire.log"
# Where pipewire-alsa is unpacked; a second server (a test that kills one) may share the first's.
PLUGIN="${THRUM_PIPEWIRE_PLUGIN_DIR:-$RUNTIME/pipewire-alsa}"
ALSA_CONF="$RUNTIME/alsa.conf"
SINK=thrum-null
# The private server's socket: clients find it through PIPEWIRE_RUNTIME_DIR.
export PIPEWIRE_RUNTIME_DIR="$RUNTIME/run"

print_env() {
    echo "export THRUM_PIPEWIRE_RUNTIME=$RUNTIME"
    echo "export THRUM_PIPEWIRE_PLUGIN_DIR=$PLUGIN"
    echo "export PIPEWIRE_RUNTIME_DIR=$PIPEWIRE_RUNTIME_DIR"
    echo "export ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:$ALSA_CONF"
    echo "export THRUM_PIPEWIRE_SINK=$SINK"
    echo "export THRUM_PIPEWIRE_TESTS=1"
}

alive() { [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

# The sink is there once wireplumber has activated it (pw-cli lists it as a node).
# (The listing is read whole first: `grep -q` closing the pipe early would fail it under pipefail.)
sink_ready() {
    local nodes
    nodes="$(pw-cli ls Node 2>/dev/null)" || return 1
    grep -q "node.name = \"$SINK\"" <<<"$nodes"
}

# Unpacks pipewire-alsa's plugin (apt-get download + dpkg-deb -x, never installed) and writes an ALSA
# configuration that loads it from there and defines pcm.pipewire as the package would.
unpack_plugin() {
    if [[ -f "$ALSA_CONF" ]]; then return 0; fi
    local lib
    lib="$(find "$PLUGIN" -name libasound_module_pcm_pipewire.so 2>/dev/null | head -n 1 || true)"
    if [[ -z "$lib" ]]; then
        local work="$RUNTIME/download"
        mkdir -p "$work" "$PLUGIN"
        # The plugin must come from the same PipeWire release as the installed client library.
        local version
        version="$(dpkg-query -W -f='${Version}' libpipewire-0.3-0)"
        (cd "$work" && apt-get download -q "pipewire-alsa=$version" >/dev/null 2>&1) || {
            echo "cannot download pipewire-alsa $version (run apt-get update first)" >&2
            exit 1
        }
        dpkg-deb -x "$work"/pipewire-alsa_*.deb "$PLUGIN"
        rm -rf "$work"
        lib="$(find "$PLUGIN" -name libasound_module_pcm_pipewire.so | head -n 1)"
    fi
    [[ -n "$lib" ]] || { echo "pipewire-alsa has no libasound_module_pcm_pipewire.so" >&2; exit 1; }
    {
        echo "pcm_type.pipewire { lib \"$lib\" }"
        echo "ctl_type.pipewire { lib \"${lib/pcm_pipewire/ctl_pipewire}\" }"
        # The package's named PCM (pcm.pipewire, ctl.pipewire); not its 99-pipewire-default.conf.
        cat "$(find "$PLUGIN" -type f -name 50-pipewire.conf | head -n 1)"
    } >"$ALSA_CONF.tmp"
    mv "$ALSA_CONF.tmp" "$ALSA_CONF"
}

write_config() {
    mkdir -p "$RUNTIME/config/pipewire/pipewire.conf.d" "$RUNTIME/state" "$PIPEWIRE_RUNTIME_DIR"
    chmod 700 "$PIPEWIRE_RUNTIME_DIR"
    cat >"$RUNTIME/config/pipewire/pipewire.conf.d/thrum-null-sink.conf" <<EOF
# Thrum tests: a 48 kHz float32 stereo sink with nothing behind it (its monitor is the capture).
context.properties = {
    default.clock.rate = 48000
    default.clock.allowed-rates = [ 48000 ]
    # PipeWire raises the minimum quantum to 1024 inside virtual machines; the tests run in some.
    vm.overrides = { default.clock.min-quantum = 16 }
}
context.objects = [
    { factory = adapter
        args = {
            factory.name = support.null-audio-sink
            node.name = "$SINK"
            node.description = "Thrum test sink"
            media.class = "Audio/Sink"
            audio.format = "F32"
            audio.rate = 48000
            audio.channels = 2
            audio.position = "FL,FR"
            # The sink drives the graph itself: there is no sound card.
            node.driver = true
            priority.driver = 20000
            monitor.channel-volumes = false
        }
    }
]
EOF
}

start() {
    if alive && sink_ready; then
        print_env
        return 0
    fi
    stop
    mkdir -p "$RUNTIME"
    chmod 700 "$RUNTIME"
    unpack_plugin
    write_config
    # One session bus for both daemons; wireplumber waits until pipewire's socket exists.
    HOME="$RUNTIME/state" XDG_CONFIG_HOME="$RUNTIME/config" XDG_STATE_HOME="$RUNTIME/state" \
        XDG_RUNTIME_DIR="$PIPEWIRE_RUNTIME_DIR" DISABLE_RTKIT=1 THRUM_PIPEWIRE_SERVER_PIDFILE="$SERVER_PIDFILE" \
        setsid dbus-run-session -- bash -c '
            pipewire & server=$!
            echo $server >"$THRUM_PIPEWIRE_SERVER_PIDFILE"
            for _ in $(seq 1 100); do [[ -S "$PIPEWIRE_RUNTIME_DIR/pipewire-0" ]] && break; sleep 0.1; done
            wireplumber & manager=$!
            trap "kill $manager $server 2>/dev/null; wait" TERM INT
            wait' </dev/null >"$LOG" 2>&1 &
    echo $! >"$PIDFILE"
    for _ in $(seq 1 150); do
        if sink_ready; then break; fi
        if ! alive; then
            echo "pipewire exited; log:" >&2
            cat "$LOG" >&2
            exit 1
        fi
        sleep 0.1
    done
    if ! sink_ready; then
        echo "PipeWire's sink $SINK did not appear in 15 s; log:" >&2
        cat "$LOG" >&2
        stop
        exit 1
    fi
    print_env
}

stop() {
    if alive; then
        local pid
        pid="$(cat "$PIDFILE")"
        # The whole session: dbus-run-session, the bus, pipewire and wireplumber (setsid made it a group).
        kill -TERM -- "-$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL -- "-$pid" 2>/dev/null || true
    fi
    rm -f "$PIDFILE" "$SERVER_PIDFILE"
    rm -rf "$PIPEWIRE_RUNTIME_DIR"
}

# Kills the daemon at once (SIGKILL), as a crash would; `stop` cleans up the rest.
crash() {
    if [[ -f "$SERVER_PIDFILE" ]]; then kill -KILL "$(cat "$SERVER_PIDFILE")" 2>/dev/null || true; fi
}

# Freezes the daemon (not wireplumber) for $1 seconds, as a server starved of CPU would be.
stall() {
    alive && [[ -f "$SERVER_PIDFILE" ]] || { echo "not running" >&2; exit 1; }
    local pid
    pid="$(cat "$SERVER_PIDFILE")"
    kill -STOP "$pid"
    sleep "${1:-0.3}"
    kill -CONT "$pid"
}

status() {
    if alive && sink_ready; then
        echo "running (session pid $(cat "$PIDFILE"))"
        pw-cli info 0 2>/dev/null | grep -E 'version|name' || true
        print_env
    else
        echo "not running"
        return 1
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    stall) stall "${2:-0.3}" ;;
    crash) crash ;;
    env) print_env ;;
    *) echo "usage: $0 start|stop|status|stall [SECONDS]|crash|env" >&2; exit 2 ;;
esac
