/* simcard: the ioplug callbacks, the card's clock and the capture (see simcard.h and README.md). */
#include "simcard.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

uint64_t simcard_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Frames the card's clock has played by `ns` since the last start or resume. */
uint64_t simcard_frames_at(const simcard_t *sim, uint64_t ns) {
    if (ns <= sim->start_ns) return sim->start_frame;
    return sim->start_frame + (uint64_t)((unsigned __int128)(ns - sim->start_ns) * sim->clock_rate / 1000000000000000u);
}

/* The first instant at which the card's clock has played `frame` frames (rounded up to whole ns). */
uint64_t simcard_time_of(const simcard_t *sim, uint64_t frame) {
    if (frame <= sim->start_frame) return sim->start_ns;
    unsigned __int128 scaled = (unsigned __int128)(frame - sim->start_frame) * 1000000000000000u;
    return sim->start_ns + (uint64_t)((scaled + sim->clock_rate - 1) / sim->clock_rate);
}

static void set_timer(simcard_t *sim, int flags, uint64_t value_ns, uint64_t interval_ns) {
    struct itimerspec spec = {
        .it_interval = {(time_t)(interval_ns / 1000000000u), (long)(interval_ns % 1000000000u)},
        .it_value = {(time_t)(value_ns / 1000000000u), (long)(value_ns % 1000000000u)},
    };
    timerfd_settime(sim->timer_fd, flags, &spec, NULL);
}

static void drain_timer(simcard_t *sim) {
    uint64_t expirations;
    ssize_t n = read(sim->timer_fd, &expirations, sizeof expirations);
    (void)n;
}

static snd_pcm_uframes_t avail_now(const simcard_t *sim) {
    if (sim->io.stream == SND_PCM_STREAM_CAPTURE) return (snd_pcm_uframes_t)(sim->consumed - sim->io.appl_ptr);
    uint64_t queued = sim->io.appl_ptr - sim->consumed;
    return queued >= sim->io.buffer_size ? 0 : sim->io.buffer_size - (snd_pcm_uframes_t)queued;
}

/* Arms the timer for the next period boundary of the card's clock, then every period. */
static void arm_next_boundary(simcard_t *sim) {
    uint64_t period = sim->io.period_size;
    uint64_t next = (sim->consumed / period + 1) * period;
    uint64_t interval = simcard_time_of(sim, sim->start_frame + period) - sim->start_ns;
    set_timer(sim, TFD_TIMER_ABSTIME, simcard_time_of(sim, next), interval);
}

/* Arms the timer for the current state: the next period boundary while playing, at once when a poller
 * must see POLLERR or free space, never when nothing can change. */
static void rearm(simcard_t *sim) {
    switch (sim->io.state) {
    case SND_PCM_STATE_RUNNING:
    case SND_PCM_STATE_DRAINING:
        arm_next_boundary(sim);
        break;
    case SND_PCM_STATE_PREPARED:
        set_timer(sim, 0, avail_now(sim) >= sim->avail_min ? 1 : 0, 0);
        break;
    case SND_PCM_STATE_XRUN:
    case SND_PCM_STATE_SUSPENDED:
        set_timer(sim, 0, 1, 0);
        break;
    case SND_PCM_STATE_DISCONNECTED:
        set_timer(sim, 0, sim->config.vanish_quietly ? 0 : 1, 0);
        break;
    default:
        set_timer(sim, 0, 0, 0);
        break;
    }
}

static void write_stats(const simcard_t *sim) {
    if (sim->io.stream == SND_PCM_STREAM_CAPTURE) {
        simcard_loop_write_stats(sim);
        return;
    }
    if (!sim->config.stats_path || !sim->configured) return;
    char text[768];
    int length = snprintf(
        text, sizeof text,
        "format=%s\naccess=%s\nchannels=%u\nrate=%u\nperiod=%lu\nbuffer=%lu\nunderruns=%" PRIu64
        "\nsuspends=%" PRIu64 "\nresumes=%" PRIu64 "\nstarts=%" PRIu64 "\nplayed=%" PRIu64 "\nwakeups=%" PRIu64
        "\nvanished=%d\nclosed=%d\n",
        snd_pcm_format_name(sim->io.format), snd_pcm_access_name(sim->io.access), sim->io.channels, sim->io.rate,
        (unsigned long)sim->io.period_size, (unsigned long)sim->io.buffer_size, sim->underruns, sim->suspends,
        sim->resumes, sim->starts, sim->played, sim->wakeups, sim->vanished, sim->closed);
    /* Written beside and renamed over, so that a reader never sees a half-written file, even when the
       program exits (ending this thread) while another of its threads closes the card. */
    char partial[4096];
    if (snprintf(partial, sizeof partial, "%s.partial", sim->config.stats_path) >= (int)sizeof partial) return;
    int fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    ssize_t n = write(fd, text, (size_t)length);
    close(fd);
    if (n == length) rename(partial, sim->config.stats_path);
}

/* Appends the ring's frames up to `upto` (frames since prepare) to the capture file. */
static void capture_upto(simcard_t *sim, uint64_t upto) {
    while (sim->captured < upto) {
        snd_pcm_uframes_t position = (snd_pcm_uframes_t)(sim->captured % sim->io.buffer_size);
        uint64_t count = upto - sim->captured;
        if (count > sim->io.buffer_size - position) count = sim->io.buffer_size - position;
        if (sim->capture_fd >= 0) {
            ssize_t n = write(sim->capture_fd, sim->ring + position * sim->frame_bytes, count * sim->frame_bytes);
            (void)n;
        }
        sim->captured += count;
    }
}

/* Appends when the card's clock played the frames from `from` up to `to` (frames since prepare; `first` the
 * first one's number among all frames played since open): "FIRST START COUNT END", START and END the
 * CLOCK_MONOTONIC nanoseconds at which the first one and the one after the last begin to play. */
static void log_timing(simcard_t *sim, uint64_t first, uint64_t from, uint64_t to) {
    if (sim->timing_fd < 0 || to <= from) return;
    char line[96];
    int length = snprintf(line, sizeof line, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", first,
                          simcard_time_of(sim, from), to - from, simcard_time_of(sim, to));
    ssize_t n = write(sim->timing_fd, line, (size_t)length);
    (void)n;
}

/* Moves the card's clock forward to now: plays (captures) what it passed, detects underruns and faults.
 * When `stopping`, only plays what was written: a stop is neither an underrun nor a fault. */
void simcard_advance(simcard_t *sim, int stopping) {
    snd_pcm_state_t state = sim->io.state;
    if (state != SND_PCM_STATE_RUNNING && state != SND_PCM_STATE_DRAINING) return;
    uint64_t target = simcard_frames_at(sim, simcard_now_ns());
    if (sim->io.stream == SND_PCM_STREAM_CAPTURE) {
        /* What the card's clock sampled, up to a full buffer of unread frames: past it, an overrun. */
        uint64_t room = sim->io.appl_ptr + sim->io.buffer_size;
        const simcard_config_t *c = &sim->config;
        snd_pcm_state_t next = state;
        if (!stopping && target > room) {
            target = room;
            next = SND_PCM_STATE_XRUN;
        }
        if (!stopping && c->input_overrun_after && !sim->overrun_injected
            && sim->played + (target - sim->consumed) >= c->input_overrun_after) {
            target = sim->consumed + (c->input_overrun_after - sim->played);
            sim->overrun_injected = 1;
            next = SND_PCM_STATE_XRUN;
        }
        /* The samples themselves are made when they are read (sim_transfer), so that the pointer (and the
           status timestamp ALSA takes right after it) costs no more than a playback's. */
        sim->played += target - sim->consumed;
        sim->consumed = target;
        if (next != state) {
            sim->underruns++;
            snd_pcm_ioplug_set_state(&sim->io, next);
            rearm(sim);
        }
        return;
    }
    if (target < sim->consumed) target = sim->consumed;
    uint64_t written = sim->io.appl_ptr;
    snd_pcm_state_t next = state;
    const simcard_config_t *c = &sim->config;
    if (stopping) {
        /* no faults while stopping */
    } else if (c->vanish_after && sim->played + (target - sim->consumed) >= c->vanish_after) {
        target = sim->consumed + (c->vanish_after - sim->played);
        next = SND_PCM_STATE_DISCONNECTED;
    } else if (c->suspend_after && !sim->suspended_once
               && sim->played + (target - sim->consumed) >= c->suspend_after) {
        target = sim->consumed + (c->suspend_after - sim->played);
        next = SND_PCM_STATE_SUSPENDED;
    }
    if (target >= written) {
        /* Everything written has been played: an underrun while running, the end of a drain. */
        target = written;
        if (state == SND_PCM_STATE_RUNNING && next == state && !stopping) next = SND_PCM_STATE_XRUN;
    }
    sim->played += target - sim->consumed;
    sim->consumed = target;
    if (next == state) return;
    if (next == SND_PCM_STATE_XRUN) sim->underruns++;
    if (next == SND_PCM_STATE_DISCONNECTED) {
        sim->vanished = 1;
        write_stats(sim); /* now: a program may exit on the error before it closes the card */
    }
    if (next == SND_PCM_STATE_SUSPENDED) {
        sim->suspended_once = 1;
        sim->suspends++;
        sim->state_before_suspend = state;
    }
    snd_pcm_ioplug_set_state(&sim->io, next);
    rearm(sim);
}

void simcard_flush_played(simcard_t *sim) {
    if (sim->io.stream != SND_PCM_STREAM_PLAYBACK || sim->consumed <= sim->flushed) return;
    log_timing(sim, sim->played - (sim->consumed - sim->flushed), sim->flushed, sim->consumed);
    capture_upto(sim, sim->consumed);
    if (sim->loop) simcard_loop_played(sim, sim->flushed, sim->consumed);
    sim->flushed = sim->consumed;
}

static snd_pcm_sframes_t sim_pointer(snd_pcm_ioplug_t *io) {
    simcard_t *sim = io->private_data;
    pthread_mutex_lock(&sim->lock);
    simcard_advance(sim, 0);
    snd_pcm_sframes_t result = io->state == SND_PCM_STATE_XRUN
        ? -EPIPE : (snd_pcm_sframes_t)(sim->consumed % sim->boundary);
    pthread_mutex_unlock(&sim->lock);
    return result;
}

static snd_pcm_sframes_t sim_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                      snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
    simcard_t *sim = io->private_data;
    pthread_mutex_lock(&sim->lock);
    if (sim->vanished) {
        pthread_mutex_unlock(&sim->lock);
        return -ENODEV;
    }
    snd_pcm_uframes_t done = 0;
    unsigned int width = (unsigned int)snd_pcm_format_physical_width(io->format);
    int capture = io->stream == SND_PCM_STREAM_CAPTURE;
    if (!capture) simcard_flush_played(sim); /* before the new frames overwrite played ones */
    if (capture && io->appl_ptr + size > sim->captured) simcard_loop_capture(sim, io->appl_ptr + size);
    while (done < size) {
        snd_pcm_uframes_t position = (snd_pcm_uframes_t)((io->appl_ptr + done) % io->buffer_size);
        snd_pcm_uframes_t count = size - done;
        if (count > io->buffer_size - position) count = io->buffer_size - position;
        for (unsigned int channel = 0; channel < io->channels; channel++) {
            snd_pcm_channel_area_t ring = {sim->ring, channel * width, sim->frame_bytes * 8};
            if (capture) {
                snd_pcm_area_copy(&areas[channel], offset + done, &ring, position, (unsigned int)count, io->format);
            } else {
                snd_pcm_area_copy(&ring, position, &areas[channel], offset + done, (unsigned int)count, io->format);
            }
        }
        done += count;
    }
    pthread_mutex_unlock(&sim->lock);
    return (snd_pcm_sframes_t)size;
}

static int sim_start(snd_pcm_ioplug_t *io) {
    simcard_t *sim = io->private_data;
    pthread_mutex_lock(&sim->lock);
    int err = 0;
    if (sim->vanished) {
        err = -ENODEV;
    } else {
        if (sim->capture_fd < 0 && sim->config.capture_path && io->stream == SND_PCM_STREAM_PLAYBACK) {
            sim->capture_fd = open(sim->config.capture_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        }
        if (sim->timing_fd < 0 && sim->config.timing_path && io->stream == SND_PCM_STREAM_PLAYBACK) {
            sim->timing_fd = open(sim->config.timing_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        }
        simcard_flush_played(sim); /* timed on the clock of the last start */
        sim->start_ns = simcard_now_ns();
        sim->start_frame = sim->consumed;
        if (sim->loop && io->stream == SND_PCM_STREAM_PLAYBACK) simcard_loop_start(sim);
        sim->starts++;
        arm_next_boundary(sim); /* ioplug sets RUNNING once this returns */
    }
    pthread_mutex_unlock(&sim->lock);
    return err;
}

static int sim_stop(snd_pcm_ioplug_t *io) {
    simcard_t *sim = io->private_data;
    pthread_mutex_lock(&sim->lock);
    simcard_advance(sim, 1);
    simcard_flush_played(sim);
    set_timer(sim, 0, 0, 0);
    write_stats(sim);
    pthread_mutex_unlock(&sim->lock);
    return 0;
}

static int sim_prepare(snd_pcm_ioplug_t *io) {
    simcard_t *sim = io->private_data;
    pthread_mutex_lock(&sim->lock);
    int err = sim->vanished ? -ENODEV : 0;
    if (!err) {
        simcard_flush_played(sim);
        sim->consumed = sim->captured = sim->flushed = 0;
        if (io->stream == SND_PCM_STREAM_CAPTURE) {
            set_timer(sim, 0, 0, 0); /* nothing to read before the start */
        } else {
            set_timer(sim, 0, 1, 0); /* prepared with an empty buffer: room for a period at once */
        }
    }
    pthread_mutex_unlock(&sim->lock);
    return err;
}

static int sim_resume(snd_pcm_ioplug_t *io) {
    simcard_t *sim = io->private_data;
    pthread_mutex_lock(&sim->lock);
    if (io->state == SND_PCM_STATE_SUSPENDED) {
        simcard_flush_played(sim);
        sim->start_ns = simcard_now_ns();
        sim->start_frame = sim->consumed;
        sim->resumes++;
        snd_pcm_ioplug_set_state(io, sim->state_before_suspend);
        rearm(sim);
    }
    pthread_mutex_unlock(&sim->lock);
    return 0;
}

static int sim_hw_params(snd_pcm_ioplug_t *io, snd_pcm_hw_params_t *params) {
    (void)params;
    simcard_t *sim = io->private_data;
    const simcard_config_t *c = &sim->config;
    unsigned int frame_bytes = (unsigned int)snd_pcm_format_physical_width(io->format) / 8 * io->channels;
    unsigned long period_bytes = io->period_size * frame_bytes;
    if (io->period_size % c->period_step || io->period_size < c->period_min || io->period_size > c->period_max
        || (c->period_bytes_step && period_bytes % c->period_bytes_step)) {
        return -EINVAL;
    }
    unsigned char *ring = calloc(io->buffer_size, frame_bytes);
    if (!ring) return -ENOMEM;
    pthread_mutex_lock(&sim->lock);
    free(sim->ring);
    sim->ring = ring;
    sim->frame_bytes = frame_bytes;
    sim->clock_rate = (unsigned __int128)io->rate * (unsigned __int128)(1000000 + c->ppm);
    sim->configured = 1;
    int err = io->stream == SND_PCM_STREAM_CAPTURE ? simcard_loop_hw_params(sim) : 0;
    write_stats(sim);
    pthread_mutex_unlock(&sim->lock);
    return err;
}

static int sim_sw_params(snd_pcm_ioplug_t *io, snd_pcm_sw_params_t *params) {
    simcard_t *sim = io->private_data;
    pthread_mutex_lock(&sim->lock);
    snd_pcm_sw_params_get_avail_min(params, &sim->avail_min);
    snd_pcm_sw_params_get_boundary(params, &sim->boundary);
    if (sim->boundary == 0) sim->boundary = io->buffer_size;
    pthread_mutex_unlock(&sim->lock);
    return 0;
}

static int sim_poll_descriptors_count(snd_pcm_ioplug_t *io) {
    (void)io;
    return 1;
}

static int sim_poll_descriptors(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int space) {
    simcard_t *sim = io->private_data;
    if (space < 1) return 0;
    pfd->fd = sim->timer_fd;
    pfd->events = POLLIN;
    pfd->revents = 0;
    if (sim->config.clear_wakeup_in_descriptors) {
        pthread_mutex_lock(&sim->lock);
        drain_timer(sim);
        simcard_advance(sim, 0);
        rearm(sim);
        pthread_mutex_unlock(&sim->lock);
    }
    return 1;
}

static int sim_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int nfds, unsigned short *revents) {
    simcard_t *sim = io->private_data;
    (void)pfd;
    (void)nfds;
    pthread_mutex_lock(&sim->lock);
    sim->wakeups++;
    int clears = !sim->config.clear_wakeup_in_descriptors && !sim->config.wakeup_never_clears;
    unsigned short ready = io->stream == SND_PCM_STREAM_CAPTURE ? POLLIN : POLLOUT;
    if (clears) drain_timer(sim);
    simcard_advance(sim, 0);
    switch (io->state) {
    case SND_PCM_STATE_XRUN:
    case SND_PCM_STATE_SUSPENDED:
        *revents = ready | POLLERR;
        break;
    case SND_PCM_STATE_DISCONNECTED:
        *revents = sim->config.vanish_quietly ? 0 : ready | POLLERR;
        break;
    case SND_PCM_STATE_PREPARED:
    case SND_PCM_STATE_RUNNING:
    case SND_PCM_STATE_DRAINING:
        *revents = avail_now(sim) >= sim->avail_min ? ready : 0;
        break;
    default:
        *revents = 0;
        break;
    }
    if (clears) rearm(sim);
    pthread_mutex_unlock(&sim->lock);
    return 0;
}

static int sim_close(snd_pcm_ioplug_t *io) {
    simcard_t *sim = io->private_data;
    simcard_flush_played(sim);
    simcard_loop_close(sim);
    sim->closed = 1;
    write_stats(sim);
    if (sim->capture_fd >= 0) close(sim->capture_fd);
    if (sim->timing_fd >= 0) close(sim->timing_fd);
    close(sim->timer_fd);
    free(sim->ring);
    simcard_free_config(&sim->config);
    pthread_mutex_destroy(&sim->lock);
    free(sim);
    return 0;
}

static const snd_pcm_ioplug_callback_t base_callbacks = {
    .start = sim_start,
    .stop = sim_stop,
    .pointer = sim_pointer,
    .transfer = sim_transfer,
    .close = sim_close,
    .hw_params = sim_hw_params,
    .sw_params = sim_sw_params,
    .prepare = sim_prepare,
    .resume = sim_resume,
    .poll_descriptors_count = sim_poll_descriptors_count,
    .poll_descriptors = sim_poll_descriptors,
    .poll_revents = sim_poll_revents,
};

SND_PCM_PLUGIN_DEFINE_FUNC(simcard) {
    (void)root;
    simcard_t *sim = calloc(1, sizeof *sim);
    if (!sim) return -ENOMEM;
    int err = simcard_parse_config(conf, &sim->config);
    if (err < 0) {
        simcard_free_config(&sim->config);
        free(sim);
        return err;
    }
    sim->io.stream = stream; /* simcard_loop_open reads it; snd_pcm_ioplug_create sets it again */
    const char *id = NULL;
    if (snd_config_get_id(conf, &id) < 0 || !id) id = name;
    err = simcard_loop_open(sim, id);
    if (err < 0) {
        simcard_free_config(&sim->config);
        free(sim);
        return err;
    }
    sim->capture_fd = -1;
    sim->timing_fd = -1;
    sim->boundary = 1;
    sim->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (sim->timer_fd < 0) {
        err = -errno;
        simcard_loop_close(sim);
        simcard_free_config(&sim->config);
        free(sim);
        return err;
    }
    pthread_mutex_init(&sim->lock, NULL);
    sim->callbacks = base_callbacks;
    if (!sim->config.resumable) sim->callbacks.resume = NULL;
    sim->io.version = SND_PCM_IOPLUG_VERSION;
    sim->io.name = "Thrum simulated card";
    sim->io.flags = SND_PCM_IOPLUG_FLAG_BOUNDARY_WA | SND_PCM_IOPLUG_FLAG_MONOTONIC;
    sim->io.poll_fd = sim->timer_fd;
    sim->io.poll_events = POLLIN;
    sim->io.callback = &sim->callbacks;
    sim->io.private_data = sim;
    err = snd_pcm_ioplug_create(&sim->io, name, stream, mode);
    if (err < 0) {
        simcard_loop_close(sim);
        close(sim->timer_fd);
        simcard_free_config(&sim->config);
        pthread_mutex_destroy(&sim->lock);
        free(sim);
        return err;
    }
    err = simcard_set_constraints(sim);
    if (err < 0) {
        snd_pcm_ioplug_delete(&sim->io); /* calls sim_close */
        return err;
    }
    *pcmp = sim->io.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(simcard);
