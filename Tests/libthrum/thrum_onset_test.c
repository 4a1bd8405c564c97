/* Onsets as they happen (issue 40 §2) from C: thrum_engine_set_onset_handler, thrum_player_id counted per
 * engine, thrum_player_set_label and the label in the onset log, on the simulated card `sim_hda`
 * (Tools/dev/simcard; real ALSA paced like hardware). Expected values come from the pattern (three transients
 * 50 ms apart) and the log the engine writes.
 * Usage: thrum_onset_test WORK_FOLDER   (ALSA_CONFIG_PATH and THRUM_SIMCARD_* set as Tools/dev/simcard says;
 * Tools/ci/test-libthrum.sh runs it, or skips it with its reason when the card cannot be built). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thrum.h>
#include <time.h>

static int failures = 0;
#define CHECK(condition)                                                                    \
    do {                                                                                    \
        if (!(condition)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)

typedef struct {
    pthread_mutex_t lock;
    int count;
    int64_t player[16], event[16], frame[16];
    char label[16][32];
    double dac[16];
} onsets;

static void on_onset(void *context, const thrum_onset *onset) {
    onsets *got = context;
    pthread_mutex_lock(&got->lock);
    if (got->count < 16 && onset->struct_size >= sizeof(thrum_onset)) {
        int i = got->count++;
        got->player[i] = onset->player;
        got->event[i] = onset->event;
        got->frame[i] = onset->frame;
        got->dac[i] = onset->dac_time;
        snprintf(got->label[i], sizeof got->label[i], "%s", onset->label ? onset->label : "");
    }
    pthread_mutex_unlock(&got->lock);
}

static int count_of(onsets *got) {
    pthread_mutex_lock(&got->lock);
    int count = got->count;
    pthread_mutex_unlock(&got->lock);
    return count;
}

static void sleep_seconds(double seconds) {
    struct timespec pause = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
    nanosleep(&pause, NULL);
}

static const char pattern_json[] =
    "{\"Version\":1,\"Pattern\":["
    "{\"Event\":{\"Time\":0,\"EventType\":\"HapticTransient\",\"EventParameters\":[]}},"
    "{\"Event\":{\"Time\":0.05,\"EventType\":\"HapticTransient\",\"EventParameters\":[]}},"
    "{\"Event\":{\"Time\":0.1,\"EventType\":\"HapticTransient\",\"EventParameters\":[]}}]}";

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s WORK_FOLDER\n", argv[0]);
        return 64;
    }
    char *error = NULL;
    thrum_pattern *pattern = thrum_pattern_from_json(pattern_json, strlen(pattern_json), &error);
    CHECK(pattern != NULL);
    if (!pattern) return 1;
    char log[4096];
    snprintf(log, sizeof log, "%s/onsets.jsonl", argv[1]);
    thrum_device_options options;
    thrum_device_options_init(&options);
    options.device = "sim_hda";
    options.onset_log = log;
    onsets got;
    memset(&got, 0, sizeof got);
    pthread_mutex_init(&got.lock, NULL);

    /* Two engines in turn: each numbers its players from 1. */
    for (int round = 0; round < 2; round++) {
        options.onset_log = round == 0 ? log : NULL;
        thrum_engine *engine = thrum_engine_open(&options, &error);
        CHECK(engine != NULL);
        if (!engine) {
            fprintf(stderr, "thrum_engine_open: %s\n", error);
            return 1;
        }
        thrum_engine_set_onset_handler(engine, round == 0 ? on_onset : NULL, &got);
        thrum_player *first = thrum_player_new(engine, pattern, NULL, &error);
        thrum_player *second = thrum_player_new(engine, pattern, NULL, &error);
        CHECK(thrum_player_id(first) == 1 && thrum_player_id(second) == 2 && thrum_player_id(NULL) == -1);
        if (round == 0) {
            thrum_player_set_label(first, "trial-12");
            CHECK(thrum_player_start(first, 0, &error) == 0);
            CHECK(thrum_player_start(second, thrum_engine_time(engine) + 0.3, &error) == 0);
            /* As they happen: all six arrive before the engine finishes. */
            for (int wait = 0; wait < 300 && count_of(&got) < 6; wait++) sleep_seconds(0.01);
            CHECK(count_of(&got) == 6);
            CHECK(thrum_engine_finish(engine, &error) == 0);
        }
        thrum_player_free(first);
        thrum_player_free(second);
        thrum_engine_close(engine);
    }
    thrum_pattern_free(pattern);

    CHECK(got.count == 6);
    for (int i = 0; i < got.count && i < 6; i++) {
        CHECK(got.player[i] == (i < 3 ? 1 : 2) && got.event[i] == i % 3);
        CHECK(strcmp(got.label[i], i < 3 ? "trial-12" : "") == 0);
        CHECK(!isnan(got.dac[i]));
        if (i % 3) CHECK(got.frame[i] - got.frame[i - 1] == 2400); /* 50 ms at 48 kHz */
    }
    /* The log of the first engine holds the same onsets, the label on player 1's lines. */
    FILE *file = fopen(log, "r");
    CHECK(file != NULL);
    if (file) {
        char line[1024];
        int lines = 0;
        while (fgets(line, sizeof line, file)) {
            char expected[64];
            snprintf(expected, sizeof expected, "\"stream_frame\":%lld,", (long long)got.frame[lines % 16]);
            CHECK(strstr(line, expected) != NULL);
            CHECK((strstr(line, "\"label\":\"trial-12\"") != NULL) == (lines < 3));
            CHECK(strstr(line, lines < 3 ? "\"player\":1," : "\"player\":2,") != NULL);
            lines++;
        }
        fclose(file);
        (void)lines;
    }
    if (failures) fprintf(stderr, "thrum_onset_test: %d checks failed\n", failures);
    else printf("thrum_onset_test: all passed\n");
    return failures ? 1 : 0;
}
