/* simcard: the loop from a playback card's DAC to a capture card's ADC through a simulated actuator and
 * sensor (see simcard.h and README.md), so that measurements know the true answer.
 *
 * A playback card with `loop yes` (or input keys) keeps what its DAC played on its clock's grid: grid
 * index 0 is the instant of its first start, every later start is moved to the next grid instant, and
 * the grid holds 0 wherever the stream was not running (a DAC outputs silence then). A capture card
 * finds that playback card by its loop id (`input_from`, else its own id) in this process, runs one of
 * its channels through the actuator model on the grid (gain, a resonant band-pass or high-pass biquad,
 * a mild polynomial nonlinearity), and samples the result at its own clock's instants minus the delay:
 * capture frame m, sampled at CLOCK_MONOTONIC time T(m), holds model(T(m) − delay / rate), interpolated
 * between grid samples by a windowed sinc, plus white Gaussian noise, clipped to full scale and quantised.
 * Lock order: a capture stream's lock, then the registry's, then the playback stream's.
 */
#include "simcard.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REGISTRY_SIZE 32
#define KERNEL_PHASES 512

struct simcard_loop_state {
    /* Playback: the DAC grid. */
    int grid_started;
    uint64_t anchor_ns;          /* grid index 0 */
    uint64_t start_grid;         /* the grid index of the current start's first frame */
    uint64_t grid_written;       /* grid indices below it are written (or zero-filled) */
    float *grid;                 /* SIMCARD_GRID_FRAMES × channels */
    unsigned int grid_channels;
    /* Capture: the model on the source's grid, and the samples it gave. */
    uint64_t processed;          /* source grid indices below it went through the model */
    uint64_t source_anchor_ns;   /* the source grid seen when `processed` was counted */
    float *modelled;             /* SIMCARD_GRID_FRAMES model outputs */
    float *direct;               /* SIMCARD_GRID_FRAMES samples of input_direct */
    double b0, b1, b2, a1, a2;   /* the biquad, a0 = 1 */
    double x1, x2, y1, y2;
    uint64_t rng;
    double noise_rms;
};

static struct {
    pthread_mutex_t lock;
    char *ids[REGISTRY_SIZE];
    simcard_t *cards[REGISTRY_SIZE];
} registry = {PTHREAD_MUTEX_INITIALIZER, {0}, {0}};

/* The interpolation kernel: a Blackman-windowed sinc of 2 × SIMCARD_KERNEL_HALF taps, tabulated at
 * KERNEL_PHASES fractional positions (+1 for the end), each set normalised to a sum of 1. */
static float kernel[KERNEL_PHASES + 1][2 * SIMCARD_KERNEL_HALF];
static pthread_once_t kernel_once = PTHREAD_ONCE_INIT;

static void make_kernel(void) {
    const int half = SIMCARD_KERNEL_HALF;
    for (int phase = 0; phase <= KERNEL_PHASES; phase++) {
        double fraction = (double)phase / KERNEL_PHASES, sum = 0;
        double taps[2 * SIMCARD_KERNEL_HALF];
        for (int k = 0; k < 2 * half; k++) {
            double x = (double)(k - half + 1) - fraction; /* tap k weighs grid sample floor(p) − half + 1 + k */
            double sinc = fabs(x) < 1e-12 ? 1 : sin(M_PI * x) / (M_PI * x);
            double w = fabs(x) >= half ? 0 : 0.42 + 0.5 * cos(M_PI * x / half) + 0.08 * cos(2 * M_PI * x / half);
            taps[k] = sinc * w;
            sum += taps[k];
        }
        for (int k = 0; k < 2 * half; k++) kernel[phase][k] = (float)(taps[k] / sum);
    }
}

/* xorshift64*, then Box-Muller: deterministic noise from input_seed. */
static double uniform(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return ((double)((x * 2685821657736338717ull) >> 11) + 0.5) / 9007199254740992.0;
}

static double gaussian(uint64_t *state) {
    double u = uniform(state), v = uniform(state);
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

double simcard_read_sample(const unsigned char *p, snd_pcm_format_t format) {
    int width = snd_pcm_format_width(format), physical = snd_pcm_format_physical_width(format);
    int little = snd_pcm_format_little_endian(format) == 1;
    uint32_t raw = 0;
    int bytes = physical / 8;
    for (int i = 0; i < bytes; i++) raw |= (uint32_t)p[little ? i : bytes - 1 - i] << (8 * i);
    if (format == SND_PCM_FORMAT_FLOAT_LE || format == SND_PCM_FORMAT_FLOAT_BE) {
        float value;
        memcpy(&value, &raw, sizeof value);
        return value;
    }
    int64_t value = (int64_t)(raw & (width == 32 ? 0xffffffffu : ((1u << width) - 1)));
    if (value & ((int64_t)1 << (width - 1))) value -= (int64_t)1 << width;
    return (double)value / (double)((int64_t)1 << (width - 1));
}

void simcard_write_sample(unsigned char *p, snd_pcm_format_t format, double value) {
    int width = snd_pcm_format_width(format), physical = snd_pcm_format_physical_width(format);
    int little = snd_pcm_format_little_endian(format) == 1;
    uint32_t raw;
    if (format == SND_PCM_FORMAT_FLOAT_LE || format == SND_PCM_FORMAT_FLOAT_BE) {
        float f = (float)(value > 1 ? 1 : value < -1 ? -1 : value);
        memcpy(&raw, &f, sizeof raw);
    } else {
        double full = (double)((int64_t)1 << (width - 1));
        double scaled = round(value * full);
        if (scaled > full - 1) scaled = full - 1; /* a clipping ADC */
        if (scaled < -full) scaled = -full;
        raw = (uint32_t)(int32_t)(int64_t)scaled;
        if (width < 32) raw &= (1u << width) - 1;
    }
    int bytes = physical / 8;
    for (int i = 0; i < bytes; i++) p[little ? i : bytes - 1 - i] = (unsigned char)(raw >> (8 * i));
}

/* The source's grid position (fractional frames) at CLOCK_MONOTONIC `ns`. */
static double grid_position(const simcard_t *source, uint64_t ns) {
    int64_t since = (int64_t)(ns - source->loop->anchor_ns);
    return (double)since * (double)source->clock_rate / 1e15;
}

static void set_biquad(simcard_loop_state_t *loop, const simcard_config_t *c, double rate) {
    loop->b0 = 1;
    loop->b1 = loop->b2 = loop->a1 = loop->a2 = 0;
    if (c->actuator == SIMCARD_ACTUATOR_NONE) return;
    /* The bilinear transform of (s/Q) / (s² + s/Q + 1) (band-pass) or s² / (s² + s/Q + 1) (high-pass), s in
       units of ω0, pre-warped at f0: the card's response at f is the analog one at f0·tan(πf/rate)/tan(πf0/rate),
       within 0.15 % of f below 1 kHz at 48 kHz. */
    double k = tan(M_PI * c->actuator_f0 / rate), q = c->actuator_q;
    double norm = 1 / (1 + k / q + k * k);
    if (c->actuator == SIMCARD_ACTUATOR_BANDPASS) {
        loop->b0 = k / q * norm;
        loop->b1 = 0;
        loop->b2 = -loop->b0;
    } else {
        loop->b0 = norm;
        loop->b1 = -2 * norm;
        loop->b2 = norm;
    }
    loop->a1 = 2 * (k * k - 1) * norm;
    loop->a2 = (1 - k / q + k * k) * norm;
}

int simcard_loop_open(simcard_t *sim, const char *id) {
    simcard_config_t *c = &sim->config;
    int capture = sim->io.stream == SND_PCM_STREAM_CAPTURE;
    int has_input = c->input_source || c->input_direct || c->input_from;
    if (!capture && !c->loop && !has_input) return 0;
    if (capture && !has_input) {
        SNDERR("simcard: %s has no capture side (give it input_source N, see Tools/dev/simcard/README.md)", id);
        return -EINVAL;
    }
    simcard_loop_state_t *loop = calloc(1, sizeof *loop);
    if (!loop) return -ENOMEM;
    sim->loop = loop;
    if (!capture) {
        /* The newest playback stream of a loop id is the one its capture cards listen to. */
        const char *key = c->loop_id ? c->loop_id : id;
        pthread_mutex_lock(&registry.lock);
        int slot = -1;
        for (int i = 0; i < REGISTRY_SIZE && slot < 0; i++) {
            if (registry.ids[i] && strcmp(registry.ids[i], key) == 0) slot = i;
        }
        for (int i = 0; i < REGISTRY_SIZE && slot < 0; i++) {
            if (!registry.ids[i]) slot = i;
        }
        int err = slot < 0 ? -ENOSPC : 0;
        if (slot >= 0) {
            if (!registry.ids[slot]) registry.ids[slot] = strdup(key);
            registry.cards[slot] = sim;
            if (!registry.ids[slot]) err = -ENOMEM;
        }
        pthread_mutex_unlock(&registry.lock);
        if (err < 0) {
            sim->loop = NULL;
            free(loop);
        }
        return err;
    }
    if (!c->input_from) c->input_from = strdup(c->loop_id ? c->loop_id : id);
    pthread_once(&kernel_once, make_kernel);
    loop->rng = c->input_seed ? c->input_seed : 0x9e3779b97f4a7c15ull;
    loop->noise_rms = isfinite(c->input_noise_dbfs) ? pow(10, c->input_noise_dbfs / 20) : 0;
    loop->modelled = calloc(SIMCARD_GRID_FRAMES, sizeof *loop->modelled);
    loop->direct = calloc(SIMCARD_GRID_FRAMES, sizeof *loop->direct);
    if (!loop->modelled || !loop->direct) {
        simcard_loop_close(sim);
        return -ENOMEM;
    }
    return 0;
}

void simcard_loop_close(simcard_t *sim) {
    simcard_loop_state_t *loop = sim->loop;
    if (!loop) return;
    pthread_mutex_lock(&registry.lock);
    for (int i = 0; i < REGISTRY_SIZE; i++) {
        if (registry.cards[i] == sim) {
            free(registry.ids[i]);
            registry.ids[i] = NULL;
            registry.cards[i] = NULL;
        }
    }
    pthread_mutex_unlock(&registry.lock);
    free(loop->grid);
    free(loop->modelled);
    free(loop->direct);
    free(loop);
    sim->loop = NULL;
}

/* Playback: the stream starts on the next instant of the DAC grid (the first start sets the grid). */
void simcard_loop_start(simcard_t *sim) {
    simcard_loop_state_t *loop = sim->loop;
    if (!loop->grid || loop->grid_channels != sim->io.channels) {
        free(loop->grid);
        loop->grid = calloc((size_t)SIMCARD_GRID_FRAMES * sim->io.channels, sizeof *loop->grid);
        loop->grid_channels = loop->grid ? sim->io.channels : 0;
        loop->grid_written = 0;
    }
    if (!loop->grid_started) {
        loop->grid_started = 1;
        loop->anchor_ns = sim->start_ns;
        loop->start_grid = 0;
        return;
    }
    unsigned __int128 since = (unsigned __int128)(sim->start_ns - loop->anchor_ns) * sim->clock_rate;
    uint64_t index = (uint64_t)((since + 1000000000000000u - 1) / 1000000000000000u);
    loop->start_grid = index;
    sim->start_ns = loop->anchor_ns
        + (uint64_t)(((unsigned __int128)index * 1000000000000000u + sim->clock_rate - 1) / sim->clock_rate);
}

/* Playback: frames from..to (since prepare, since the last start) left the DAC; the lock is held. */
void simcard_loop_played(simcard_t *sim, uint64_t from, uint64_t to) {
    simcard_loop_state_t *loop = sim->loop;
    if (!loop->grid || to <= from) return;
    unsigned int channels = loop->grid_channels;
    uint64_t first = loop->start_grid + (from - sim->start_frame);
    for (uint64_t g = loop->grid_written; g < first; g++) {
        memset(loop->grid + (g % SIMCARD_GRID_FRAMES) * channels, 0, channels * sizeof *loop->grid);
    }
    unsigned int sample_bytes = (unsigned int)snd_pcm_format_physical_width(sim->io.format) / 8;
    for (uint64_t f = from; f < to; f++) {
        const unsigned char *frame = sim->ring + (f % sim->io.buffer_size) * sim->frame_bytes;
        float *out = loop->grid + ((first + (f - from)) % SIMCARD_GRID_FRAMES) * channels;
        for (unsigned int ch = 0; ch < channels; ch++) {
            out[ch] = (float)simcard_read_sample(frame + ch * sample_bytes, sim->io.format);
        }
    }
    uint64_t end = first + (to - from);
    if (end > loop->grid_written) loop->grid_written = end;
}

int simcard_loop_hw_params(simcard_t *sim) {
    if (sim->config.input_direct && sim->io.channels < 2) {
        SNDERR("simcard: input_direct needs 2 capture channels");
        return -EINVAL;
    }
    return 0;
}

/* Runs the source's grid from `processed` up to its present through the model (the registry and the
 * source's lock are held). A source that restarted its grid (a new open) starts the model afresh. */
static void follow_source(simcard_t *sim, simcard_t *source, uint64_t now) {
    simcard_loop_state_t *loop = sim->loop, *from = source->loop;
    const simcard_config_t *c = &sim->config;
    if (!from->grid_started || !from->grid) return;
    if (loop->source_anchor_ns != from->anchor_ns) {
        loop->source_anchor_ns = from->anchor_ns;
        loop->processed = 0;
        loop->x1 = loop->x2 = loop->y1 = loop->y2 = 0;
        set_biquad(loop, c, (double)source->io.rate);
    }
    double present = grid_position(source, now);
    uint64_t known = present > 0 ? (uint64_t)present : 0;
    if (known > loop->processed + SIMCARD_GRID_FRAMES) loop->processed = known - SIMCARD_GRID_FRAMES;
    unsigned int channels = from->grid_channels;
    for (uint64_t g = loop->processed; g < known; g++) {
        int kept = g < from->grid_written && g + SIMCARD_GRID_FRAMES > from->grid_written;
        const float *frame = from->grid + (g % SIMCARD_GRID_FRAMES) * channels;
        double x = kept && c->input_source && c->input_source <= channels ? frame[c->input_source - 1] : 0;
        double y = loop->b0 * x + loop->b1 * loop->x1 + loop->b2 * loop->x2 - loop->a1 * loop->y1 - loop->a2 * loop->y2;
        loop->x2 = loop->x1;
        loop->x1 = x;
        loop->y2 = loop->y1;
        loop->y1 = y;
        double u = c->input_gain * y;
        loop->modelled[g % SIMCARD_GRID_FRAMES] = (float)(u + c->input_distortion2 * u * u + c->input_distortion3 * u * u * u);
        loop->direct[g % SIMCARD_GRID_FRAMES] =
            kept && c->input_direct && c->input_direct <= channels ? frame[c->input_direct - 1] : 0;
    }
    loop->processed = known;
}

/* `signal` (modelled or direct) at fractional grid position p: 0 before the grid, and where the kernel
 * would reach past what was modelled (a delay below SIMCARD_MIN_DELAY). */
static double interpolate(const simcard_loop_state_t *loop, const float *signal, double p) {
    double base = floor(p);
    int64_t first = (int64_t)base - SIMCARD_KERNEL_HALF + 1;
    if (first < 0 || (uint64_t)(first + 2 * SIMCARD_KERNEL_HALF) > loop->processed
        || (uint64_t)first + SIMCARD_GRID_FRAMES < loop->processed) {
        return 0;
    }
    const float *taps = kernel[(int)((p - base) * KERNEL_PHASES + 0.5)];
    double sum = 0;
    for (int k = 0; k < 2 * SIMCARD_KERNEL_HALF; k++) sum += taps[k] * signal[(uint64_t)(first + k) % SIMCARD_GRID_FRAMES];
    return sum;
}

/* Capture: samples frames captured..target (since prepare; sampled by the card's clock already) into the
 * ring. */
void simcard_loop_capture(simcard_t *sim, uint64_t target) {
    simcard_loop_state_t *loop = sim->loop;
    const simcard_config_t *c = &sim->config;
    simcard_t *source = NULL;
    uint64_t now = simcard_now_ns();
    pthread_mutex_lock(&registry.lock);
    for (int i = 0; i < REGISTRY_SIZE; i++) {
        if (registry.ids[i] && strcmp(registry.ids[i], c->input_from) == 0) source = registry.cards[i];
    }
    double source_rate = 0;
    if (source) {
        pthread_mutex_lock(&source->lock);
        simcard_advance(source, 0);
        simcard_flush_played(source);
        follow_source(sim, source, now);
        source_rate = source->loop->grid_started ? (double)source->clock_rate / 1e15 : 0;
        pthread_mutex_unlock(&source->lock);
    }
    pthread_mutex_unlock(&registry.lock);
    unsigned int sample_bytes = (unsigned int)snd_pcm_format_physical_width(sim->io.format) / 8;
    for (uint64_t m = sim->captured; m < target; m++) {
        double modelled = 0, direct = 0;
        if (source_rate > 0) {
            uint64_t at = simcard_time_of(sim, m);
            double p = (double)(int64_t)(at - loop->source_anchor_ns) * source_rate - c->input_delay;
            modelled = interpolate(loop, loop->modelled, p);
            if (c->input_direct) direct = interpolate(loop, loop->direct, p);
        }
        if (loop->noise_rms > 0) modelled += loop->noise_rms * gaussian(&loop->rng);
        unsigned char *frame = sim->ring + (m % sim->io.buffer_size) * sim->frame_bytes;
        for (unsigned int ch = 0; ch < sim->io.channels; ch++) {
            simcard_write_sample(frame + ch * sample_bytes, sim->io.format, ch == 0 ? modelled : ch == 1 ? direct : 0);
        }
    }
    if (target > sim->captured) sim->captured = target;
}

void simcard_loop_write_stats(const simcard_t *sim) {
    const char *path = sim->config.input_stats_path;
    if (!path || !sim->configured) return;
    char text[512], partial[4096];
    int length = snprintf(
        text, sizeof text,
        "format=%s\nchannels=%u\nrate=%u\nperiod=%lu\nbuffer=%lu\noverruns=%" PRIu64 "\nstarts=%" PRIu64
        "\ncaptured=%" PRIu64 "\nclosed=%d\n",
        snd_pcm_format_name(sim->io.format), sim->io.channels, sim->io.rate, (unsigned long)sim->io.period_size,
        (unsigned long)sim->io.buffer_size, sim->underruns, sim->starts, sim->played, sim->closed);
    if (snprintf(partial, sizeof partial, "%s.partial", path) >= (int)sizeof partial) return;
    int fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    ssize_t n = write(fd, text, (size_t)length);
    close(fd);
    if (n == length) rename(partial, path);
}
