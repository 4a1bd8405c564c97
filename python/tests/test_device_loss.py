"""Device loss is a failure: a private PulseAudio server (its pid in THRUM_TEST_KILL_SERVER, started by
Tools/ci/test-libthrum.sh for this test alone) is killed while two players loop on it; each player's
wait() raises ThrumError 69, its completion receives it, and the engine's close() raises it."""
import os
import signal
import time

import pytest

import thrum

SERVER = os.environ.get("THRUM_TEST_KILL_SERVER")


@pytest.mark.skipif(not SERVER, reason="needs THRUM_TEST_KILL_SERVER: the pid of a private sound server to kill")
def test_killing_the_sound_server_fails_every_player_and_the_session():
    engine = thrum.Engine(device=os.environ.get("THRUM_TEST_DEVICE", "pulse"))
    pattern = thrum.Pattern.load("heartbeat")
    outcomes = []
    players = [engine.player(pattern) for _ in range(2)]
    for player in players:
        player.on_completion = outcomes.append
        player.loop = True
        player.start()
    time.sleep(0.4)
    os.kill(int(SERVER), signal.SIGKILL)
    for player in players:
        with pytest.raises(thrum.ThrumError) as failure:
            player.wait(timeout=5)
        assert failure.value.status == 69
        assert str(failure.value)
    assert [error.status for error in outcomes] == [69, 69]
    with pytest.raises(thrum.ThrumError) as failure:
        engine.close()
    assert failure.value.status == 69
