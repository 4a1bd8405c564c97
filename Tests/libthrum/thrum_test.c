/* libthrum's C test (run by Tools/ci/test-libthrum.sh against an installed prefix, also under ASan).
 * Usage: thrum_test VERSION ONCE.wav OPTIONS.wav WORKDIR
 *   ONCE.wav:    `thrum render heartbeat --sample-rate 48000 --channels L,R,H --format float`
 *   OPTIONS.wav: `thrum render heartbeat --loops 2 --rate 1.5 --sample-rate 44100 --channels M+H --format float`
 * With THRUM_TEST_DEVICE set (an ALSA device, e.g. a PulseAudio null sink), it also plays on it, with an
 * onset log and a start at a CLOCK_MONOTONIC time.
 * Expected values come from the thrum command (the oracle) and from the header's contract. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <thrum.h>

#include <dlfcn.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;

#define CHECK(condition, ...)                                                      \
    do {                                                                           \
        if (!(condition)) {                                                        \
            failures++;                                                            \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #condition);   \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
        }                                                                          \
    } while (0)

/* The float samples of a WAV file libsndfile wrote (RIFF chunks; the "data" chunk is read). */
static float *read_wav(const char *path, long *count) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    unsigned char header[12];
    float *samples = NULL;
    *count = 0;
    if (fread(header, 1, 12, file) == 12 && memcmp(header, "RIFF", 4) == 0 && memcmp(header + 8, "WAVE", 4) == 0) {
        unsigned char chunk[8];
        while (fread(chunk, 1, 8, file) == 8) {
            unsigned long size = chunk[4] | chunk[5] << 8 | chunk[6] << 16 | (unsigned long)chunk[7] << 24;
            if (memcmp(chunk, "data", 4) == 0) {
                samples = malloc(size ? size : 1);
                *count = (long)(fread(samples, 1, size, file) / sizeof(float));
                break;
            }
            fseek(file, (long)(size + (size & 1)), SEEK_CUR);
        }
    }
    fclose(file);
    return samples;
}

static int starts_with(const char *text, const char *prefix) {
    return text && strncmp(text, prefix, strlen(prefix)) == 0;
}

static void write_file(const char *path, const char *text) {
    FILE *file = fopen(path, "w");
    if (file) {
        fputs(text, file);
        fclose(file);
    }
}

static void test_render(const char *once_wav, const char *options_wav) {
    char *error = NULL;
    long expected_count = 0;
    float *expected = read_wav(once_wav, &expected_count);
    CHECK(expected && expected_count > 0, "cannot read %s", once_wav);
    thrum_pattern *pattern = thrum_pattern_load("heartbeat", &error);
    CHECK(pattern && !error, "load heartbeat: %s", error ? error : "");
    if (!pattern || !expected) return;
    CHECK(thrum_pattern_duration(pattern) > 0, "duration %f", thrum_pattern_duration(pattern));

    int64_t frames = thrum_render(pattern, 48000, "L,R,H", NULL, 0, &error);
    CHECK(frames * 3 == expected_count, "NULL buffer: %lld frames, the CLI wrote %ld samples", (long long)frames,
          expected_count);
    float *samples = calloc((size_t)expected_count + 3, sizeof(float));
    int64_t written = thrum_render(pattern, 48000, "L,R,H", samples, frames, &error);
    CHECK(written == frames, "written %lld of %lld", (long long)written, (long long)frames);
    CHECK(memcmp(samples, expected, (size_t)expected_count * sizeof(float)) == 0, "samples differ from thrum render");
    CHECK(thrum_render(pattern, 48000, NULL, samples, 100, &error) == 100, "max_frames 100");
    CHECK(memcmp(samples, expected, 300 * sizeof(float)) == 0, "the first 100 frames differ (channels NULL = L,R,H)");
    free(samples);
    free(expected);

    /* Every render option, read in blocks that are not the CLI's 4096 frames. */
    thrum_engine_settings engine;
    thrum_engine_settings_init(&engine);
    engine.sample_rate = 44100;
    engine.channels = "M+H";
    thrum_render_options options;
    thrum_render_options_init(&options);
    options.loops = 2;
    options.rate = 1.5;
    options.engine = &engine;
    thrum_renderer *renderer = thrum_renderer_open(pattern, &options, &error);
    CHECK(renderer && !error, "renderer_open: %s", error ? error : "");
    expected = read_wav(options_wav, &expected_count);
    if (renderer && expected) {
        CHECK(thrum_renderer_channels(renderer) == 1, "channels %d", thrum_renderer_channels(renderer));
        CHECK(thrum_renderer_sample_rate(renderer) == 44100, "rate %f", thrum_renderer_sample_rate(renderer));
        float *all = calloc((size_t)expected_count + 1000, sizeof(float));
        long total = 0;
        int64_t got;
        while ((got = thrum_renderer_read(renderer, all + total, 1000, &error)) > 0) total += (long)got;
        CHECK(got == 0 && !error, "read ended with %lld", (long long)got);
        CHECK(total == expected_count, "renderer: %ld frames, the CLI %ld", total, expected_count);
        CHECK(memcmp(all, expected, (size_t)expected_count * sizeof(float)) == 0, "renderer samples differ from the CLI");
        free(all);
    }
    free(expected);
    thrum_renderer_free(renderer);
    thrum_pattern_free(pattern);
}

static void test_errors(const char *work) {
    char *error = NULL;
    char path[4096];
    CHECK(thrum_pattern_load("no-such-pattern.ahap", &error) == NULL, "a missing file loads");
    CHECK(error && strcmp(error, "cannot open 'no-such-pattern.ahap': no such file (check the path)") == 0, "message: %s",
          error ? error : "(none)");
    thrum_free(error);
    CHECK(thrum_last_status() == THRUM_STATUS_NO_INPUT, "last status of a missing file %d", thrum_last_status());
    CHECK(thrum_pattern_load("no-such-pattern.ahap", NULL) == NULL, "a missing file loads (NULL error pointer)");
    CHECK(thrum_last_status() == THRUM_STATUS_NO_INPUT, "last status, NULL error pointer %d", thrum_last_status());

    CHECK(thrum_pattern_from_json("{", 1, &error) == NULL, "bad JSON loads");
    CHECK(starts_with(error, "<json>:1:"), "message: %s", error ? error : "(none)");
    CHECK(thrum_last_status() == THRUM_STATUS_DATA, "last status of bad JSON %d", thrum_last_status());
    thrum_free(error);
    CHECK(thrum_pattern_from_haptic("{}", 2, &error) == NULL, "an empty .haptic loads");
    CHECK(starts_with(error, "<haptic>"), "message: %s", error ? error : "(none)");
    thrum_free(error);
    CHECK(thrum_pattern_load(NULL, &error) == NULL && error, "NULL path");
    thrum_free(error);

    const char *json = "{\"Version\":1,\"Pattern\":[{\"Event\":{\"EventType\":\"HapticTransient\",\"Time\":0}}]}";
    thrum_pattern *pattern = thrum_pattern_from_json(json, strlen(json), &error);
    CHECK(pattern && !error, "from_json: %s", error ? error : "");
    CHECK(thrum_last_status() == THRUM_STATUS_OK, "last status of a success %d", thrum_last_status());
    CHECK(thrum_render(pattern, 10, "L,R,H", NULL, 0, &error) == -1, "rate 10 renders");
    CHECK(thrum_last_status() == THRUM_STATUS_USAGE, "last status of rate 10 %d", thrum_last_status());
    CHECK(error && strcmp(error, "--sample-rate takes a whole number from 1000 to 768000, not '10'") == 0, "message: %s",
          error ? error : "(none)");
    thrum_free(error);
    CHECK(thrum_render(pattern, 48000, "L,X", NULL, 0, &error) == -1, "channels L,X render");
    CHECK(starts_with(error, "--channels: "), "message: %s", error ? error : "(none)");
    thrum_free(error);
    CHECK(thrum_render(pattern, 48000, "L", NULL, -1, &error) == -1 && error, "negative max_frames");
    thrum_free(error);
    thrum_render_options loop;
    thrum_render_options_init(&loop);
    loop.loop = 1;
    CHECK(thrum_renderer_open(pattern, &loop, &error) == NULL, "loop without a duration opens");
    CHECK(error && strcmp(error, "--loop renders forever; add --duration S") == 0, "message: %s", error ? error : "(none)");
    thrum_free(error);
    loop.rate = 0;
    CHECK(thrum_renderer_open(pattern, &loop, &error) == NULL && thrum_last_status() == THRUM_STATUS_USAGE, "rate 0 opens");
    CHECK(error && strcmp(error, "--rate takes a number from 0.01 to 100, not '0'") == 0, "message: %s", error ? error : "(none)");
    thrum_free(error);
    /* A program compiled against an older thrum.h passes a shorter struct: the fields past it are defaults. */
    thrum_render_options older;
    thrum_render_options_init(&older);
    older.struct_size = offsetof(thrum_render_options, loops);
    older.loops = 1000000; /* past struct_size: not read */
    thrum_renderer *short_struct = thrum_renderer_open(pattern, &older, &error);
    CHECK(short_struct && !error, "a shorter struct: %s", error ? error : "");
    thrum_renderer_free(short_struct);
    older.struct_size = sizeof older + 8;
    CHECK(thrum_renderer_open(pattern, &older, &error) == NULL && thrum_last_status() == THRUM_STATUS_USAGE,
          "a struct larger than the library knows opens");
    thrum_free(error);
    CHECK(thrum_channel_count("L+H,R+H,0", &error) == 3, "channel count");
    CHECK(thrum_channel_count("Q", &error) == -1 && error, "channel count of Q");
    thrum_free(error);

    thrum_diagnostics *diagnostics = NULL;
    CHECK(thrum_check("no-such.ahap", NULL, &diagnostics, &error) == THRUM_STATUS_NO_INPUT, "check of a missing file");
    CHECK(diagnostics == NULL && error, "missing: no diagnostics, a message");
    thrum_free(error);
    const char *inputs[] = {"no-such.haptic"};
    snprintf(path, sizeof path, "%s/out.ahap", work);
    CHECK(thrum_convert(inputs, 1, path, NULL, NULL, &error) == THRUM_STATUS_NO_INPUT, "convert of a missing file");
    CHECK(error && strcmp(error, "cannot open 'no-such.haptic': no such file (check the path)") == 0, "message: %s",
          error ? error : "(none)");
    thrum_free(error);
    CHECK(thrum_analyze("no-such.wav", path, NULL, NULL, &error) == THRUM_STATUS_NO_INPUT, "analyze of a missing file");
    thrum_free(error);
    snprintf(path, sizeof path, "%s/out.txt", work);
    CHECK(thrum_pattern_write(pattern, path, NULL, &error) == THRUM_STATUS_USAGE && error, "write .txt");
    thrum_free(error);
    snprintf(path, sizeof path, "%s/no-such-folder/out.ahap", work);
    CHECK(thrum_pattern_write(pattern, path, NULL, &error) == THRUM_STATUS_IO && error, "write into a missing folder");
    thrum_free(error);

    thrum_device_options device;
    thrum_device_options_init(&device);
    device.device = "thrum_no_such_device";
    CHECK(thrum_engine_open(&device, &error) == NULL, "a missing device opens");
    CHECK(starts_with(error, "cannot open ALSA device 'thrum_no_such_device'"), "message: %s", error ? error : "(none)");
    CHECK(thrum_last_status() == THRUM_STATUS_UNAVAILABLE, "last status of a missing device %d", thrum_last_status());
    thrum_free(error);
    snprintf(path, sizeof path, "%s/no-such-folder/onsets.jsonl", work);
    device.onset_log = path;
    CHECK(thrum_engine_open(&device, &error) == NULL, "an onset log in a missing folder opens");
    CHECK(thrum_last_status() == THRUM_STATUS_CANT_CREATE && starts_with(error, "cannot create onset log '"),
          "status %d, message: %s", thrum_last_status(), error ? error : "(none)");
    thrum_free(error);
    CHECK(thrum_engine_finish(NULL, &error) == THRUM_STATUS_USAGE && error, "finish NULL");
    thrum_free(error);
    CHECK(thrum_engine_output_time(NULL, 0) == -1, "output time of NULL");
    thrum_device_options period;
    thrum_device_options_init(&period);
    period.period = 3;
    CHECK(thrum_engine_open(&period, &error) == NULL, "period 3 opens");
    CHECK(error && strcmp(error, "--period takes a whole number from 16 to 8192, not '3'") == 0, "message: %s",
          error ? error : "(none)");
    thrum_free(error);
    thrum_pattern_free(pattern);
}

static void test_files(const char *work, const char *sound) {
    char *error = NULL, *warnings = NULL;
    char bad[4096], good[4096], haptic[4096], analysed[4096];
    snprintf(bad, sizeof bad, "%s/bad.ahap", work);
    write_file(bad, "{\n  \"Version\": 1,\n  \"Pattern\": [\n    {\"Event\": {\"EventType\": \"HapticTransient\", \"Time\": \"soon\"}}\n  ]\n}\n");
    thrum_diagnostics *diagnostics = NULL;
    CHECK(thrum_check(bad, NULL, &diagnostics, &error) == 0 && diagnostics, "check bad.ahap: %s", error ? error : "");
    CHECK(thrum_diagnostics_errors(diagnostics) >= 1, "errors %zu", thrum_diagnostics_errors(diagnostics));
    if (thrum_diagnostics_count(diagnostics) > 0) {
        CHECK(strcmp(thrum_diagnostic_file(diagnostics, 0), bad) == 0, "file %s", thrum_diagnostic_file(diagnostics, 0));
        CHECK(thrum_diagnostic_line(diagnostics, 0) == 4, "line %d", thrum_diagnostic_line(diagnostics, 0));
        CHECK(thrum_diagnostic_column(diagnostics, 0) > 1, "column %d", thrum_diagnostic_column(diagnostics, 0));
        CHECK(strcmp(thrum_diagnostic_severity(diagnostics, 0), "error") == 0, "severity");
        CHECK(strstr(thrum_diagnostic_text(diagnostics, 0), thrum_diagnostic_message(diagnostics, 0)) != NULL, "text");
    }
    CHECK(thrum_diagnostic_file(diagnostics, 999) == NULL, "out of range");
    thrum_diagnostics_free(diagnostics);

    thrum_pattern *pattern = thrum_pattern_load("heartbeat", &error);
    snprintf(good, sizeof good, "%s/heartbeat-copy.ahap", work);
    CHECK(thrum_pattern_write(pattern, good, &warnings, &error) == 0, "write: %s", error ? error : "");
    CHECK(thrum_check(good, NULL, &diagnostics, &error) == 0 && thrum_diagnostics_errors(diagnostics) == 0,
          "the written copy has errors");
    thrum_diagnostics_free(diagnostics);
    snprintf(haptic, sizeof haptic, "%s/heartbeat.haptic", work);
    const char *inputs[] = {good};
    CHECK(thrum_convert(inputs, 1, haptic, NULL, &warnings, &error) == 0, "convert: %s", error ? error : "");
    thrum_free(warnings);
    thrum_pattern *converted = thrum_pattern_load(haptic, &error);
    CHECK(converted != NULL, "load the .haptic: %s", error ? error : "");
    thrum_pattern_free(converted);
    snprintf(analysed, sizeof analysed, "%s/analysed.ahap", work);
    thrum_analyze_options options;
    thrum_analyze_options_init(&options);
    options.preset = "impacts";
    CHECK(thrum_analyze(sound, analysed, &options, &warnings, &error) == 0, "analyze: %s", error ? error : "");
    thrum_free(warnings);
    thrum_pattern *from_sound = thrum_pattern_load(analysed, &error);
    CHECK(from_sound && thrum_pattern_duration(from_sound) > 0.5, "analysed pattern: %s", error ? error : "");
    thrum_pattern_free(from_sound);
    thrum_pattern_free(pattern);
}

/* thrum_import: a project with a clip that has audio, a Freeform clip (no audio) and, second time, a clip
 * whose audio is missing. */
static void test_import(const char *work, const char *sound) {
    char *error = NULL, *written = NULL, *warnings = NULL;
    char project[4096], folder[4096], text[16384];
    const char *haptic = "{\"version\": {\"major\": 1, \"minor\": 0, \"patch\": 0}, \"signals\": {\"continuous\": "
                         "{\"envelopes\": {\"amplitude\": [{\"time\": 0, \"amplitude\": 0.5}, {\"time\": 0.2, \"amplitude\": 0}]}}}}";
    snprintf(project, sizeof project, "%s/project.hasp", work);
    snprintf(text, sizeof text,
             "{\"clips\": [{\"name\": \"Boom\", \"audioAsset\": {\"path\": \"%s\", \"channels\": 1}, \"haptic\": %s},\n"
             " {\"name\": \"Sketch\", \"audioAsset\": {\"channels\": 1}, \"haptic\": %s}]}\n",
             sound, haptic, haptic);
    write_file(project, text);
    snprintf(folder, sizeof folder, "%s/imported", work);
    CHECK(thrum_import(project, folder, NULL, &written, &warnings, &error) == 0, "import: %s", error ? error : "");
    CHECK(written && strstr(written, "/imported/Boom.haptic\n") && strstr(written, "/imported/Boom.wav\n") &&
              strstr(written, "/imported/Sketch.haptic\n") && !strstr(written, "Sketch.wav"),
          "written: %s", written ? written : "(none)");
    thrum_free(written);
    thrum_free(warnings);

    snprintf(text, sizeof text,
             "{\"clips\": [{\"name\": \"Gone\", \"audioAsset\": {\"path\": \"gone.wav\", \"channels\": 1}, \"haptic\": %s},\n"
             " {\"name\": \"Sketch\", \"audioAsset\": {\"channels\": 1}, \"haptic\": %s}]}\n",
             haptic, haptic);
    write_file(project, text);
    thrum_import_options options;
    thrum_import_options_init(&options);
    options.format = "ahap";
    snprintf(folder, sizeof folder, "%s/imported-ahap", work);
    CHECK(thrum_import(project, folder, &options, &written, &warnings, &error) == THRUM_STATUS_NO_INPUT, "import, audio missing");
    CHECK(error && strcmp(error, "1 clip not written: 'Gone'") == 0, "message: %s", error ? error : "(none)");
    CHECK(warnings && strstr(warnings, "clip 'Gone': audio file 'gone.wav' not found"), "warnings: %s", warnings ? warnings : "(none)");
    CHECK(written && strstr(written, "/imported-ahap/Sketch.ahap\n") && !strstr(written, "Gone"), "written: %s",
          written ? written : "(none)");
    thrum_free(error);
    thrum_free(written);
    thrum_free(warnings);
}

static volatile int completions = 0;
static void completed(void *context, int status, const char *message) {
    (void)message;
    if (status == 0) *(volatile int *)context += 1;
}

static void sleep_ms(long ms) {
    struct timespec time = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&time, NULL);
}

/* A host's alsa-lib error handler (libasound is loaded with libthrum; looked up so that the test needs no ALSA
 * headers): libthrum leaves it as the host set it (thrum.h). */
typedef void (*alsa_error_handler)(const char *file, int line, const char *function, int err, const char *fmt, ...);
static void host_alsa_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/* thrum_devices lists ALSA's playback PCMs; `null` is in every alsa-lib configuration. */
static void test_devices(void) {
    char *devices = NULL, *error = NULL;
    CHECK(thrum_devices(&devices, &error) == 0 && !error, "devices: %s", error ? error : "");
    int null_found = 0;
    for (char *line = devices; line && *line;) {
        char *end = strchr(line, '\n');
        CHECK(end != NULL, "a device line ends with a line break");
        if (!end) break;
        char *tab = strchr(line, '\t');
        CHECK(tab && tab < end && (tab[1] == '0' || tab[1] == '1') && tab[2] == '\t', "line fields: %.*s", (int)(end - line), line);
        if (tab && (size_t)(tab - line) == 4 && strncmp(line, "null", 4) == 0) null_found = 1;
        line = end + 1;
    }
    CHECK(null_found, "the null device is listed:\n%s", devices ? devices : "(none)");
    thrum_free(devices);
}

static void test_live(const char *device) {
    char *error = NULL;
    void *process = dlopen(NULL, RTLD_NOW);
    int (*set_alsa_handler)(alsa_error_handler) = NULL;
    *(void **)(&set_alsa_handler) = process ? dlsym(process, "snd_lib_error_set_handler") : NULL;
    alsa_error_handler *alsa_handler = process ? (alsa_error_handler *)dlsym(process, "snd_lib_error") : NULL;
    CHECK(set_alsa_handler && alsa_handler, "alsa-lib's error handler is found");
    if (process) dlclose(process); /* libasound stays loaded: libthrum needs it */
    if (set_alsa_handler) set_alsa_handler(host_alsa_handler);
    thrum_engine_settings settings;
    thrum_engine_settings_init(&settings);
    settings.channels = "L,R,H";
    settings.sample_rate = 48000;
    thrum_device_options options;
    thrum_device_options_init(&options);
    options.device = device;
    options.engine = &settings;
    thrum_engine *engine = thrum_engine_open(&options, &error);
    CHECK(engine && !error, "engine_open %s: %s", device, error ? error : "");
    if (!engine) return;
    CHECK(!alsa_handler || *alsa_handler == host_alsa_handler, "engine_open leaves the host's ALSA error handler");
    CHECK(thrum_engine_channels(engine) == 3 && thrum_engine_sample_rate(engine) == 48000, "engine setup");
    thrum_pattern *pattern = thrum_pattern_load("heartbeat", &error);
    thrum_player *player = thrum_player_new(engine, pattern, NULL, &error);
    CHECK(player && !error, "player_new: %s", error ? error : "");
    thrum_player_set_completion(player, completed, (void *)&completions);
    CHECK(thrum_player_set_rate(player, 2.0, &error) == 0, "rate 2");
    CHECK(thrum_player_set_rate(player, 0, &error) == THRUM_STATUS_USAGE && error, "rate 0 is refused");
    thrum_free(error);
    CHECK(thrum_player_loop(player, NULL, NULL) == 0 && thrum_player_rate(player) == 2.0 && thrum_player_muted(player) == 0,
          "state read back: loop %d, rate %f, muted %d", thrum_player_loop(player, NULL, NULL), thrum_player_rate(player),
          thrum_player_muted(player));
    CHECK(thrum_player_set_loop(player, 1, 0.5, 2, &error) == 0, "two passes");
    double loop_end = -1;
    int32_t passes = -1;
    CHECK(thrum_player_loop(player, &loop_end, &passes) == 1 && loop_end == 0.5 && passes == 2,
          "loop read back: end %f, passes %d", loop_end, (int)passes);
    CHECK(thrum_player_set_loop(player, 1, 0, 2, &error) == 0, "two passes to the end");
    thrum_player_set_muted(player, 1);
    CHECK(thrum_player_muted(player) == 1, "muted read back");
    thrum_player_set_muted(player, 0);
    CHECK(thrum_player_loop(NULL, NULL, NULL) == -1 && thrum_player_rate(NULL) == -1 && thrum_player_muted(NULL) == -1,
          "getters of NULL");
    CHECK(thrum_player_send_parameter(player, "HapticIntensityControl", 0.5f, 0, &error) == 0, "send");
    CHECK(thrum_player_send_parameter(player, "HapticIntensity", 0.5f, 0, &error) == THRUM_STATUS_USAGE && error,
          "an unknown parameter is refused");
    thrum_free(error);
    double times[] = {0, 0.2};
    float values[] = {1, 0.2f};
    CHECK(thrum_player_start(player, 0, &error) == 0, "start: %s", error ? error : "");
    CHECK(thrum_player_schedule_curve(player, "HapticSharpnessControl", times, values, 2, 0, &error) == 0, "curve");
    double started = thrum_engine_time(engine);
    /* Two passes of 1 s at rate 2: about 1 s; wait up to 5 s for the callback. */
    for (int i = 0; i < 500 && completions == 0; i++) sleep_ms(10);
    CHECK(completions == 1, "completion callback ran %d times", completions);
    CHECK(thrum_engine_time(engine) - started >= 0.9, "ended after %f s of engine time", thrum_engine_time(engine) - started);
    CHECK(thrum_player_position(player) == -1, "position after the end %f", thrum_player_position(player));
    /* The device has played for a second, so its latency is known: more than 1 ms (at least a period is
     * queued ahead of the DAC) and less than a second on any device here. */
    double latency = thrum_engine_latency(engine);
    CHECK(latency > 0.001 && latency < 1.0, "latency %f s", latency);
    CHECK(thrum_engine_latency(NULL) == -1, "latency of NULL");
    thrum_engine_close(engine);
    CHECK(thrum_player_start(player, 0, &error) != 0 && error, "a player of a closed engine starts");
    thrum_free(error);
    thrum_player_free(player);
    thrum_pattern_free(pattern);
}

/* A completion in flight while thrum_player_free runs: free waits for it, and none runs after free returns. */
static volatile int race_entered = 0, race_left = 0, race_calls = 0;
static void slow_completion(void *context, int status, const char *message) {
    (void)context; (void)status; (void)message;
    race_calls += 1;
    race_entered = 1;
    sleep_ms(300);
    race_left = 1;
}

static void test_free_race(const char *device) {
    char *error = NULL;
    thrum_device_options options;
    thrum_device_options_init(&options);
    options.device = device;
    thrum_engine *engine = thrum_engine_open(&options, &error);
    CHECK(engine && !error, "engine_open %s: %s", device, error ? error : "");
    if (!engine) return;
    const char *json = "{\"Version\":1,\"Pattern\":[{\"Event\":{\"EventType\":\"HapticTransient\",\"Time\":0}}]}";
    thrum_pattern *pattern = thrum_pattern_from_json(json, strlen(json), &error);
    thrum_player *player = thrum_player_new(engine, pattern, NULL, &error);
    CHECK(player && !error, "player_new: %s", error ? error : "");
    thrum_player_set_completion(player, slow_completion, NULL);
    CHECK(thrum_player_start(player, 0, &error) == 0, "start: %s", error ? error : "");
    for (int i = 0; i < 500 && !race_entered; i++) sleep_ms(10);
    CHECK(race_entered, "the completion ran");
    thrum_player_free(player);
    CHECK(race_left, "thrum_player_free returned while the completion still ran");
    int calls = race_calls;
    sleep_ms(200);
    CHECK(race_calls == calls && calls == 1, "completion calls %d, then %d after free", calls, race_calls);
    thrum_engine_close(engine);
    thrum_pattern_free(pattern);
}

/* Device loss: two looping players on a private PulseAudio server, which is killed (SIGKILL, pid
 * `server`) mid-play. Every completion carries 69 and a message; thrum_engine_finish returns 69. */
typedef struct {
    volatile int calls, status;
    char message[256];
} outcome;
static void record_outcome(void *context, int status, const char *message) {
    outcome *result = context;
    result->status = status;
    snprintf(result->message, sizeof result->message, "%s", message ? message : "");
    result->calls += 1;
}

static void test_device_loss(const char *device, pid_t server) {
    char *error = NULL;
    thrum_device_options options;
    thrum_device_options_init(&options);
    options.device = device;
    thrum_engine *engine = thrum_engine_open(&options, &error);
    CHECK(engine && !error, "engine_open %s: %s", device, error ? error : "");
    if (!engine) return;
    thrum_pattern *pattern = thrum_pattern_load("heartbeat", &error);
    outcome results[2];
    memset(results, 0, sizeof results);
    thrum_player *players[2];
    for (int i = 0; i < 2; i++) {
        players[i] = thrum_player_new(engine, pattern, NULL, &error);
        CHECK(players[i] && !error, "player_new: %s", error ? error : "");
        if (!players[i]) return;
        thrum_player_set_completion(players[i], record_outcome, &results[i]);
        CHECK(thrum_player_set_loop(players[i], 1, 0, 0, &error) == 0, "loop forever");
        CHECK(thrum_player_start(players[i], 0, &error) == 0, "start: %s", error ? error : "");
    }
    sleep_ms(400);
    CHECK(kill(server, SIGKILL) == 0, "kill the server %d", (int)server);
    for (int i = 0; i < 500 && (results[0].calls == 0 || results[1].calls == 0); i++) sleep_ms(10);
    for (int i = 0; i < 2; i++) {
        CHECK(results[i].calls == 1 && results[i].status == THRUM_STATUS_UNAVAILABLE && results[i].message[0],
              "player %d after device loss: %d calls, status %d, '%s'", i, results[i].calls, results[i].status,
              results[i].message);
    }
    CHECK(thrum_engine_finish(engine, &error) == THRUM_STATUS_UNAVAILABLE && error, "finish after device loss: %s",
          error ? error : "(no error)");
    printf("thrum_test: device loss: %s\n", error ? error : "");
    thrum_free(error);
    thrum_engine_close(engine);
    for (int i = 0; i < 2; i++) thrum_player_free(players[i]);
    thrum_pattern_free(pattern);
}

/* The timing test's pattern: transients at these pattern times, which the onset log must report. */
#define TIMED_EVENTS 4
static const double event_times[TIMED_EVENTS] = {0, 0.125, 0.3, 0.5};

/* Plays the timed pattern with --onset-log, started at a CLOCK_MONOTONIC time, and checks the log: one line
 * per event, its pattern times those of the file, frames spaced as the file's times at 48 kHz, DAC times
 * increasing, and the first onset leaving the DAC within one period (1024 frames, 21.3 ms) of the asked
 * time. */
static void test_timing(const char *device, const char *work) {
    char *error = NULL;
    char path[4096], log_path[4096], json[1024];
    int length = snprintf(json, sizeof json, "{\"Version\":1,\"Pattern\":[");
    for (int i = 0; i < TIMED_EVENTS; i++) {
        length += snprintf(json + length, sizeof json - (size_t)length,
                           "%s{\"Event\":{\"EventType\":\"HapticTransient\",\"Time\":%.3f}}", i ? "," : "", event_times[i]);
    }
    snprintf(json + length, sizeof json - (size_t)length, "]}\n");
    snprintf(path, sizeof path, "%s/timed.ahap", work);
    write_file(path, json);
    snprintf(log_path, sizeof log_path, "%s/onsets.jsonl", work);
    thrum_engine_settings settings;
    thrum_engine_settings_init(&settings);
    settings.channels = "L,R,H";
    settings.sample_rate = 48000;
    thrum_device_options options;
    thrum_device_options_init(&options);
    options.device = device;
    options.period = 1024;
    options.onset_log = log_path;
    options.engine = &settings;
    thrum_engine *engine = thrum_engine_open(&options, &error);
    CHECK(engine && !error, "engine_open with --onset-log: %s", error ? error : "");
    if (!engine) return;
    thrum_pattern *pattern = thrum_pattern_load(path, &error);
    thrum_player *player = thrum_player_new(engine, pattern, NULL, &error);
    CHECK(player && !error, "player_new: %s", error ? error : "");
    volatile int ended = 0;
    thrum_player_set_completion(player, completed, (void *)&ended);
    CHECK(thrum_player_start_at_monotonic(player, thrum_monotonic_now() - 1, &error) == THRUM_STATUS_USAGE &&
              error && strstr(error, "is in the past"),
          "a start in the past: %s", error ? error : "(accepted)");
    thrum_free(error);
    double asked = thrum_monotonic_now() + 0.8;
    CHECK(thrum_player_start_at_monotonic(player, asked, &error) == 0, "start at: %s", error ? error : "");
    for (int i = 0; i < 500 && ended == 0; i++) sleep_ms(10);
    CHECK(ended == 1, "the timed pattern did not end");
    CHECK(thrum_engine_output_time(engine, thrum_engine_time(engine)) > asked, "output time of now");
    CHECK(thrum_engine_finish(engine, &error) == 0, "finish: %s", error ? error : "");
    CHECK(thrum_engine_finish(engine, &error) == 0, "a second finish");

    FILE *log = fopen(log_path, "r");
    CHECK(log != NULL, "no onset log at %s", log_path);
    char line[1024];
    int count = 0;
    unsigned long long frames[TIMED_EVENTS] = {0};
    double dac[TIMED_EVENTS] = {0};
    while (log && fgets(line, sizeof line, log)) {
        double pattern_time = -1, engine_time = -1, dac_time = -1;
        unsigned long long frame = 0;
        int fields = sscanf(line, "{\"pattern_time\":%lf,\"stream_frame\":%llu,\"engine_time\":%lf,\"dac_time\":%lf",
                            &pattern_time, &frame, &engine_time, &dac_time);
        CHECK(fields == 4, "line %d of the onset log: %s", count + 1, line);
        if (count < TIMED_EVENTS && fields == 4) {
            CHECK(fabs(pattern_time - event_times[count]) < 1e-9, "onset %d at pattern time %f, the file says %f", count,
                  pattern_time, event_times[count]);
            CHECK(fabs(engine_time * 48000 - (double)frame) < 1e-6, "engine time %f of frame %llu", engine_time, frame);
            frames[count] = frame;
            dac[count] = dac_time;
        }
        count++;
    }
    if (log) fclose(log);
    CHECK(count == TIMED_EVENTS, "%d lines in the onset log, %d events in the pattern", count, TIMED_EVENTS);
    for (int i = 1; i < TIMED_EVENTS && count == TIMED_EVENTS; i++) {
        long long spacing = (long long)(frames[i] - frames[0]);
        long long expected = llround(event_times[i] * 48000);
        CHECK(frames[i] > frames[i - 1] && llabs(spacing - expected) <= 1, "onset %d %lld frames after the first, not %lld",
              i, spacing, expected);
        CHECK(dac[i] > dac[i - 1], "DAC times %f then %f", dac[i - 1], dac[i]);
    }
    if (count == TIMED_EVENTS) {
        printf("thrum_test: the start asked for CLOCK_MONOTONIC %.6f left the DAC at %.6f (%+.3f ms)\n", asked, dac[0],
               (dac[0] - asked) * 1000);
        CHECK(fabs(dac[0] - asked) < 1024.0 / 48000, "the start landed %.3f ms from the asked time", (dac[0] - asked) * 1000);
    }
    thrum_engine_close(engine);
    thrum_player_free(player);
    thrum_pattern_free(pattern);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: thrum_test VERSION ONCE.wav OPTIONS.wav WORKDIR\n");
        return 64;
    }
    CHECK(strcmp(thrum_version(), argv[1]) == 0, "version %s, expected %s", thrum_version(), argv[1]);
    test_render(argv[2], argv[3]);
    test_errors(argv[4]);
    test_files(argv[4], argv[2]);
    test_import(argv[4], argv[2]);
    test_devices();
    const char *device = getenv("THRUM_TEST_DEVICE");
    const char *server = getenv("THRUM_TEST_KILL_SERVER"); /* the pid of a private sound server to kill */
    if (device && *device && server && *server) {
        test_device_loss(device, (pid_t)atol(server));
        printf("thrum_test (device loss): %s (%d failures)\n", failures ? "FAILED" : "passed", failures);
        return failures ? 1 : 0;
    }
    if (device && *device) {
        test_live(device);
        test_free_race(device);
        test_timing(device, argv[4]);
    } else {
        printf("thrum_test: live playback skipped (THRUM_TEST_DEVICE is not set)\n");
    }
    printf("thrum_test: %s (%d failures)\n", failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
