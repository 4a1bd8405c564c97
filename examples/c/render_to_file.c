/* Render a pattern to a 32-bit float WAV file: the same samples `thrum render PATTERN --format float`
 * writes. Usage: render_to_file [PATTERN] [OUT.wav] */
#include <thrum.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put32(unsigned char *at, unsigned long value) {
    for (int i = 0; i < 4; i++) at[i] = (unsigned char)(value >> (8 * i));
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "heartbeat";
    const char *output = argc > 2 ? argv[2] : "heartbeat.wav";
    char *error = NULL;
    thrum_pattern *pattern = thrum_pattern_load(name, &error);
    if (!pattern) {
        fprintf(stderr, "render_to_file: %s\n", error);
        thrum_free(error);
        return 1;
    }
    const int channels = 3; /* L,R,H */
    int64_t frames = thrum_render(pattern, 48000, "L,R,H", NULL, 0, &error); /* the length first */
    float *samples = frames > 0 ? malloc((size_t)frames * channels * sizeof(float)) : NULL;
    if (!samples || thrum_render(pattern, 48000, "L,R,H", samples, frames, &error) != frames) {
        fprintf(stderr, "render_to_file: %s\n", error ? error : "out of memory");
        thrum_free(error);
        thrum_pattern_free(pattern);
        return 1;
    }
    unsigned long bytes = (unsigned long)frames * channels * 4;
    unsigned char header[44] = {0}; /* RIFF/WAVE, format 3 (IEEE float), 32 bits */
    memcpy(header, "RIFF", 4);
    put32(header + 4, 36 + bytes);
    memcpy(header + 8, "WAVEfmt ", 8);
    put32(header + 16, 16);
    header[20] = 3;
    header[22] = channels;
    put32(header + 24, 48000);
    put32(header + 28, 48000UL * channels * 4);
    header[32] = channels * 4;
    header[34] = 32;
    memcpy(header + 36, "data", 4);
    put32(header + 40, bytes);
    FILE *file = fopen(output, "wb");
    int ok = file && fwrite(header, 1, 44, file) == 44 && fwrite(samples, 4, (size_t)frames * channels, file) ==
                                                            (size_t)frames * channels;
    if (file) ok = fclose(file) == 0 && ok;
    printf("%s %s: %lld frames at 48000 Hz, %d channels\n", ok ? "wrote" : "could not write", output,
           (long long)frames, channels);
    free(samples);
    thrum_pattern_free(pattern);
    return ok ? 0 : 1;
}
