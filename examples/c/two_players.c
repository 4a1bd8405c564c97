/* Two players on one clock: a heartbeat and a click sound, the click exactly 0.25 s (12 000 frames at
 * 48 kHz) after the heartbeat's start. Usage: two_players [DEVICE] */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <thrum.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile int ended = 0;
static void on_end(void *context, int status, const char *message) {
    (void)context;
    (void)status;
    (void)message;
    ended++;
}

int main(int argc, char **argv) {
    const char *device = argc > 1 ? argv[1] : getenv("THRUM_DEVICE") ? getenv("THRUM_DEVICE") : "default";
    char *error = NULL;
    thrum_engine_settings settings;
    thrum_engine_settings_init(&settings);
    settings.channels = "L,R,H";
    settings.sample_rate = 48000;
    thrum_device_options options;
    thrum_device_options_init(&options);
    options.device = device;
    options.engine = &settings;
    thrum_engine *engine = thrum_engine_open(&options, &error);
    if (!engine) {
        fprintf(stderr, "two_players: %s\n", error);
        thrum_free(error);
        return 1;
    }
    thrum_pattern *heartbeat = thrum_pattern_load("heartbeat", NULL);
    thrum_pattern *click = thrum_pattern_load("click-with-sound", NULL);
    thrum_player *first = thrum_player_new(engine, heartbeat, NULL, NULL);
    thrum_player *second = thrum_player_new(engine, click, NULL, NULL);
    thrum_player_set_completion(first, on_end, NULL);
    thrum_player_set_completion(second, on_end, NULL);
    double start = thrum_engine_time(engine) + 0.2;
    int failed = thrum_player_start(first, start, &error) || thrum_player_start(second, start + 0.25, &error);
    for (int i = 0; !failed && i < 500 && ended < 2; i++) {
        struct timespec step = {0, 10000000L};
        nanosleep(&step, NULL);
    }
    if (failed) fprintf(stderr, "two_players: %s\n", error);
    else printf("both played on one clock from engine time %.3f s (%d ended)\n", start, ended);
    thrum_free(error);
    thrum_engine_close(engine);
    thrum_player_free(first);
    thrum_player_free(second);
    thrum_pattern_free(heartbeat);
    thrum_pattern_free(click);
    return !failed && ended == 2 ? 0 : 1;
}
