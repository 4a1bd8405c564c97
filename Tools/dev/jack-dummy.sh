#!/usr/bin/env bash
# Start/stop a private JACK server (jackd2, dummy driver: no sound card, 48 kHz, 256-frame periods) for
# the JACK real-time tests. Clients reach it through ALSA's `jack` PCM (libasound2-plugins), which
# connects to system:playback_1/2; `jack_capture` records what reaches those ports.
#
# The server name comes from THRUM_JACK_SERVER (default thrum-jack), so two runs with different names
# coexist; clients find it through JACK_DEFAULT_SERVER. Pid and log live in /tmp/<server name>.
#
#   Tools/dev/jack-dummy.sh start    # prints the env lines the tests need
#   Tools/dev/jack-dummy.sh status
#   Tools/dev/jack-dummy.sh stall 0.3   # freeze jackd for 0.3 s (SIGSTOP … SIGCONT)
#   Tools/dev/jack-dummy.sh crash       # SIGKILL jackd, as a crash (stop then releases its registration)
#   Tools/dev/jack-dummy.sh stop
#
# Then: eval "$(Tools/dev/jack-dummy.sh start)"; swift test --filter JACK
set -euo pipefail

SERVER="${THRUM_JACK_SERVER:-thrum-jack}"
RUNTIME="/tmp/$SERVER"
PIDFILE="$RUNTIME/jackd.pid"
LOG="$RUNTIME/jackd.log"
export JACK_DEFAULT_SERVER="$SERVER"
# No D-Bus device reservation (there is no card to reserve) and no attempt to start a server on demand.
export JACK_NO_AUDIO_RESERVATION=1
export JACK_NO_START_SERVER=1

print_env() {
    echo "export THRUM_JACK_SERVER=$SERVER"
    echo "export JACK_DEFAULT_SERVER=$SERVER"
    echo "export JACK_NO_AUDIO_RESERVATION=1"
    echo "export JACK_NO_START_SERVER=1"
    echo "export THRUM_JACK_TESTS=1"
}

alive() { [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

# The server answers once its system ports are listed.
# (The listing is read whole first: `grep -q` closing the pipe early would fail it under pipefail.)
answers() {
    local ports
    ports="$(jack_lsp 2>/dev/null)" || return 1
    grep -q '^system:playback_2$' <<<"$ports"
}

start() {
    if alive && answers; then
        print_env
        return 0
    fi
    stop
    mkdir -p "$RUNTIME"
    setsid jackd --name "$SERVER" --no-mlock -d dummy -r 48000 -p 256 -C 2 -P 2 </dev/null >"$LOG" 2>&1 &
    echo $! >"$PIDFILE"
    for _ in $(seq 1 100); do
        if answers; then break; fi
        if ! alive; then
            echo "jackd exited; log:" >&2
            cat "$LOG" >&2
            exit 1
        fi
        sleep 0.1
    done
    if ! answers; then
        echo "jackd did not answer in 10 s; log:" >&2
        cat "$LOG" >&2
        stop
        exit 1
    fi
    print_env
}

stop() {
    # JACK registers each server name machine-wide (at most 8) and frees a crashed server's entry only
    # when a server of the same name starts again: do that once, then stop it cleanly.
    if [[ -f "$RUNTIME/crashed" ]] && ! alive; then
        rm -f "$RUNTIME/crashed"
        setsid jackd --name "$SERVER" --no-mlock -d dummy -r 48000 -p 256 </dev/null >>"$LOG" 2>&1 &
        echo $! >"$PIDFILE"
        for _ in $(seq 1 50); do answers && break; sleep 0.1; done
    fi
    if alive; then
        local pid
        pid="$(cat "$PIDFILE")"
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$PIDFILE"
    rm -f /dev/shm/jack_sem.*_"$SERVER"_*
}

# Kills the server at once (SIGKILL), as a crash would: for the tests of a server that dies mid-play.
# `stop` afterwards releases the dead server's registration.
crash() {
    if alive; then
        kill -KILL "$(cat "$PIDFILE")"
        touch "$RUNTIME/crashed"
    fi
}

# Freezes the server for $1 seconds, as a server starved of CPU would be.
stall() {
    alive || { echo "not running" >&2; exit 1; }
    local pid
    pid="$(cat "$PIDFILE")"
    kill -STOP "$pid"
    sleep "${1:-0.3}"
    kill -CONT "$pid"
}

status() {
    if alive && answers; then
        echo "running (pid $(cat "$PIDFILE"), server name $SERVER)"
        print_env
    else
        echo "not running"
        return 1
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    crash) crash ;;
    stall) stall "${2:-0.3}" ;;
    status) status ;;
    env) print_env ;;
    *) echo "usage: $0 start|stop|crash|stall [SECONDS]|status|env" >&2; exit 2 ;;
esac
