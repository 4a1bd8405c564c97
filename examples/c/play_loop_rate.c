/* Play a pattern in a loop at 1.5x, then 0.75x, then stop. Usage: play_loop_rate [DEVICE]
 * (default: $THRUM_DEVICE or "default"; "pulse" for PulseAudio). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <thrum.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void sleep_seconds(double seconds) {
    struct timespec time = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
    nanosleep(&time, NULL);
}

static int fail(char *error) {
    fprintf(stderr, "play_loop_rate: %s\n", error);
    thrum_free(error);
    return 1;
}

int main(int argc, char **argv) {
    const char *device = argc > 1 ? argv[1] : getenv("THRUM_DEVICE") ? getenv("THRUM_DEVICE") : "default";
    char *error = NULL;
    thrum_engine_settings settings;
    thrum_engine_settings_init(&settings);
    settings.channels = "L+H,R+H";
    thrum_device_options options;
    thrum_device_options_init(&options);
    options.device = device;
    options.engine = &settings;
    thrum_engine *engine = thrum_engine_open(&options, &error);
    if (!engine) return fail(error);
    thrum_pattern *pattern = thrum_pattern_load("heartbeat", &error);
    thrum_player *player = pattern ? thrum_player_new(engine, pattern, NULL, &error) : NULL;
    if (!player || thrum_player_set_loop(player, 1, 0, 0, &error) || thrum_player_set_rate(player, 1.5, &error) ||
        thrum_player_start(player, 0, &error)) {
        thrum_engine_close(engine);
        return fail(error);
    }
    sleep_seconds(1.0);
    thrum_player_set_rate(player, 0.75, NULL);
    sleep_seconds(1.0);
    printf("position %.3f s into the pattern after 2 s\n", thrum_player_position(player));
    thrum_player_stop(player, 0, NULL);
    printf("played on '%s', %llu xruns\n", device, (unsigned long long)thrum_engine_xruns(engine));
    thrum_engine_close(engine);
    thrum_player_free(player);
    thrum_pattern_free(pattern);
    return 0;
}
