#!/usr/bin/env bash
# Start/stop a private PulseAudio server with a 48 kHz float32 stereo null sink,
# for ALSAOutput's real-time tests (ALSA device "pulse" → sink "null", captured from "null.monitor"),
# and a 4-channel one for several actuators (PULSE_SINK=null4, captured from "null4.monitor").
# Works as root without systemd or D-Bus.
#
#   Tools/dev/pulse-null-sink.sh start    # prints the env lines the tests need
#   Tools/dev/pulse-null-sink.sh status
#   Tools/dev/pulse-null-sink.sh stop
#
# Then: eval "$(Tools/dev/pulse-null-sink.sh start)"; THRUM_PULSE_TESTS=1 swift test --filter ALSAOutputTests
set -euo pipefail

RUNTIME="${THRUM_PULSE_RUNTIME:-/tmp/thrum-pulse}"
export PULSE_RUNTIME_PATH="$RUNTIME"
export PULSE_SERVER="unix:$RUNTIME/native"
# Keep the client library from trying to autospawn or reach a per-user daemon.
export PULSE_CLIENTCONFIG="$RUNTIME/client.conf"
PIDFILE="$RUNTIME/pulseaudio.pid"
PACAT_PIDFILE="$RUNTIME/pacat.pid"
PACAT4_PIDFILE="$RUNTIME/pacat4.pid"
LOG="$RUNTIME/pulseaudio.log"

print_env() {
    echo "export PULSE_RUNTIME_PATH=$RUNTIME"
    echo "export PULSE_SERVER=unix:$RUNTIME/native"
    echo "export PULSE_CLIENTCONFIG=$RUNTIME/client.conf"
    echo "export THRUM_PULSE_TESTS=1"
}

alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

start() {
    if alive "$PIDFILE" && pactl info >/dev/null 2>&1; then
        print_env
        return 0
    fi
    mkdir -p "$RUNTIME"
    chmod 700 "$RUNTIME"
    printf 'autospawn = no\n' >"$RUNTIME/client.conf"
    # The server's sink threads at SCHED_RR 80 (THRUM_PULSE_PRIORITY), above the players' 70 (thrum's
    # default; aplay under chrt -f 70 in Tools/benchmark.sh), as PipeWire and JACK run their servers'
    # threads above their clients'. PulseAudio's own default, 5, lets a real-time player preempt the
    # thread that mixes its stream. Takes effect as root (as in CI) or through rtkit; otherwise the server
    # runs without real-time scheduling and its log says so.
    printf 'realtime-scheduling = yes\nrealtime-priority = %s\n' "${THRUM_PULSE_PRIORITY:-80}" >"$RUNTIME/daemon.conf"
    # -n: no default.pa; --system=false with root prints a warning but works.
    HOME="$RUNTIME" XDG_CONFIG_HOME="$RUNTIME" PULSE_CONFIG="$RUNTIME/daemon.conf" \
        setsid pulseaudio -n --daemonize=no --system=false --exit-idle-time=-1 --disallow-exit \
        --use-pid-file=no --log-target=stderr --log-level=notice \
        -L "module-null-sink sink_name=null rate=48000 channels=2 format=float32le" \
        -L "module-null-sink sink_name=null4 rate=48000 channels=4 format=float32le channel_map=front-left,front-right,rear-left,rear-right" \
        -L "module-native-protocol-unix auth-anonymous=1 socket=$RUNTIME/native" \
        -L "module-always-sink" \
        </dev/null >"$LOG" 2>&1 &
    echo $! >"$PIDFILE"
    for _ in $(seq 1 100); do
        if pactl info >/dev/null 2>&1; then break; fi
        if ! alive "$PIDFILE"; then
            echo "pulseaudio exited; log:" >&2
            cat "$LOG" >&2
            exit 1
        fi
        sleep 0.1
    done
    if ! pactl info >/dev/null 2>&1; then
        echo "pulseaudio did not answer in 10 s; log:" >&2
        cat "$LOG" >&2
        exit 1
    fi
    pactl set-default-sink null
    # A permanent zero stream keeps the sink running (no suspend, steady clock).
    setsid pacat --latency-msec=20 --format=float32le --rate=48000 --channels=2 --raw /dev/zero </dev/null >/dev/null 2>&1 &
    echo $! >"$PACAT_PIDFILE"
    setsid pacat --device=null4 --latency-msec=20 --format=float32le --rate=48000 --channels=4 \
        --channel-map=front-left,front-right,rear-left,rear-right --raw /dev/zero </dev/null >/dev/null 2>&1 &
    echo $! >"$PACAT4_PIDFILE"
    # A new server holds the first writes of the first streams for up to ~2 s: let the zero stream
    # absorb that now, so the tests' streams start at once.
    sleep 2.5
    print_env
}

stop() {
    for f in "$PACAT_PIDFILE" "$PACAT4_PIDFILE" "$PIDFILE"; do
        if alive "$f"; then
            pid="$(cat "$f")"
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null || true
        fi
        rm -f "$f"
    done
}

status() {
    if alive "$PIDFILE" && pactl info >/dev/null 2>&1; then
        echo "running (pid $(cat "$PIDFILE"))"
        pactl info | grep -E 'Server Name|Default Sink|Default Sample'
        alive "$PACAT_PIDFILE" && echo "zero stream: pid $(cat "$PACAT_PIDFILE")" || echo "zero stream: not running"
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
    env) print_env ;;
    *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
