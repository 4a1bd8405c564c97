/*
 * thrum.h: libthrum, the C ABI of Thrum (Core Haptics patterns on Linux: AHAP and .haptic files played
 * through ALSA, or rendered to samples). C99 and C++; link with `pkg-config --cflags --libs thrum`.
 *
 * Conventions (every call follows them; docs/c-api.md has examples):
 *
 * - Handles are opaque pointers (thrum_pattern, thrum_renderer, thrum_diagnostics, thrum_engine,
 *   thrum_player), made by one call and freed by its matching *_free / *_close. Passing NULL to a free
 *   call does nothing; passing a freed handle to anything is undefined.
 * - Errors: a call that can fail takes `char **error` last. On failure it returns NULL, -1 or a nonzero
 *   status and, when `error` is not NULL, stores a one-line message there: the same text the thrum
 *   command prints after "thrum COMMAND: " for the same mistake. The caller frees it with thrum_free().
 *   On success *error is set to NULL. Nothing aborts the process on bad input; nothing is printed.
 * - Status codes are the command's exit codes (sysexits), see THRUM_STATUS_* below. A call that returns
 *   NULL or -1 on failure reports its status through thrum_last_status() (per thread).
 * - Strings are NUL-terminated UTF-8 (paths: any bytes, passed to the file system unchanged). Strings a
 *   call returns as `const char *` belong to the handle they came from and live until it is freed;
 *   strings returned as `char *` (through an out parameter) belong to the caller: free them with
 *   thrum_free().
 * - Options: calls that mirror a thrum command take a small options struct (thrum_render_options, ...):
 *   fill it with its _init function, set the fields you want, pass its address (NULL: every default). Each
 *   field is the command's option of that name (`loop_end` is `--loop-end`), with its meaning, default,
 *   range and messages. What _init leaves means "not given": integers -1, doubles NaN, pointers NULL,
 *   flags 0. The first field, `struct_size`, is the struct's size as your program was compiled (set by
 *   _init): the library reads only the fields that fit in it, so a program built against an older
 *   thrum.h keeps working when a later library adds fields at the end; a size larger than the library
 *   knows is refused (THRUM_STATUS_USAGE: update libthrum). Lists are a pointer and a count (NULL, 0: none).
 * - Times: seconds. Engine times (`at`) are on the engine clock (thrum_engine_time); 0 means now.
 *   Wall-clock times are CLOCK_MONOTONIC seconds (thrum_monotonic_now, clock_gettime), as `thrum play
 *   --start-at` and the onset log's "dac_time" use.
 * - Thread safety: thrum_pattern and thrum_diagnostics are immutable and may be shared between threads;
 *   thrum_engine and thrum_player calls may be made from any thread at once; a thrum_renderer is used by
 *   one thread at a time. Free a handle only when no other thread uses it. No call may be made from a
 *   real-time audio callback (they allocate and take locks).
 */
#ifndef THRUM_H
#define THRUM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes: 0 or the exit code the thrum command ends with for the same failure. */
#define THRUM_STATUS_OK 0
#define THRUM_STATUS_USAGE 64       /* a wrong argument or option */
#define THRUM_STATUS_DATA 65        /* a bad pattern, sound, profile or setting */
#define THRUM_STATUS_NO_INPUT 66    /* a file is missing or unreadable */
#define THRUM_STATUS_UNAVAILABLE 69 /* the playback device is missing or refuses the setup */
#define THRUM_STATUS_SOFTWARE 70    /* an internal error (a bug in Thrum) */
#define THRUM_STATUS_CANT_CREATE 73 /* an output file cannot be created (its folder is missing, ...) */
#define THRUM_STATUS_IO 74          /* a file cannot be written */

typedef struct thrum_pattern thrum_pattern;
typedef struct thrum_diagnostics thrum_diagnostics;
typedef struct thrum_renderer thrum_renderer;
typedef struct thrum_engine thrum_engine;
typedef struct thrum_player thrum_player;

/* ---- Version and memory ---------------------------------------------------------------------- */

/* Thrum's version, "MAJOR.MINOR.PATCH" (as `thrum --version`). Static storage: never free it.
 * Thread-safe. */
const char *thrum_version(void);

/* Frees memory a call handed to the caller (error messages, warnings). NULL does nothing. Thread-safe. */
void thrum_free(void *memory);

/* The status of the last call made on this thread that takes `char **error`: 0 when it succeeded, else the
 * THRUM_STATUS_* code of its failure (also when that call was given a NULL `error`). For the calls that
 * return NULL or -1 on failure (thrum_pattern_load, thrum_render, thrum_engine_open, ...), which have no
 * status of their own. Thread-local: calls on other threads do not change it; 0 before any call.
 * Thread-safe. */
int thrum_last_status(void);

/* ---- Patterns -------------------------------------------------------------------------------- */

/* Loads a pattern as `thrum render PATH_OR_NAME` does: an AHAP file, a .haptic file (by extension), a
 * bundled pattern by name ("heartbeat"; see `thrum list`), or a sound file (WAV, FLAC, ...) played as it
 * is; "NAME@ACTUATOR" plays it on one actuator. Audio files of a bundled pattern are found beside it.
 * Returns a new pattern (free with thrum_pattern_free), or NULL and *error (66 missing, 65 bad).
 * Thread-safe. */
thrum_pattern *thrum_pattern_load(const char *path_or_name, char **error);

/* Parses `length` bytes of AHAP JSON (named "<json>" in messages; audio paths resolve against the
 * resource folders only). Returns a new pattern, or NULL and *error. Thread-safe. */
thrum_pattern *thrum_pattern_from_json(const char *json, size_t length, char **error);

/* Parses `length` bytes of a .haptic file (Meta Haptics Studio / Lofelt v1; named "<haptic>"), played
 * with the meaning `thrum play file.haptic` gives it. Returns a new pattern, or NULL and *error.
 * Thread-safe. */
thrum_pattern *thrum_pattern_from_haptic(const char *json, size_t length, char **error);

/* The pattern's duration in seconds (release tails excluded), each AudioCustom file counted at its length
 * as `thrum info` counts it (a WAV loaded as a pattern lasts as long as the sound; a file not found next to
 * the pattern counts 0); -1 for NULL. Reads the audio files' headers. Thread-safe. */
double thrum_pattern_duration(const thrum_pattern *pattern);

/* Writes the pattern to `path` as AHAP (.ahap) or .haptic (.haptic: converted as `thrum convert` does),
 * through a temporary file and a rename (a failure leaves nothing). When `warnings` is not NULL it
 * receives the conversion's losses, one line each (or NULL when there are none; free with thrum_free).
 * Returns 0, or a status and *error. Thread-safe. */
int thrum_pattern_write(const thrum_pattern *pattern, const char *path, char **warnings, char **error);

/* Frees a pattern. Players made from it keep their own copy. */
void thrum_pattern_free(thrum_pattern *pattern);

/* ---- Engine settings ------------------------------------------------------------------------- */

/* The settings of an engine that render, check and live engines share (the options of `thrum render` and
 * `thrum play` of the same names). Fill with thrum_engine_settings_init. */
typedef struct thrum_engine_settings {
    size_t struct_size;           /* sizeof(thrum_engine_settings) */
    int64_t sample_rate;          /* Hz, 1000 ... 768000; -1: 48000 (live: the device's nearest to 48000) */
    const char *channels;         /* channel map, e.g. "L,R,H", "L+H,R+H", "M,H,T"; NULL: the call's default */
    const char *layout;           /* a known device's channels instead of `channels` ("dualsense"); NULL: none */
    const char *const *profiles;  /* actuator profiles in order: "lra", a JSON or .acf file, "NAME=PROFILE" */
    size_t profile_count;
    int64_t voices;               /* voices sounding at once, 1 ... 1024; -1: 64 */
    const char *const *resources; /* more folders where audio files are found */
    size_t resource_count;
    int allow_any_path;           /* nonzero: absolute audio paths and paths outside the resource folders */
    int64_t max_audio_bytes;      /* largest audio file, bytes; -1: 4200000 */
    double max_audio_seconds;     /* longest audio file, seconds; NaN: 23 */
    int64_t max_audio_memory;     /* decoded audio of all files together, bytes; -1: 92160000 */
    int haptics_from_audio;       /* nonzero: also derive haptics from the audio played, live */
    const char *preset;           /* with haptics_from_audio: general, ui, impacts, footsteps or music; NULL: general */
} thrum_engine_settings;

/* Fills `settings` with struct_size and "not given" everywhere. Thread-safe. */
void thrum_engine_settings_init(thrum_engine_settings *settings);

/* ---- Check ----------------------------------------------------------------------------------- */

/* The options of thrum_check (`thrum check`'s). Fill with thrum_check_options_init. */
typedef struct thrum_check_options {
    size_t struct_size;                   /* sizeof(thrum_check_options) */
    int strict;                           /* nonzero: every warning is an error (.haptic: the spec's strict mode) */
    const thrum_engine_settings *engine;  /* what play would use (rate, voices, profiles, resources, audio limits); NULL: defaults */
    int64_t max_pattern_bytes;            /* largest pattern file read; -1: 4000000 */
    int64_t max_events;                   /* most events and parameter steps; -1: 100000 */
    int64_t max_curve_points;             /* most curve control points; -1: 100000 */
} thrum_check_options;

void thrum_check_options_init(thrum_check_options *options);

/* Checks the file at `path` (or a bundled pattern by name) as `thrum check PATH` does and stores every
 * finding in *diagnostics (never NULL on success; free with thrum_diagnostics_free). A file with errors
 * is a successful check: count them with thrum_diagnostics_errors. `options` NULL: the defaults. Returns 0,
 * or a status and *error (66 the file is missing or unreadable, 64 a bad option). Thread-safe. */
int thrum_check(const char *path, const thrum_check_options *options, thrum_diagnostics **diagnostics, char **error);

/* The number of findings, and of those that are errors (0 for NULL). */
size_t thrum_diagnostics_count(const thrum_diagnostics *diagnostics);
size_t thrum_diagnostics_errors(const thrum_diagnostics *diagnostics);

/* Finding `index` (0 ... count-1; NULL or 0 out of range). The strings live as long as `diagnostics`.
 *   file:     the file name as given ("<stdin>" for standard input)
 *   line, column: 1-based place in the file; 0 when unknown
 *   severity: "error" or "warning"
 *   message:  what is wrong: "PATH: MESSAGE; SUGGESTION [CHHapticError.NAME]"
 *   text:     the whole line `thrum check` prints: "FILE:LINE:COLUMN: SEVERITY: MESSAGE" */
const char *thrum_diagnostic_file(const thrum_diagnostics *diagnostics, size_t index);
int32_t thrum_diagnostic_line(const thrum_diagnostics *diagnostics, size_t index);
int32_t thrum_diagnostic_column(const thrum_diagnostics *diagnostics, size_t index);
const char *thrum_diagnostic_severity(const thrum_diagnostics *diagnostics, size_t index);
const char *thrum_diagnostic_message(const thrum_diagnostics *diagnostics, size_t index);
const char *thrum_diagnostic_text(const thrum_diagnostics *diagnostics, size_t index);

/* Frees the findings and their strings. */
void thrum_diagnostics_free(thrum_diagnostics *diagnostics);

/* ---- Convert and analyze --------------------------------------------------------------------- */

/* The options of thrum_convert (`thrum convert`'s). Fill with thrum_convert_options_init. */
typedef struct thrum_convert_options {
    size_t struct_size;  /* sizeof(thrum_convert_options) */
    const char *to;      /* "ahap", "haptic" or "android", whatever the output's extension; NULL: from it */
    int split;           /* .haptic -> AHAP: OUT_continuous.ahap and OUT_transients.ahap */
    int meta_compatible; /* .haptic -> AHAP: what Meta Haptics Studio writes */
    int64_t resolution;  /* Android waveform step, ms, 1 ... 1000; -1: 10 */
    int strict;          /* read .haptic in strict mode and refuse any loss */
} thrum_convert_options;

void thrum_convert_options_init(thrum_convert_options *options);

/* Converts as `thrum convert -o OUTPUT INPUTS...` does: .haptic <-> AHAP, AHAP -> Android JSON; inputs may
 * be bundled patterns by name. When `warnings` is not NULL it receives the losses, one line each, or NULL.
 * Returns 0, or a status and *error (nothing is written then). Thread-safe (distinct outputs). */
int thrum_convert(const char *const *inputs, size_t input_count, const char *output,
                  const thrum_convert_options *options, char **warnings, char **error);

/* The options of thrum_analyze (`thrum analyze`'s). Fill with thrum_analyze_options_init. The value fields
 * win over the settings file, the file over the preset. */
typedef struct thrum_analyze_options {
    size_t struct_size;            /* sizeof(thrum_analyze_options) */
    const char *preset;            /* general, ui, impacts, footsteps or music; NULL: general */
    const char *settings;          /* a settings JSON file, or a Haptics Studio project (.hasp) with `clip` */
    const char *clip;              /* with a project: the clip whose settings to use */
    double breakpoints_per_second; /* most breakpoints per second in each envelope, 1 ... 500 */
    double tolerance;              /* largest error of the breakpoints, 0.001 ... 0.5 */
    double attack;                 /* envelope attack time constant, s, 0 ... 0.1 */
    double hold;                   /* how long the envelope holds a peak, s, 0 ... 0.2 */
    double release;                /* envelope release time constant, s, 0.001 ... 2 */
    double sensitivity;            /* onset sensitivity 0 ... 1 (0: no transients) */
    double gain;                   /* dB after normalising, -40 ... 40 */
    double band_low, band_high;    /* the band the envelope follows, Hz (both or neither) */
    int no_normalize;              /* nonzero: a full-scale sine maps to intensity 1 */
    int split;                     /* AHAP: the transients in OUT_transients.ahap */
} thrum_analyze_options;

void thrum_analyze_options_init(thrum_analyze_options *options);

/* Analyses a sound as `thrum analyze -o OUTPUT SOUND` does: haptics written as .ahap or .haptic. When
 * `warnings` is not NULL it receives the notes on the settings and what the conversion to AHAP changed, one
 * line each ("note: ...", "warning: ..."), or NULL. Returns 0, or a status and *error. Thread-safe
 * (distinct outputs). */
int thrum_analyze(const char *sound, const char *output, const thrum_analyze_options *options, char **warnings,
                  char **error);

/* ---- Import ---------------------------------------------------------------------------------- */

/* The options of thrum_import (`thrum import`'s). Fill with thrum_import_options_init. */
typedef struct thrum_import_options {
    size_t struct_size; /* sizeof(thrum_import_options) */
    const char *format; /* "haptic" (default: the designer's .haptic as it is) or "ahap" */
    int split;          /* with "ahap": NAME_continuous.ahap and NAME_transients.ahap */
} thrum_import_options;

void thrum_import_options_init(thrum_import_options *options);

/* Writes each clip of a Haptics Studio project (.hasp) into `folder` (made if missing) as `thrum import
 * PROJECT -o FOLDER` does: NAME.haptic or NAME.ahap, and the clip's audio file beside it (a clip without
 * audio is written alone). A clip that cannot be written is named and the others are written; each clip's
 * files appear together or not at all. `written` (when not NULL) receives the files written, one path a
 * line, or NULL; `warnings` the notes on the project and, for each clip not written, why (a line each).
 * Returns 0 when every clip was written; else the status of the first clip that failed (65 its haptic has
 * errors, 66 its audio file is missing, 74 cannot write) with *error naming the clips not written, or a
 * status and *error when nothing could be imported (64, 65 not a project, 66 missing, 74). Thread-safe
 * (distinct folders). */
int thrum_import(const char *project, const char *folder, const thrum_import_options *options, char **written,
                 char **warnings, char **error);

/* ---- Offline render -------------------------------------------------------------------------- */

/* The channels per frame of a channel map ("L,R,H" = 3, "M+H" = 1, ...), or -1 and *error. */
int32_t thrum_channel_count(const char *channels, char **error);

/* Renders the pattern once, as `thrum render PATTERN --sample-rate SAMPLE_RATE --channels CHANNELS
 * --format float` does (channels NULL: "L,R,H"), sample for sample, into `interleaved` (frames x channels
 * floats). Writes at most `max_frames` frames and returns the number written; with a NULL buffer it
 * writes nothing and returns the render's whole length in frames (a render is at most 600 s, as the
 * command's). Returns -1 and *error on failure. Each call renders from the start. Thread-safe (distinct
 * buffers). */
int64_t thrum_render(const thrum_pattern *pattern, double sample_rate, const char *channels, float *interleaved,
                     int64_t max_frames, char **error);

/* The options of a render (`thrum render`'s). Fill with thrum_render_options_init. */
typedef struct thrum_render_options {
    size_t struct_size;                  /* sizeof(thrum_render_options) */
    const thrum_engine_settings *engine; /* rate, channels (default "L,R,H"), actuators, ...; NULL: defaults */
    int64_t loops;                       /* play N times in all, 1 ... 1000000, then the release tail */
    int loop;                            /* nonzero: loop forever (needs `duration`) */
    double loop_end;                     /* loop point in pattern seconds (with loops or loop); NaN: the end */
    double rate;                         /* 0.01 ... 100 (2: twice as fast, pitch unchanged); NaN: 1 */
    double seek;                         /* start this many seconds into the pattern */
    double duration;                     /* exactly this many seconds; NaN: to the end (at most 600 s) */
} thrum_render_options;

void thrum_render_options_init(thrum_render_options *options);

/* A render with all of `thrum render`'s options (`options` NULL: the defaults), read block by block.
 * Returns a new renderer (free with thrum_renderer_free), or NULL and *error. A renderer is used by one
 * thread at a time. */
thrum_renderer *thrum_renderer_open(const thrum_pattern *pattern, const thrum_render_options *options, char **error);

/* The renderer's channels per frame and sample rate in Hz (-1 for NULL). */
int32_t thrum_renderer_channels(const thrum_renderer *renderer);
double thrum_renderer_sample_rate(const thrum_renderer *renderer);

/* Renders the next frames into `interleaved` (room for `max_frames` frames). Returns the frames written:
 * `max_frames` until the end, fewer at the end, 0 once it is over; -1 and *error on failure. With a NULL
 * buffer it renders the rest, keeps nothing and returns its length in frames. */
int64_t thrum_renderer_read(thrum_renderer *renderer, float *interleaved, int64_t max_frames, char **error);

void thrum_renderer_free(thrum_renderer *renderer);

/* ---- Live engine and players ----------------------------------------------------------------- */

/* The device a live engine plays on (`thrum play`'s options). Fill with thrum_device_options_init. */
typedef struct thrum_device_options {
    size_t struct_size;                  /* sizeof(thrum_device_options) */
    const char *device;                  /* ALSA playback device; NULL: "default" */
    int64_t period;                      /* frames per period, 16 ... 8192; -1: 256 */
    int64_t periods;                     /* periods in the device buffer, 2 ... 64; -1: 4 */
    const char *onset_log;               /* a .jsonl file: every event onset played, one JSON line each, as
                                            `thrum play --onset-log` writes them (docs/timing.md); written
                                            when the engine finishes. NULL: none */
    const thrum_engine_settings *engine; /* rate (without it a rate the device lacks falls back to its nearest),
                                            channels (default "L+H,R+H"), ...; NULL: defaults */
} thrum_device_options;

void thrum_device_options_init(thrum_device_options *options);

/* Opens an ALSA device and starts an engine on it, set up as `thrum play` sets up its device (`options`
 * NULL: the defaults). Returns a new engine (close with thrum_engine_close), or NULL and *error (69 the
 * device is missing or refuses the setup, 73 the onset log cannot be created). Thread-safe. */
thrum_engine *thrum_engine_open(const thrum_device_options *options, char **error);
/* libthrum never calls snd_lib_error_set_handler: alsa-lib's error handler stays what the host process set
 * (alsa-lib's default prints its own "ALSA lib ..." lines on stderr; the failure also comes back in *error). */

/* Seconds on the engine clock (frames the device has been given / rate): the time base of `at`.
 * Its sample rate in Hz and channels per frame. -1 for NULL. Thread-safe. */
double thrum_engine_time(const thrum_engine *engine);
double thrum_engine_sample_rate(const thrum_engine *engine);
int32_t thrum_engine_channels(const thrum_engine *engine);

/* Underruns (xruns) the device has reported since the engine opened: each lost audio because the render
 * thread was late (a loaded machine; try a larger --period). Thread-safe. */
uint64_t thrum_engine_xruns(const thrum_engine *engine);

/* The estimated CLOCK_MONOTONIC time, in seconds, at which the frame of engine time `engine_time` leaves
 * the DAC (from ALSA's status timestamps; docs/timing.md). -1 for NULL, until the device has played its
 * first periods, and once the engine has finished. Thread-safe. */
double thrum_engine_output_time(const thrum_engine *engine, double engine_time);

/* Seconds from now until what the engine renders now leaves the DAC (the device buffer plus the sound
 * server's latency, from ALSA's status timestamps; docs/timing.md): how late a start at 0 is heard. -1 for
 * NULL, until the device has played its first periods, and once the engine has finished. Thread-safe. */
double thrum_engine_latency(const thrum_engine *engine);

/* The playback devices ALSA lists (its name hints), as `thrum devices` shows them: *devices receives one
 * line per device, "NAME\tDEFAULT\tDESCRIPTION\n" (NAME as thrum_device_options.device takes it; DEFAULT 1
 * for the device opened when none is named, else 0; DESCRIPTION ALSA's, tabs and line breaks made spaces,
 * maybe empty), or NULL when ALSA lists none; free it with thrum_free. Returns 0, or a status and *error.
 * Reads ALSA's configuration; thread-safe. */
int thrum_devices(char **devices, char **error);

/* CLOCK_MONOTONIC now, in seconds (clock_gettime(CLOCK_MONOTONIC); Python's time.monotonic() on Linux).
 * Thread-safe; real-time safe. */
double thrum_monotonic_now(void);

/* Stops every player (their completion callbacks run on this thread), lets the device play what it was
 * given, closes it and, with --onset-log, writes the log (every onset the device played; a last line
 * {"lost_onsets":N} when N could not be logged) through a temporary file and a rename. Returns 0, or a
 * status and *error (74 the log cannot be written: nothing is left). Only the first call does anything;
 * the engine stays a valid handle for thrum_engine_close, and player calls fail from then on (64 "the engine
 * is closed"; 69 with the device's message when it was lost). Thread-safe. */
int thrum_engine_finish(thrum_engine *engine, char **error);

/* Finishes the engine as thrum_engine_finish does, when that has not been called (an onset log that cannot
 * be written is then lost silently), and frees it. Players made on it stay valid handles whose calls then
 * fail; free them with thrum_player_free. */
void thrum_engine_close(thrum_engine *engine);

/* A player of `pattern` on the engine, on the actuators of `actuator` (a name of the channel map or a
 * group: "leftHandle", "handles", ...; NULL: every actuator). Loads the pattern's audio files. Returns a
 * new player (free with thrum_player_free), or NULL and *error. Thread-safe. */
thrum_player *thrum_player_new(thrum_engine *engine, const thrum_pattern *pattern, const char *actuator,
                               char **error);

/* Transport, at engine time `at` (0: now), frame-exact. start plays a new instance from the start (or
 * from a seek made before); stop ends every instance with a 5 ms fade; pause and resume keep the place.
 * Returns 0, or a status and *error (e.g. a command queue that is full). thrum_player_start refuses an `at`
 * the engine clock (thrum_engine_time) has already passed: 64 and a message naming how many ms late it is;
 * thrum_player_start_late starts such a player at once instead (late; otherwise as thrum_player_start).
 * Thread-safe. */
int thrum_player_start(thrum_player *player, double at, char **error);
int thrum_player_start_late(thrum_player *player, double at, char **error);
int thrum_player_stop(thrum_player *player, double at, char **error);
int thrum_player_pause(thrum_player *player, double at, char **error);
int thrum_player_resume(thrum_player *player, double at, char **error);

/* Starts a new instance, as thrum_player_start, on the frame that leaves the DAC at CLOCK_MONOTONIC time
 * `monotonic_time` (seconds), as `thrum play --start-at T` does. Blocks the calling thread until the
 * device's DAC clock has settled (8 periods after the engine opened; at most 5 s). Returns 0, or a status
 * and *error: 64 the time has passed or is nearer than the device's buffer can reach (the message names the
 * earliest time that would do), 69 the device reports no playback position. Thread-safe. */
int thrum_player_start_at_monotonic(thrum_player *player, double monotonic_time, char **error);

/* Moves to `offset` seconds into the pattern (now, or at the next start when nothing plays). */
int thrum_player_seek(thrum_player *player, double offset, char **error);

/* Looping: `enabled` nonzero loops back at `loop_end` pattern seconds (0: the pattern's end), `passes`
 * passes in all then the release tail (0: forever; counted from the next start). Takes effect at the
 * render thread's next period. Returns 0, or 64 and *error for a negative end or passes. */
int thrum_player_set_loop(thrum_player *player, int enabled, double loop_end, int32_t passes, char **error);

/* Playback rate 0.01 ... 100 (2: twice as fast; pitch unchanged). Returns 0, or 64 and *error. */
int thrum_player_set_rate(thrum_player *player, double rate, char **error);

/* Silences (nonzero) or unsilences the player's audio and haptics; it keeps its place. */
void thrum_player_set_muted(thrum_player *player, int muted);

/* Pattern seconds into the first playing instance, or -1 when nothing plays. */
double thrum_player_position(const thrum_player *player);

/* Sets a dynamic parameter at engine time `at`. `parameter` is its AHAP name: "HapticIntensityControl",
 * "HapticSharpnessControl", "AudioVolumeControl", "ThrumHapticPanX", ... Intensity and volume multiply,
 * the others add (as in Core Haptics). Returns 0, or a status and *error. */
int thrum_player_send_parameter(thrum_player *player, const char *parameter, float value, double at, char **error);

/* Plays a parameter curve from engine time `at`: linear ramps through `count` points (`times` in seconds
 * from the curve's start, ascending; `values`). Returns 0, or a status and *error (64 for times that do not ascend). */
int thrum_player_schedule_curve(thrum_player *player, const char *parameter, const double *times,
                                const float *values, size_t count, double at, char **error);

/* Called once each time playback of the player ends: status 0 and message NULL when it ended, or a status
 * and a one-line message (valid only during the call) when it failed: the cause's status (69 the device or
 * its server was lost, 65 bad audio data, 70 a bug), as `thrum play` exits with. Called on an internal Thrum thread,
 * never the real-time render thread, or on the thread that calls thrum_engine_close; keep it short and do
 * not free the player from it. */
typedef void (*thrum_completion_fn)(void *context, int status, const char *message);

/* Sets (or with NULL removes) the completion callback; `context` is passed back unchanged. */
void thrum_player_set_completion(thrum_player *player, thrum_completion_fn callback, void *context);

/* Frees the player. When it returns the completion callback is never called again: a call already in
 * flight on another thread is waited for (so thrum_player_free blocks while a callback runs; do not call
 * it, or thrum_player_set_completion of the same player, from that callback). Stop it first to silence it. */
void thrum_player_free(thrum_player *player);

/* ---- Player state ------------------------------------------------------------------------------ */

/* What thrum_player_set_loop last set: returns 1 looping, 0 not, -1 for NULL; `loop_end` (seconds, 0: the
 * pattern's end) and `passes` (0: forever) receive the loop's settings when not NULL. Thread-safe. */
int thrum_player_loop(const thrum_player *player, double *loop_end, int32_t *passes);

/* The playback rate (1 until thrum_player_set_rate), -1 for NULL. Thread-safe. */
double thrum_player_rate(const thrum_player *player);

/* 1 muted, 0 not (thrum_player_set_muted), -1 for NULL. Thread-safe. */
int thrum_player_muted(const thrum_player *player);

/* ---- Onsets as they happen (issue 40; docs/timing.md) --------------------------------------------- */

/* One event onset the device played. The strings are valid only during the handler's call. */
typedef struct thrum_onset {
    size_t struct_size;   /* sizeof(thrum_onset) as this library fills it: read later fields only when it covers them */
    int64_t player;       /* the player's number on its engine (thrum_player_id), from 1; 0 for a freed player */
    const char *label;    /* the player's label (thrum_player_set_label), or NULL */
    const char *pattern;  /* the name of the pattern it plays, or NULL */
    int64_t event;        /* the event's index among its pattern's events, in file order from 0 */
    const char *type;     /* the event's AHAP type: "HapticTransient", "AudioCustom", ... */
    int64_t frame;        /* the stream frame it was rendered on (frames since the engine started) */
    double engine_time;   /* that frame's engine time, seconds */
    double dac_time;      /* estimated CLOCK_MONOTONIC time it left the DAC, seconds; NaN when unknown */
    double pattern_time;  /* the event's time in its pattern, seconds */
    int64_t instance;     /* each start plays a new instance, numbered from 1 on the device */
    int64_t loop;         /* loop passes completed before this onset */
} thrum_onset;

typedef void (*thrum_onset_fn)(void *context, const thrum_onset *onset);

/* Calls `handler` with each onset the device plays from now on (NULL: stops), in order, as they are played:
 * on the engine's onset thread, never the real-time render thread, once its frame has left the DAC by the
 * device's clock, and never after thrum_engine_finish returns; `context` is passed back unchanged. The same onsets as the onset log's; a handler that takes long
 * delays the next ones, and onsets beyond the engine's queue are lost (the log's "lost_onsets"). Do not close
 * the engine from it. Thread-safe. */
void thrum_engine_set_onset_handler(thrum_engine *engine, thrum_onset_fn handler, void *context);

/* The player's number on its engine: 1, 2, ... in the order the engine made its players (the onset log's
 * "player"); -1 for NULL. Thread-safe. */
int64_t thrum_player_id(const thrum_player *player);

/* Labels the player's onsets from now on ("trial-12": thrum_onset.label and the onset log's "label"; NULL:
 * none). The label is copied. Thread-safe. */
void thrum_player_set_label(thrum_player *player, const char *label);

/* ---- Measure an actuator (issue 37; docs/measure.md) --------------------------------------------- */

typedef struct thrum_measurement thrum_measurement;

/* The options of thrum_measure (`thrum measure`'s). Fill with thrum_measure_options_init. */
typedef struct thrum_measure_options {
    size_t struct_size;    /* sizeof(thrum_measure_options) */
    const char *output;    /* ALSA playback device driving the actuator (--device); NULL: "default" */
    const char *input;     /* ALSA capture device the sensor is on (--input); required */
    const char *channels;  /* output channel map (--channels), e.g. "0,H"; NULL: "H" */
    int64_t input_channel; /* the input channel the sensor is on, 1 ... 64; -1: 1 */
    double duration;       /* the sweep's length, seconds, 1 ... 30; NaN: 4 */
    int64_t sample_rate;   /* Hz, 8000 ... 768000; -1: 48000 */
    int64_t period;        /* frames per period of both streams, 16 ... 8192; -1: 256 */
    int64_t periods;       /* periods per buffer, 2 ... 64; -1: 4 */
    int64_t priority;      /* SCHED_FIFO priority of the streams' threads, 0 ... 99 (0: normal); -1: 70 */
    const char *profile;   /* the actuator profile measured with ("lra", a JSON or .acf file); NULL: default */
} thrum_measure_options;

void thrum_measure_options_init(thrum_measure_options *options);

/* Measures the actuator loop as `thrum measure --device OUTPUT --input INPUT` does: plays a sweep and a click
 * train on the haptic channel while capturing the input, and stores the figures in *measurement (free with
 * thrum_measurement_free). Blocks the calling thread for about the sweep's length plus 6 s. Returns 0; 65 and
 * *error (the first warning) when the measurement is doubtful (a silent, clipped or noisy input, ...), and then
 * *measurement still holds the figures (free it too); or another status and *error with *measurement NULL
 * (64 a bad option, 65/66 a bad profile, 69 a device missing or refusing the setup, 74 a capture failure).
 * Thread-safe (distinct devices). */
int thrum_measure(const thrum_measure_options *options, thrum_measurement **measurement, char **error);

/* The response, captured / played, at log-spaced frequencies from 20 Hz to 1 kHz: copies at most `capacity`
 * points into each array that is not NULL (Hz; magnitude in dB; phase in degrees) and returns the number of
 * points (0 for NULL). Call with NULL arrays to learn the count. */
size_t thrum_measurement_response(const thrum_measurement *measurement, double *hz, double *magnitude_db,
                                  double *phase_deg, size_t capacity);

/* The loop's latency from DAC to ADC, seconds, over the click train: median, 99th percentile, jitter (the
 * clicks' standard deviation), the device's part and the actuator's (its group delay). Each out pointer may be
 * NULL; -1 for a NULL measurement. */
void thrum_measurement_latency(const thrum_measurement *measurement, double *median, double *p99, double *jitter,
                               double *device, double *actuator);

/* Each click's latency in seconds: copies at most `capacity` into `latencies` (may be NULL); returns the count. */
size_t thrum_measurement_clicks(const thrum_measurement *measurement, double *latencies, size_t capacity);

/* The fitted resonance f0 in Hz and its Q; the -3 dB band in Hz (out pointers may be NULL); -1 for NULL. */
double thrum_measurement_resonance(const thrum_measurement *measurement);
double thrum_measurement_q(const thrum_measurement *measurement);
void thrum_measurement_band(const thrum_measurement *measurement, double *low_hz, double *high_hz);

/* Distortion at f0 (2nd to 5th harmonics, percent; -1 for NULL), the noise floor (dBFS) and the signal-to-noise
 * ratio (dB; both NaN for NULL), the sample rate measured at (Hz; -1 for NULL). */
double thrum_measurement_thd_percent(const thrum_measurement *measurement);
double thrum_measurement_noise_floor_dbfs(const thrum_measurement *measurement);
double thrum_measurement_snr_db(const thrum_measurement *measurement);
double thrum_measurement_sample_rate(const thrum_measurement *measurement);

/* The resonance model fitted ("bandpass" or "highpass"), NULL for NULL; lives as long as the measurement. */
const char *thrum_measurement_model(const thrum_measurement *measurement);

/* What makes the measurement doubtful: the number of warnings, and warning `index` (NULL out of range). */
size_t thrum_measurement_warning_count(const thrum_measurement *measurement);
const char *thrum_measurement_warning(const thrum_measurement *measurement, size_t index);

/* The whole measurement as the one-line JSON object `thrum measure --json` prints (its keys are a contract:
 * docs/measure.md); lives as long as the measurement. NULL for NULL. */
const char *thrum_measurement_json(const thrum_measurement *measurement);

/* Writes the actuator profile that equalises the measured actuator and records its latency to `path` (a JSON
 * file, named after the file), as `thrum measure --write-profile PATH` does, through a temporary file and a
 * rename. Returns 0, or a status and *error: 65 a doubtful measurement (nothing is written), 73 the folder is
 * missing, 74 the file cannot be written. Thread-safe. */
int thrum_measurement_write_profile(const thrum_measurement *measurement, const char *path, char **error);

void thrum_measurement_free(thrum_measurement *measurement);

#ifdef __cplusplus
}
#endif

#endif /* THRUM_H */
