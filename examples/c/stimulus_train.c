/* A psychophysics-style stimulus train: transients of five intensities in a shuffled order, one every
 * 400 ms, each scheduled frame-exactly on the engine clock. The engine logs every onset (--onset-log, as
 * `thrum play --onset-log`); each stimulus is then written with the time it actually left the DAC, as JSON
 * Lines: trial, intensity, the engine time it was scheduled at, its stream frame, its DAC time on
 * CLOCK_MONOTONIC. Usage: stimulus_train [DEVICE] [LOG.jsonl]   (the engine's own log: onsets.jsonl) */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <thrum.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LEVELS 5
#define TRIALS 10

static volatile int finished = 0;
static void on_end(void *context, int status, const char *message) {
    (void)context;
    (void)status;
    (void)message;
    finished = 1;
}

int main(int argc, char **argv) {
    const char *device = argc > 1 ? argv[1] : getenv("THRUM_DEVICE") ? getenv("THRUM_DEVICE") : "default";
    const char *log_path = argc > 2 ? argv[2] : "stimuli.jsonl";
    const double levels[LEVELS] = {0.2, 0.4, 0.6, 0.8, 1.0};
    const int order[TRIALS] = {3, 0, 4, 1, 2, 2, 4, 0, 3, 1}; /* a fixed shuffle: the same order every run */
    const double interval = 0.4;
    char *error = NULL;
    thrum_engine_settings settings;
    thrum_engine_settings_init(&settings);
    settings.channels = "L+H,R+H";
    thrum_device_options options;
    thrum_device_options_init(&options);
    options.device = device;
    options.onset_log = "onsets.jsonl";
    options.engine = &settings;
    thrum_engine *engine = thrum_engine_open(&options, &error);
    if (!engine) {
        fprintf(stderr, "stimulus_train: %s\n", error);
        thrum_free(error);
        return 1;
    }
    thrum_pattern *patterns[LEVELS];
    thrum_player *players[LEVELS];
    for (int i = 0; i < LEVELS; i++) {
        char json[256];
        snprintf(json, sizeof json,
                 "{\"Version\":1,\"Pattern\":[{\"Event\":{\"EventType\":\"HapticTransient\",\"Time\":0,"
                 "\"EventParameters\":[{\"ParameterID\":\"HapticIntensity\",\"ParameterValue\":%.1f}]}}]}",
                 levels[i]);
        patterns[i] = thrum_pattern_from_json(json, strlen(json), NULL);
        players[i] = thrum_player_new(engine, patterns[i], NULL, NULL);
    }
    thrum_player_set_completion(players[order[TRIALS - 1]], on_end, NULL);
    double first = thrum_engine_time(engine) + 0.5;
    double scheduled[TRIALS];
    for (int trial = 0; trial < TRIALS; trial++) {
        scheduled[trial] = first + trial * interval;
        if (thrum_player_start(players[order[trial]], scheduled[trial], &error)) {
            fprintf(stderr, "stimulus_train: %s\n", error);
            thrum_free(error);
        }
    }
    /* The last stimulus plays at first + 3.6 s; wait for it (at most 10 s). */
    for (int i = 0; i < 1000 && !finished; i++) {
        struct timespec step = {0, 10000000L};
        nanosleep(&step, NULL);
    }
    /* Finishing the engine writes its onset log: one line per stimulus, in the order they played. */
    if (thrum_engine_finish(engine, &error)) {
        fprintf(stderr, "stimulus_train: %s\n", error);
        thrum_free(error);
    }
    FILE *onsets = fopen("onsets.jsonl", "r");
    FILE *log = fopen(log_path, "w");
    int logged = 0;
    char line[1024];
    while (onsets && log && logged < TRIALS && fgets(line, sizeof line, onsets)) {
        double pattern_time, engine_time, dac_time;
        unsigned long long frame;
        if (sscanf(line, "{\"pattern_time\":%lf,\"stream_frame\":%llu,\"engine_time\":%lf,\"dac_time\":%lf",
                   &pattern_time, &frame, &engine_time, &dac_time) != 4) {
            break;
        }
        fprintf(log, "{\"trial\": %d, \"intensity\": %.1f, \"scheduled\": %.6f, \"stream_frame\": %llu, "
                "\"dac_time\": %.9f}\n", logged, levels[order[logged]], scheduled[logged], frame, dac_time);
        logged++;
    }
    if (onsets) fclose(onsets);
    if (log) fclose(log);
    printf("%d stimuli every %.0f ms, %s, %d onsets logged; log in %s\n", TRIALS, interval * 1000,
           finished ? "all played" : "timed out", logged, log_path);
    thrum_engine_close(engine);
    for (int i = 0; i < LEVELS; i++) {
        thrum_player_free(players[i]);
        thrum_pattern_free(patterns[i]);
    }
    return finished && logged == TRIALS ? 0 : 1;
}
