/*
 * simcard: a simulated sound card for Thrum's tests, as an ALSA I/O plugin (ioplug).
 *
 * It accepts exactly what its ALSA configuration block allows (formats, channels, rates, access types,
 * period size limits and steps, period counts), consumes samples on its own CLOCK_MONOTONIC clock
 * (a timerfd is its poll descriptor, waking at each period boundary), reports underruns as -EPIPE and
 * counts them, appends what it plays to a capture file, and injects faults on request (vanish,
 * suspend, a clock running fast or slow). Opened for capture, it returns what a playback card played
 * through a simulated actuator and sensor (simcard_loop.c): the loop Thrum's measurements are tested on.
 * See Tools/dev/simcard/README.md for the configuration keys.
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
    /* The loop (simcard_loop.c): a playback card keeps what its DAC played on its clock's grid; a capture
       card returns one channel of it through an actuator model, on its own clock. */
    int loop;                              /* playback: keep the DAC grid for capture cards (input keys imply it) */
    char *input_from;                      /* capture: the loop id of the playback card it listens to (own id) */
    char *loop_id;                         /* the id the playback card registers under (its PCM's id) */
    unsigned int input_channels;           /* capture channels; 0 = as `channels` */
    unsigned int input_source;             /* playback channel (1-based) through the actuator; 0 = silence */
    unsigned int input_direct;             /* playback channel (1-based) passed straight to capture channel 2; 0 = none */
    int actuator;                          /* SIMCARD_ACTUATOR_* */
    double actuator_f0, actuator_q;        /* Hz; the resonance */
    double input_gain;                     /* linear */
    double input_delay;                    /* frames (fractional) from the DAC to the ADC, ≥ SIMCARD_MIN_DELAY */
    double input_noise_dbfs;               /* RMS of white Gaussian noise; −∞ (default) = none */
    double input_distortion2, input_distortion3; /* y = u + d2·u² + d3·u³ after the gain */
    uint64_t input_seed;
    uint64_t input_overrun_after;          /* capture frames before one injected overrun; 0 = never */
    char *input_stats_path;                /* key=value lines for the capture stream */
} simcard_config_t;

enum { SIMCARD_ACTUATOR_NONE = 0, SIMCARD_ACTUATOR_BANDPASS = 1, SIMCARD_ACTUATOR_HIGHPASS = 2 };
/* Half the length of the interpolation kernel that places the DAC's samples at the ADC's instants; the
   loop's delay must leave the kernel's later half already played. */
#define SIMCARD_KERNEL_HALF 16
#define SIMCARD_MIN_DELAY (SIMCARD_KERNEL_HALF + 4)
/* Frames of the DAC grid kept (a power of two): what a capture stream may lag behind the playback. */
#define SIMCARD_GRID_FRAMES (1u << 18)

typedef struct simcard_loop_state simcard_loop_state_t;

/* One open stream of the card (playback or capture). */
typedef struct {
    snd_pcm_ioplug_t io;
    snd_pcm_ioplug_callback_t callbacks;
    simcard_config_t config;
    pthread_mutex_t lock;        /* guards everything below; taken inside every callback */
    int timer_fd;                /* the poll descriptor: readable at each period boundary */
    int capture_fd;              /* opened (append) at the first start; -1 without capture */
    int timing_fd;               /* opened (append) at the first start; -1 without timing */
    int configured;              /* hw_params succeeded at least once (plain probes leave no stats) */
    unsigned int frame_bytes;
    unsigned char *ring;         /* buffer_size frames, interleaved, in the device format */
    unsigned __int128 clock_rate; /* rate × (10^6 + ppm): frames per 10^15 ns */
    uint64_t start_ns, start_frame; /* the clock: consumed = start_frame + (now − start_ns) × rate */
    uint64_t consumed;           /* frames played (or captured) since prepare: the hardware pointer, unwrapped */
    uint64_t captured;           /* playback: frames appended to the capture file; capture: frames made; since prepare */
    uint64_t played;             /* frames played (or captured) since open, across prepares */
    uint64_t flushed;            /* playback: frames handed to the capture file, the timing log and the loop; since
                                    prepare (behind `consumed` between a pointer call and the next flush) */
    snd_pcm_uframes_t avail_min, boundary;
    snd_pcm_state_t state_before_suspend;
    uint64_t underruns, suspends, resumes, starts, wakeups;
    int vanished, suspended_once;
    int overrun_injected;        /* capture: input_overrun_after happened */
    int closed;                  /* snd_pcm_close reached the plugin: the last stats written say so */
    simcard_loop_state_t *loop;  /* the DAC grid (playback) or the actuator model (capture); NULL without */
} simcard_t;

/* The card's clock (simcard.c). */
uint64_t simcard_now_ns(void);
uint64_t simcard_frames_at(const simcard_t *sim, uint64_t ns);
uint64_t simcard_time_of(const simcard_t *sim, uint64_t frame);
/* Moves a stream's clock forward to now (simcard.c / simcard_loop.c); the stream's lock is held. */
void simcard_advance(simcard_t *sim, int stopping);
/* Playback: hands the frames played since the last flush to the capture file, the timing log and the loop
   (the stream's lock is held). Kept out of the pointer callback, after which ALSA takes the status timestamp:
   its file writes and conversions there made every timestamp late by their length, which a loaded machine
   stretched to tens of microseconds. Called before the played frames can be overwritten or re-timed. */
void simcard_flush_played(simcard_t *sim);

/* The loop (simcard_loop.c). */
int simcard_loop_open(simcard_t *sim, const char *id);     /* at open; 0 or a negative errno */
void simcard_loop_close(simcard_t *sim);                  /* at close, before the stream is freed */
void simcard_loop_start(simcard_t *sim);                  /* playback: aligns start_ns to the DAC grid */
void simcard_loop_played(simcard_t *sim, uint64_t from, uint64_t to); /* playback: frames from..to left the DAC */
int simcard_loop_hw_params(simcard_t *sim);               /* capture: sizes the model's buffers */
/* Capture: the card's clock up to `target` frames since prepare: samples the loop into the ring. */
void simcard_loop_capture(simcard_t *sim, uint64_t target);
void simcard_loop_write_stats(const simcard_t *sim);
/* Sample conversion between the device formats and doubles in −1…1. */
double simcard_read_sample(const unsigned char *p, snd_pcm_format_t format);
void simcard_write_sample(unsigned char *p, snd_pcm_format_t format, double value);

/* Parses the plugin's configuration block. Returns 0 or a negative errno (after SNDERR naming the key). */
int simcard_parse_config(snd_config_t *conf, simcard_config_t *config);
/* Sets the ioplug constraints (access, formats, channels, rates, period sizes and counts) of a stream. */
int simcard_set_constraints(simcard_t *sim);
/* Frees the strings held by a configuration. */
void simcard_free_config(simcard_config_t *config);

#endif
