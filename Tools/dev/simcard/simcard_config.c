/* simcard: reading the configuration block, and the stream constraints it sets (see simcard.h and README.md). */
#include "simcard.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Calls add(value) for a single value or for each member of a compound ([ a b c ]). */
static int for_each_value(snd_config_t *node, const char *key, void *context,
                          int (*add)(void *context, snd_config_t *value, const char *key)) {
    if (snd_config_get_type(node) != SND_CONFIG_TYPE_COMPOUND) return add(context, node, key);
    snd_config_iterator_t i, next;
    snd_config_for_each(i, next, node) {
        int err = add(context, snd_config_iterator_entry(i), key);
        if (err < 0) return err;
    }
    return 0;
}

static int add_format(void *context, snd_config_t *value, const char *key) {
    simcard_config_t *config = context;
    const char *name;
    if (snd_config_get_string(value, &name) < 0) {
        SNDERR("simcard: %s takes format names such as S32_LE", key);
        return -EINVAL;
    }
    snd_pcm_format_t format = snd_pcm_format_value(name);
    if (format == SND_PCM_FORMAT_UNKNOWN || config->format_count >= SIMCARD_MAX_LIST) {
        SNDERR("simcard: unknown or too many formats at %s", name);
        return -EINVAL;
    }
    config->formats[config->format_count++] = (unsigned int)format;
    return 0;
}

static int add_access(void *context, snd_config_t *value, const char *key) {
    simcard_config_t *config = context;
    const char *name;
    if (snd_config_get_string(value, &name) < 0) {
        SNDERR("simcard: %s takes access names such as RW_INTERLEAVED", key);
        return -EINVAL;
    }
    for (unsigned int access = 0; access <= SND_PCM_ACCESS_LAST; access++) {
        if (strcmp(snd_pcm_access_name((snd_pcm_access_t)access), name) == 0 && config->access_count < 4) {
            config->accesses[config->access_count++] = access;
            return 0;
        }
    }
    SNDERR("simcard: unknown access type %s", name);
    return -EINVAL;
}

static int add_rate(void *context, snd_config_t *value, const char *key) {
    simcard_config_t *config = context;
    long rate;
    if (snd_config_get_integer(value, &rate) < 0 || rate <= 0 || config->rate_count >= SIMCARD_MAX_LIST) {
        SNDERR("simcard: %s takes positive integers (at most %d)", key, SIMCARD_MAX_LIST);
        return -EINVAL;
    }
    config->rates[config->rate_count++] = (unsigned int)rate;
    return 0;
}

static int get_unsigned(snd_config_t *node, const char *key, unsigned int *out) {
    long value;
    if (snd_config_get_integer(node, &value) < 0 || value < 0 || value > 0x7fffffffL) {
        SNDERR("simcard: %s takes a non-negative integer", key);
        return -EINVAL;
    }
    *out = (unsigned int)value;
    return 0;
}

static int get_frames(snd_config_t *node, const char *key, uint64_t *out) {
    long long value;
    long small;
    if (snd_config_get_integer(node, &small) >= 0) {
        value = small;
    } else if (snd_config_get_integer64(node, &value) < 0) {
        value = -1;
    }
    if (value < 0) {
        SNDERR("simcard: %s takes a frame count", key);
        return -EINVAL;
    }
    *out = (uint64_t)value;
    return 0;
}

static int get_bool(snd_config_t *node, const char *key, int *out) {
    int value = snd_config_get_bool(node);
    if (value < 0) {
        SNDERR("simcard: %s takes yes or no", key);
        return -EINVAL;
    }
    *out = value;
    return 0;
}

static int get_path(snd_config_t *node, const char *key, char **out) {
    const char *value;
    if (snd_config_get_string(node, &value) < 0) {
        SNDERR("simcard: %s takes a file path", key);
        return -EINVAL;
    }
    free(*out);
    *out = value[0] ? strdup(value) : NULL;
    return 0;
}

static int get_real(snd_config_t *node, const char *key, double *out) {
    if (snd_config_get_ireal(node, out) < 0 || !isfinite(*out)) {
        SNDERR("simcard: %s takes a number", key);
        return -EINVAL;
    }
    return 0;
}

static int get_actuator(snd_config_t *node, const char *key, int *out) {
    const char *value;
    if (snd_config_get_string(node, &value) < 0) value = "";
    if (strcmp(value, "none") == 0) *out = SIMCARD_ACTUATOR_NONE;
    else if (strcmp(value, "bandpass") == 0) *out = SIMCARD_ACTUATOR_BANDPASS;
    else if (strcmp(value, "highpass") == 0) *out = SIMCARD_ACTUATOR_HIGHPASS;
    else {
        SNDERR("simcard: %s takes none, bandpass or highpass", key);
        return -EINVAL;
    }
    return 0;
}

/* The loop's keys (simcard_loop.c). Returns 0, a negative errno, or 1 when the key is not one of them. */
static int parse_loop_key(simcard_config_t *c, const char *id, snd_config_t *n) {
    if (strcmp(id, "loop") == 0) return get_bool(n, id, &c->loop);
    if (strcmp(id, "loop_id") == 0) return get_path(n, id, &c->loop_id);
    if (strcmp(id, "input_from") == 0) return get_path(n, id, &c->input_from);
    if (strcmp(id, "input_channels") == 0) return get_unsigned(n, id, &c->input_channels);
    if (strcmp(id, "input_source") == 0) return get_unsigned(n, id, &c->input_source);
    if (strcmp(id, "input_direct") == 0) return get_unsigned(n, id, &c->input_direct);
    if (strcmp(id, "actuator") == 0) return get_actuator(n, id, &c->actuator);
    if (strcmp(id, "actuator_f0") == 0) return get_real(n, id, &c->actuator_f0);
    if (strcmp(id, "actuator_q") == 0) return get_real(n, id, &c->actuator_q);
    if (strcmp(id, "input_gain") == 0) return get_real(n, id, &c->input_gain);
    if (strcmp(id, "input_delay") == 0) return get_real(n, id, &c->input_delay);
    if (strcmp(id, "input_noise_dbfs") == 0) return get_real(n, id, &c->input_noise_dbfs);
    if (strcmp(id, "input_distortion2") == 0) return get_real(n, id, &c->input_distortion2);
    if (strcmp(id, "input_distortion3") == 0) return get_real(n, id, &c->input_distortion3);
    if (strcmp(id, "input_seed") == 0) return get_frames(n, id, &c->input_seed);
    if (strcmp(id, "input_overrun_after") == 0) return get_frames(n, id, &c->input_overrun_after);
    if (strcmp(id, "input_stats") == 0) return get_path(n, id, &c->input_stats_path);
    return 1;
}

/* Keys every PCM definition may have, which ALSA itself reads. */
static int is_generic_key(const char *id) {
    return strcmp(id, "comment") == 0 || strcmp(id, "type") == 0 || strcmp(id, "hint") == 0;
}

/* One key of the block. Returns 0, a negative errno, or 1 when the key is unknown. */
static int parse_key(simcard_config_t *c, const char *id, snd_config_t *n) {
    unsigned int both;
    long ppm;
    if (strcmp(id, "formats") == 0) return for_each_value(n, id, c, add_format);
    if (strcmp(id, "access") == 0) return for_each_value(n, id, c, add_access);
    if (strcmp(id, "rates") == 0) return for_each_value(n, id, c, add_rate);
    if (strcmp(id, "channels") == 0) {
        int err = get_unsigned(n, id, &both);
        c->channels_min = c->channels_max = both;
        return err;
    }
    if (strcmp(id, "channels_min") == 0) return get_unsigned(n, id, &c->channels_min);
    if (strcmp(id, "channels_max") == 0) return get_unsigned(n, id, &c->channels_max);
    if (strcmp(id, "rate_min") == 0) return get_unsigned(n, id, &c->rate_min);
    if (strcmp(id, "rate_max") == 0) return get_unsigned(n, id, &c->rate_max);
    if (strcmp(id, "period_min") == 0) return get_unsigned(n, id, &c->period_min);
    if (strcmp(id, "period_max") == 0) return get_unsigned(n, id, &c->period_max);
    if (strcmp(id, "period_step") == 0) return get_unsigned(n, id, &c->period_step);
    if (strcmp(id, "period_bytes_step") == 0) return get_unsigned(n, id, &c->period_bytes_step);
    if (strcmp(id, "periods_min") == 0) return get_unsigned(n, id, &c->periods_min);
    if (strcmp(id, "periods_max") == 0) return get_unsigned(n, id, &c->periods_max);
    if (strcmp(id, "vanish_after") == 0) return get_frames(n, id, &c->vanish_after);
    if (strcmp(id, "vanish_quietly") == 0) return get_bool(n, id, &c->vanish_quietly);
    if (strcmp(id, "suspend_after") == 0) return get_frames(n, id, &c->suspend_after);
    if (strcmp(id, "resumable") == 0) return get_bool(n, id, &c->resumable);
    if (strcmp(id, "clear_wakeup_in_descriptors") == 0) return get_bool(n, id, &c->clear_wakeup_in_descriptors);
    if (strcmp(id, "wakeup_never_clears") == 0) return get_bool(n, id, &c->wakeup_never_clears);
    if (strcmp(id, "capture") == 0) return get_path(n, id, &c->capture_path);
    if (strcmp(id, "stats") == 0) return get_path(n, id, &c->stats_path);
    if (strcmp(id, "timing") == 0) return get_path(n, id, &c->timing_path);
    if (strcmp(id, "ppm") == 0) {
        if (snd_config_get_integer(n, &ppm) < 0 || ppm <= -1000000 || ppm >= 1000000) {
            SNDERR("simcard: ppm takes an integer between -999999 and 999999");
            return -EINVAL;
        }
        c->ppm = ppm;
        return 0;
    }
    return 1;
}

int simcard_parse_config(snd_config_t *conf, simcard_config_t *c) {
    memset(c, 0, sizeof *c);
    c->channels_min = c->channels_max = 2;
    c->period_min = 16;
    c->period_max = 8192;
    c->period_step = 1;
    c->periods_min = 2;
    c->periods_max = 64;
    c->resumable = 1;
    c->actuator_f0 = 170;
    c->actuator_q = 8;
    c->input_gain = 1;
    c->input_delay = 48;
    c->input_noise_dbfs = -INFINITY;

    snd_config_iterator_t i, next;
    snd_config_for_each(i, next, conf) {
        snd_config_t *n = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(n, &id) < 0 || is_generic_key(id)) continue;
        int err = parse_key(c, id, n);
        if (err == 1) err = parse_loop_key(c, id, n);
        if (err == 1) {
            SNDERR("simcard: unknown field %s", id);
            err = -EINVAL;
        }
        if (err < 0) return err;
    }
    if (c->format_count == 0) c->formats[c->format_count++] = SND_PCM_FORMAT_S16_LE;
    if (c->access_count == 0) {
        c->accesses[c->access_count++] = SND_PCM_ACCESS_MMAP_INTERLEAVED;
        c->accesses[c->access_count++] = SND_PCM_ACCESS_RW_INTERLEAVED;
    }
    if (c->rate_count == 0 && c->rate_min == 0) c->rates[c->rate_count++] = 48000;
    if (c->rate_count == 0 && c->rate_max < c->rate_min) c->rate_max = c->rate_min;
    if (c->channels_min == 0 || c->channels_max < c->channels_min || c->period_step == 0 || c->period_min == 0
        || c->period_max < c->period_min || c->periods_min < 1 || c->periods_max < c->periods_min) {
        SNDERR("simcard: inconsistent channel, period or periods limits");
        return -EINVAL;
    }
    if (!(c->actuator_f0 > 0) || !(c->actuator_q > 0.1) || c->input_delay < SIMCARD_MIN_DELAY) {
        SNDERR("simcard: actuator_f0 must be positive, actuator_q above 0.1 and input_delay at least %d frames",
               SIMCARD_MIN_DELAY);
        return -EINVAL;
    }
    return 0;
}

void simcard_free_config(simcard_config_t *c) {
    free(c->capture_path);
    free(c->stats_path);
    free(c->timing_path);
    free(c->input_from);
    free(c->loop_id);
    free(c->input_stats_path);
    c->capture_path = c->stats_path = c->timing_path = NULL;
    c->input_from = c->loop_id = c->input_stats_path = NULL;
}

/* The hardware constraints of a stream from its card's configuration (called at open). */
static int compare_unsigned(const void *a, const void *b) {
    unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
    return x < y ? -1 : x > y;
}

/* Period sizes become constraints on period bytes (all ioplug offers): a list of the byte sizes that
 * some accepted frame size turns into an allowed period, or a plain range when there is no step. */
static int set_period_constraints(simcard_t *sim) {
    const simcard_config_t *c = &sim->config;
    unsigned int sizes[SIMCARD_MAX_LIST * 8], size_count = 0, min_bytes = ~0u, max_bytes = 0;
    int own_inputs = sim->io.stream == SND_PCM_STREAM_CAPTURE && c->input_channels;
    unsigned int lowest = own_inputs ? c->input_channels : c->channels_min;
    unsigned int highest = own_inputs ? c->input_channels : c->channels_max;
    for (unsigned int f = 0; f < c->format_count; f++) {
        unsigned int width = (unsigned int)snd_pcm_format_physical_width((snd_pcm_format_t)c->formats[f]) / 8;
        for (unsigned int ch = lowest; ch <= highest && size_count < SIMCARD_MAX_LIST * 8; ch++) {
            sizes[size_count++] = width * ch;
            if (width * ch < min_bytes) min_bytes = width * ch;
            if (width * ch > max_bytes) max_bytes = width * ch;
        }
    }
    int err;
    if (c->period_step == 1 && c->period_bytes_step == 0) {
        err = snd_pcm_ioplug_set_param_minmax(&sim->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, c->period_min * min_bytes,
                                              c->period_max * max_bytes);
    } else {
        unsigned int capacity = size_count * (c->period_max / c->period_step + 1), count = 0;
        unsigned int *list = malloc(capacity * sizeof *list);
        if (!list) return -ENOMEM;
        for (unsigned int s = 0; s < size_count; s++) {
            for (unsigned int p = (c->period_min + c->period_step - 1) / c->period_step * c->period_step;
                 p <= c->period_max; p += c->period_step) {
                unsigned int bytes = p * sizes[s];
                if (!c->period_bytes_step || bytes % c->period_bytes_step == 0) list[count++] = bytes;
            }
        }
        qsort(list, count, sizeof *list, compare_unsigned);
        unsigned int unique = 0;
        for (unsigned int i = 0; i < count; i++) {
            if (unique == 0 || list[unique - 1] != list[i]) list[unique++] = list[i];
        }
        err = unique ? snd_pcm_ioplug_set_param_list(&sim->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, unique, list) : -EINVAL;
        free(list);
    }
    if (err < 0) return err;
    err = snd_pcm_ioplug_set_param_minmax(&sim->io, SND_PCM_IOPLUG_HW_PERIODS, c->periods_min, c->periods_max);
    if (err < 0) return err;
    return snd_pcm_ioplug_set_param_minmax(&sim->io, SND_PCM_IOPLUG_HW_BUFFER_BYTES,
                                           c->period_min * c->periods_min * min_bytes,
                                           c->period_max * c->periods_max * max_bytes);
}

int simcard_set_constraints(simcard_t *sim) {
    const simcard_config_t *c = &sim->config;
    int err = snd_pcm_ioplug_set_param_list(&sim->io, SND_PCM_IOPLUG_HW_ACCESS, c->access_count, c->accesses);
    if (err >= 0) err = snd_pcm_ioplug_set_param_list(&sim->io, SND_PCM_IOPLUG_HW_FORMAT, c->format_count, c->formats);
    if (err >= 0 && sim->io.stream == SND_PCM_STREAM_CAPTURE && c->input_channels) {
        err = snd_pcm_ioplug_set_param_minmax(&sim->io, SND_PCM_IOPLUG_HW_CHANNELS, c->input_channels, c->input_channels);
    } else if (err >= 0) {
        err = snd_pcm_ioplug_set_param_minmax(&sim->io, SND_PCM_IOPLUG_HW_CHANNELS, c->channels_min, c->channels_max);
    }
    if (err >= 0) {
        err = c->rate_count
            ? snd_pcm_ioplug_set_param_list(&sim->io, SND_PCM_IOPLUG_HW_RATE, c->rate_count, c->rates)
            : snd_pcm_ioplug_set_param_minmax(&sim->io, SND_PCM_IOPLUG_HW_RATE, c->rate_min, c->rate_max);
    }
    if (err >= 0) err = set_period_constraints(sim);
    return err;
}

