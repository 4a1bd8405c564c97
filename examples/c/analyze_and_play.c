/* Turn a sound into haptics (as `thrum analyze`) and play the result. Usage: analyze_and_play SOUND [DEVICE] */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <thrum.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile int finished = 0;
static void on_end(void *context, int status, const char *message) {
    (void)context;
    (void)message;
    finished = status == 0 ? 1 : -1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: analyze_and_play SOUND [DEVICE]\n");
        return 64;
    }
    const char *device = argc > 2 ? argv[2] : getenv("THRUM_DEVICE") ? getenv("THRUM_DEVICE") : "default";
    char *error = NULL, *warnings = NULL;
    thrum_analyze_options settings;
    thrum_analyze_options_init(&settings);
    settings.preset = "impacts";
    if (thrum_analyze(argv[1], "analysed.ahap", &settings, &warnings, &error) != 0) {
        fprintf(stderr, "analyze_and_play: %s\n", error);
        thrum_free(error);
        return 1;
    }
    if (warnings) fputs(warnings, stderr);
    thrum_free(warnings);
    thrum_pattern *pattern = thrum_pattern_load("analysed.ahap", &error);
    thrum_engine_settings engine_settings;
    thrum_engine_settings_init(&engine_settings);
    engine_settings.channels = "L+H,R+H";
    thrum_device_options options;
    thrum_device_options_init(&options);
    options.device = device;
    options.engine = &engine_settings;
    thrum_engine *engine = pattern ? thrum_engine_open(&options, &error) : NULL;
    thrum_player *player = engine ? thrum_player_new(engine, pattern, NULL, &error) : NULL;
    if (player) {
        thrum_player_set_completion(player, on_end, NULL);
        thrum_player_start(player, 0, &error);
    }
    for (int i = 0; player && !error && i < 1000 && !finished; i++) {
        struct timespec step = {0, 10000000L};
        nanosleep(&step, NULL);
    }
    if (error) fprintf(stderr, "analyze_and_play: %s\n", error);
    else printf("analysed %s into analysed.ahap (%.2f s) and played it\n", argv[1], thrum_pattern_duration(pattern));
    thrum_free(error);
    thrum_engine_close(engine);
    thrum_player_free(player);
    thrum_pattern_free(pattern);
    return finished == 1 ? 0 : 1;
}
