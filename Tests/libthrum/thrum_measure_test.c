/* thrum_measure (issue 37) from C, on the simulated card's loop (Tools/dev/simcard: `sim_lra`, a band-pass LRA
 * at 170 Hz with Q 8 on output channel 2, its accelerometer on input 1). Expected values come from the
 * simulated actuator's physics, not from the measurement code.
 * Usage: thrum_measure_test WORK_FOLDER   (ALSA_CONFIG_PATH and THRUM_SIMCARD_* set as Tools/dev/simcard says;
 * Tools/ci/test-libthrum.sh runs it, or skips it with its reason when the card cannot be built). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thrum.h>

static int failures = 0;
#define CHECK(condition)                                                                    \
    do {                                                                                    \
        if (!(condition)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)

/* The status and message of a measurement that must fail; the message must name `expected`. */
static void expect_failure(const thrum_measure_options *options, int status, const char *expected) {
    thrum_measurement *measurement = (thrum_measurement *)1;
    char *error = NULL;
    int result = thrum_measure(options, &measurement, &error);
    CHECK(result == status);
    CHECK(measurement == NULL);
    CHECK(error != NULL && strstr(error, expected) != NULL);
    if (result != status || !error || !strstr(error, expected)) fprintf(stderr, "  got %d: %s\n", result, error ? error : "(null)");
    thrum_free(error);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s WORK_FOLDER\n", argv[0]);
        return 64;
    }
    thrum_measure_options options;
    thrum_measure_options_init(&options);
    CHECK(options.struct_size == sizeof options && options.input == NULL && options.input_channel == -1 &&
          isnan(options.duration));

    /* Bad requests: the command's statuses and messages, nothing measured. */
    options.output = "sim_lra";
    expect_failure(&options, THRUM_STATUS_USAGE, "input");
    options.input = "sim_lra";
    options.duration = 99;
    expect_failure(&options, THRUM_STATUS_USAGE, "duration");
    options.duration = 1;
    options.channels = "Q";
    expect_failure(&options, THRUM_STATUS_USAGE, "--channels");
    options.channels = "0,H";
    options.input = "no_such_device";
    expect_failure(&options, THRUM_STATUS_UNAVAILABLE, "no_such_device");
    options.input = "sim_lra";
    CHECK(thrum_measure(&options, NULL, NULL) == THRUM_STATUS_USAGE);

    /* The LRA: f0 170 Hz within 2 %, Q 8 within 15 %, at least 60 log-spaced points from 20 Hz to 1 kHz. */
    thrum_measurement *measurement = NULL;
    char *error = NULL;
    int status = thrum_measure(&options, &measurement, &error);
    CHECK(status == 0 && error == NULL && measurement != NULL);
    if (status != 0) {
        fprintf(stderr, "thrum_measure: %d %s\n", status, error ? error : "");
        return 1;
    }
    double f0 = thrum_measurement_resonance(measurement), q = thrum_measurement_q(measurement);
    CHECK(fabs(f0 / 170 - 1) <= 0.02);
    CHECK(fabs(q / 8 - 1) <= 0.15);
    double low = 0, high = 0;
    thrum_measurement_band(measurement, &low, &high);
    CHECK(low < 170 && 170 < high && fabs((high - low) / (170.0 / 8) - 1) <= 0.2);
    size_t count = thrum_measurement_response(measurement, NULL, NULL, NULL, 0);
    CHECK(count >= 60);
    double *hz = calloc(count, sizeof *hz), *magnitude = calloc(count, sizeof *magnitude), *phase = calloc(count, sizeof *phase);
    CHECK(thrum_measurement_response(measurement, hz, magnitude, phase, count) == count);
    CHECK(fabs(hz[0] - 20) < 0.5 && fabs(hz[count - 1] - 1000) < 10);
    size_t peak = 0;
    for (size_t index = 1; index < count; index++) {
        CHECK(hz[index] > hz[index - 1]);
        if (magnitude[index] > magnitude[peak]) peak = index;
    }
    CHECK(fabs(hz[peak] / 170 - 1) <= 0.05);
    /* An LRA with Q 8: an octave below f0 its magnitude is well under the peak's (second-order band-pass:
     * |H| = 1 / sqrt(1 + Q^2 (f/f0 - f0/f)^2), about -21.6 dB at f0/2). */
    size_t half = 0;
    for (size_t index = 0; index < count; index++) if (fabs(hz[index] - 85) < fabs(hz[half] - 85)) half = index;
    double expected = -10 * log10(1 + 64 * pow(hz[half] / 170 - 170 / hz[half], 2));
    CHECK(fabs(magnitude[half] - magnitude[peak] - expected) <= 1.5);
    if (fabs(magnitude[half] - magnitude[peak] - expected) > 1.5)
        fprintf(stderr, "  at %.1f Hz: %.2f dB below the peak, expected %.2f\n", hz[half], magnitude[peak] - magnitude[half], -expected);
    /* Writing into a short array copies only what fits. */
    double three[3] = {0, 0, 0};
    CHECK(thrum_measurement_response(measurement, three, NULL, NULL, 3) == count && three[2] == hz[2]);
    free(hz);
    free(magnitude);
    free(phase);

    double median = -1, p99 = -1, jitter = -1, device = -1, actuator = -1;
    thrum_measurement_latency(measurement, &median, &p99, &jitter, &device, &actuator);
    CHECK(median > 0 && median <= p99 && p99 < 0.2 && jitter >= 0 && jitter < 0.001);
    CHECK(device > 0 && actuator >= 0);
    size_t clicks = thrum_measurement_clicks(measurement, NULL, 0);
    CHECK(clicks > 0);
    CHECK(thrum_measurement_sample_rate(measurement) == 48000);
    CHECK(strcmp(thrum_measurement_model(measurement), "bandpass") == 0);
    CHECK(thrum_measurement_warning_count(measurement) == 0 && thrum_measurement_warning(measurement, 0) == NULL);
    CHECK(thrum_measurement_snr_db(measurement) > 20 && thrum_measurement_thd_percent(measurement) >= 0);
    const char *json = thrum_measurement_json(measurement);
    CHECK(json && strstr(json, "\"resonance_hz\":") && strstr(json, "\"median_ms\":") && strstr(json, "\"response\":[{"));

    /* The profile: written through a rename; a missing folder is 73 and leaves nothing. */
    char path[4096];
    snprintf(path, sizeof path, "%s/lra-measured.json", argv[1]);
    CHECK(thrum_measurement_write_profile(measurement, path, &error) == 0 && error == NULL);
    FILE *file = fopen(path, "r");
    CHECK(file != NULL);
    if (file) {
        char text[256] = {0};
        CHECK(fread(text, 1, sizeof text - 1, file) > 0 && strstr(text, "\"lra-measured\"") != NULL);
        fclose(file);
    }
    snprintf(path, sizeof path, "%s/missing/p.json", argv[1]);
    CHECK(thrum_measurement_write_profile(measurement, path, &error) == THRUM_STATUS_CANT_CREATE && error != NULL);
    thrum_free(error);
    CHECK(thrum_measurement_write_profile(NULL, path, NULL) == THRUM_STATUS_USAGE);
    thrum_measurement_free(measurement);

    /* NULL handles: the documented values, never a crash. */
    CHECK(thrum_measurement_resonance(NULL) == -1 && thrum_measurement_response(NULL, NULL, NULL, NULL, 0) == 0);
    CHECK(thrum_measurement_json(NULL) == NULL && thrum_measurement_warning_count(NULL) == 0);
    thrum_measurement_free(NULL);

    if (failures) fprintf(stderr, "thrum_measure_test: %d checks failed\n", failures);
    else printf("thrum_measure_test: all passed (f0 %.2f Hz, Q %.2f, latency median %.3f ms)\n", f0, q, median * 1000);
    return failures ? 1 : 0;
}
