#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal, types keys at given times, and reports what happened.

    Tools/dev/pty-run.py [--background] [--key SECONDS:TEXT]... -- COMMAND [ARGS...]

TEXT may use Python escapes (\\x03 is Ctrl-C, \\x1b[C is the right arrow). Prints the terminal
transcript, then a line 'exit: N' (or 'signal: N'), then 'stty-restored: yes|no' comparing the
terminal settings before and after. Used by Thrum's tests of `thrum play` on a terminal.
With --background the command runs as a background job of the terminal's session (its own process
group, not the foreground one, as `COMMAND &` in an interactive shell); if the terminal stops it
(SIGTTOU, SIGTTIN) the transcript says 'stopped: N' and it is killed (exit 120).
"""
import os, pty, select, sys, termios, time

def main():
    args = sys.argv[1:]
    background = False
    if args and args[0] == "--background":
        background = True
        args = args[1:]
    keys = []
    while args and args[0] == "--key":
        at, text = args[1].split(":", 1)
        keys.append((float(at), text.encode().decode("unicode_escape").encode("latin-1")))
        args = args[2:]
    if args and args[0] == "--":
        args = args[1:]
    pid, fd = pty.fork()
    if pid == 0:
        if background:
            job = os.fork()
            if job == 0:
                os.setpgid(0, 0)
                os.execvp(args[0], args)
            _, code = os.waitpid(job, os.WUNTRACED)
            if os.WIFSTOPPED(code):
                os.write(2, f"stopped: {os.WSTOPSIG(code)}\n".encode())
                os.kill(job, 9)
                os._exit(120)
            os._exit(os.WEXITSTATUS(code) if os.WIFEXITED(code) else 128 + os.WTERMSIG(code))
        os.execvp(args[0], args)
    before = termios.tcgetattr(fd)
    start = time.monotonic()
    transcript = b""
    keys.sort()
    status = None
    while status is None:
        now = time.monotonic() - start
        while keys and keys[0][0] <= now:
            os.write(fd, keys.pop(0)[1])
        ready, _, _ = select.select([fd], [], [], 0.02)
        if ready:
            try:
                transcript += os.read(fd, 65536)
            except OSError:
                pass
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = code
        if now > 60:
            os.kill(pid, 9)
    try:
        after = termios.tcgetattr(fd)
    except termios.error:
        after = before
    sys.stdout.write(transcript.decode("utf-8", "replace"))
    if os.WIFEXITED(status):
        print(f"\nexit: {os.WEXITSTATUS(status)}")
    else:
        print(f"\nsignal: {os.WTERMSIG(status)}")
    print("stty-restored: " + ("yes" if after == before else "no"))

main()
