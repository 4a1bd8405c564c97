/*
 * simcard: a simulated sound card for Thrum's tests, as an ALSA I/O plugin (ioplug).
 *
 * It accepts exactly what its ALSA configuration block allows (formats, channels, rates, access types,
 * period size limits and steps, period counts), consumes samples on its own CLOCK_MONOTONIC clock
 * (a timerfd is its poll descriptor, waking at each period boundary), reports underruns as -EPIPE and
 * counts them, appends what it plays to a capture file, and injects faults on request (vanish,
 * suspend, a clock running fast or slow). See Tools/simcard/README.md for the configuration keys.
 */
#ifndef THRUM_SIMCARD_H
#define THRUM_SIMCARD_H

#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <pthread.h>
#include <stdint.h>

#define SIMCARD_MAX_LIST 32

/* What the card accepts and which faults it injects: read once from the configuration block. */
typedef struct {
    unsigned int formats[SIMCARD_MAX_LIST];
    unsigned int format_count;
    unsigned int accesses[4];
    unsigned int access_count;
    unsigned int channels_min, channels_max;
    unsigned int rates[SIMCARD_MAX_LIST];
    unsigned int rate_count; /* 0: the range rate_min…rate_max */
    unsigned int rate_min, rate_max;
    unsigned int period_min, period_max;   /* frames */
    unsigned int period_step;              /* frames; period sizes are multiples of it */
    unsigned int period_bytes_step;        /* bytes (HDA: 128); 0 = none */
    unsigned int periods_min, periods_max;
    long ppm;                              /* clock error: +200 runs 200 parts per million fast */
    uint64_t vanish_after;                 /* frames played before the card disappears; 0 = never */
    int vanish_quietly;                    /* vanish without waking pollers (no POLLERR) */
    uint64_t suspend_after;                /* frames played before one suspend; 0 = never */
    int resumable;                         /* snd_pcm_resume works (else the application must prepare) */
    int clear_wakeup_in_descriptors;       /* like pipewire-alsa < 0.3.85: wake-up cleared only there */
    int wakeup_never_clears;               /* a plugin bug: once readable, the descriptor stays readable */
    char *capture_path;                    /* raw interleaved frames in the device format, appended */
    char *stats_path;                      /* key=value lines, rewritten at each stop, xrun and close */
    char *timing_path;                     /* when the card's clock played each run of frames, appended */
} simcard_config_t;

/* Parses the plugin's configuration block. Returns 0 or a negative errno (after SNDERR naming the key). */
int simcard_parse_config(snd_config_t *conf, simcard_config_t *config);
/* Frees the strings held by a configuration. */
void simcard_free_config(simcard_config_t *config);

#endif
