#!/usr/bin/env bash
# Builds and runs Thrum's libFuzzer harnesses (the separate package in Tools/dev/fuzz).
#
#   Tools/dev/fuzz.sh [SECONDS] [--target ahap|haptic|hjif|audio] [--jobs N] [-- LIBFUZZER_FLAGS…]
#
#   SECONDS       total fuzzing time (libFuzzer -max_total_time), default 60
#   --target      ahap  (default): AHAP bytes → JSONReader → AHAPDecoder + PatternValidator → CompiledPattern
#                        → Renderer (a few periods from the start and from the last event; samples finite)
#                 haptic: .haptic bytes → HapticFileDecoder (both modes) → playback form rendered,
#                         AHAP and Android exports and the way back
#                 hjif: .hjif/.hmpg bytes → HJIFDecoder and HMPGDecoder → HJIFChecks → playback form
#                       rendered, HJIF/.hmpg writers and the .haptic form
#                 audio: bytes → temp file → AudioFileInfo.probe + AudioFileLoader.load (small limits)
#   --jobs N      run N fuzzer processes side by side on one shared corpus (default 1); the counts are summed
#   after --       extra libFuzzer flags, e.g. -- -runs=100000 -seed=1
#
# Seeds (copied into a temporary corpus folder, never committed): Resources/Patterns and the shared corpus
# ($THRUM_CORPUS, default ../shared/corpus next to the package: ahap/ and ricochet/HapticPatterns/) for
# ahap; the .haptic test fixtures and Meta's test files ($THRUM_ORACLES, default ../shared/oracles:
# meta-haptics-sdk/test_files) for haptic; the bundled patterns converted to .hjif and .hmpg by the debug
# thrum (built if missing) and a WaveletWave block for hjif; Resources/Audio, the corpus's .wav files and a few sox-made
# WAV/AIFF/FLAC/Ogg/CAF/AU files for audio.
#
# Each input gets at most 5 s (-timeout=5; a slower one is a finding), 2048 MB RSS (-rss_limit_mb=2048).
# A crash, hang, leak or out-of-memory input is saved under Tools/dev/fuzz/crashes/ and the script exits non-zero.
# Prints libFuzzer's final stats, the number of executions and the slowest input seen.
#
# Build (what this script runs in Tools/dev/fuzz): ASan + SanitizerCoverage in every module, libFuzzer linked
# without its main (our FuzzMain calls LLVMFuzzerRunDriver):
#   swift build -c release --sanitize=address \
#     -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table \
#     -Xcc -fsanitize=fuzzer-no-link \
#     -Xlinker …/clang/N/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a -Xlinker -u -Xlinker LLVMFuzzerRunDriver \
#     -Xlinker -lstdc++
# (`--sanitize=fuzzer` also compiles, but links libFuzzer's own `main` as a whole archive, which clashes
# with the executable's `main`.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fuzzdir="$root/Tools/dev/fuzz"

seconds=60
target=ahap
jobs=1
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --target) target="${2:?--target needs ahap, haptic, hjif or audio}"; shift 2 ;;
        --target=*) target="${1#--target=}"; shift ;;
        --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
        --jobs=*) jobs="${1#--jobs=}"; shift ;;
        --) shift; extra=("$@"); break ;;
        -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *[!0-9]* | '') echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
        *) seconds="$1"; shift ;;
    esac
done
case "$target" in ahap | haptic | hjif | audio) ;; *) echo "fuzz.sh: --target must be ahap, haptic, hjif or audio" >&2; exit 64 ;; esac
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs must be a positive number" >&2; exit 64; }

# Build.
fuzzer_lib="$(ls /opt/swift/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1 || true)"
if [[ -z "$fuzzer_lib" ]]; then
    resource_dir="$(dirname "$(dirname "$(command -v swiftc)")")/lib/clang"
    fuzzer_lib="$(ls "$resource_dir"/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1 || true)"
fi
[[ -n "$fuzzer_lib" ]] || { echo "fuzz.sh: libclang_rt.fuzzer_no_main-x86_64.a not found in the Swift toolchain" >&2; exit 69; }
build=(swift build --package-path "$fuzzdir" -c release --product "thrum-fuzz-$target" --sanitize=address
    -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table
    -Xcc -fsanitize=fuzzer-no-link
    -Xlinker "$fuzzer_lib" -Xlinker -u -Xlinker LLVMFuzzerRunDriver -Xlinker -lstdc++)
echo "fuzz.sh: building thrum-fuzz-$target (release, ASan + libFuzzer)…" >&2
"${build[@]}" 2>&1 | { grep -v "Cannot export local symbol '__asan_extra_spill_area'" || true; } >&2
bin="$("${build[@]}" --show-bin-path)/thrum-fuzz-$target"

# Seeds.
corpus_root="${THRUM_CORPUS:-$(dirname "$root")/shared/corpus}"
work="$(mktemp -d "${TMPDIR:-/tmp}/thrum-fuzz-$target.XXXXXX")"
trap 'rm -rf "$work"' EXIT
corpus="$work/corpus"
mkdir -p "$corpus"
copy_seeds() { # PATTERN… : copies matching regular files, if any
    local file
    for file in "$@"; do [[ -f "$file" ]] && cp "$file" "$corpus/$(basename "$(dirname "$file")")__$(basename "$file")"; done
    return 0
}
flags=(-timeout=5 -rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1 -report_slow_units=1)
if [[ "$target" == ahap ]]; then
    copy_seeds "$root"/Resources/Patterns/*.ahap "$corpus_root"/ahap/* "$corpus_root"/ricochet/HapticPatterns/*
    flags+=(-dict="$fuzzdir/ahap.dict" -max_len=8192)
elif [[ "$target" == haptic ]]; then
    oracles="${THRUM_ORACLES:-$(dirname "$root")/shared/oracles}"
    copy_seeds "$root"/Tests/HapticFormatsTests/Fixtures/*.haptic "$oracles"/meta-haptics-sdk/test_files/*.haptic
    flags+=(-dict="$fuzzdir/haptic.dict" -max_len=8192)
elif [[ "$target" == hjif ]]; then
    swift build --package-path "$root" --product thrum >&2
    thrum="$(swift build --package-path "$root" --show-bin-path)/thrum"
    for pattern in "$root"/Resources/Patterns/*.ahap "$root"/Tests/HapticFormatsTests/Fixtures/*.haptic; do
        for ext in hjif hmpg; do "$thrum" convert "$pattern" -o "$corpus/$(basename "$pattern").$ext" >/dev/null 2>&1 || true; done
    done
    # A WaveletWave band (what MPEG's reference Encoder makes of a WAV): one SPIHT-coded block of 1024 samples.
    cat >"$corpus/wavelet.hjif" <<'SEED'
{"version": "2023", "profile": "Main", "level": 1, "date": "2026-12-06", "description": "", "timescale": 1000,
 "avatars": [], "syncs": [], "perceptions": [{"id": 0, "avatar_id": 0, "description": "",
 "perception_modality": "Vibrotactile", "reference_devices": [], "effect_library": [], "channels": [{"id": 0,
 "description": "", "gain": 1.0, "mixing_coefficient": 1.0, "body_part_mask": 0, "frequency_sampling": 8000,
 "sample_count": 1024, "bands": [{"band_type": "WaveletWave", "block_length": 128, "lower_frequency_limit": 72,
 "upper_frequency_limit": 8000, "effects": [{"effect_type": "Basis", "position": 0, "wavelet_stream":
 "qT0gI3Pi0WuOLBnv2/owZEEtjQAAAAA24UBInDO7gAAAAAM2t7//+osF7YQ6i+RT5c5JHGf9oAAAABjm8H6snKNwwZELQXAAArn///////////+"}]}]}]}]}
SEED
    "$thrum" convert "$corpus/wavelet.hjif" -o "$corpus/wavelet.hmpg" >/dev/null 2>&1 || true
    flags+=(-dict="$fuzzdir/hjif.dict" -max_len=16384)
else
    shopt -s globstar nullglob
    copy_seeds "$root"/Resources/Audio/* "$corpus_root"/**/*.wav
    shopt -u globstar nullglob
    if command -v sox >/dev/null; then
        for spec in "wav -b 16 -r 8000 -c 1" "wav -e floating-point -b 32 -r 44100 -c 2" "aiff -b 24 -r 22050 -c 1" \
            "flac -r 16000 -c 2" "ogg -r 22050 -c 1" "caf -r 48000 -c 1" "au -e mu-law -r 8000 -c 1" "wav -e ima-adpcm -r 8000 -c 1"; do
            read -r ext options <<<"$spec"
            sox -n $options "$corpus/sox-$(echo "$spec" | tr -c 'a-z0-9' '_').$ext" synth 0.05 sine 300 2>/dev/null || true
        done
    fi
    flags+=(-max_len=65536)
fi
echo "fuzz.sh: $(ls "$corpus" | wc -l) seed files; $seconds s on $jobs process(es)" >&2

# Run.
mkdir -p "$fuzzdir/crashes"
flags+=(-artifact_prefix="$fuzzdir/crashes/$target-")
pids=()
for ((job = 0; job < jobs; job++)); do
    log="$work/job$job.log"
    if [[ "$jobs" == 1 ]]; then
        "$bin" "${flags[@]}" "${extra[@]}" "$corpus" 2>&1 | tee "$log" >&2 &
    else
        "$bin" "${flags[@]}" "${extra[@]}" "$corpus" >"$log" 2>&1 &
    fi
    pids+=("$!")
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
if [[ "$jobs" != 1 ]]; then
    for ((job = 0; job < jobs; job++)); do
        echo "── job $job ──" >&2
        grep -E '^(stat::|INFO: Seed|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written|Slowest unit|.*ERROR)|DONE' \
            "$work/job$job.log" >&2 || true
    done
fi

# With `cmd | tee &`, $! is tee's: find libFuzzer's verdict in the logs instead.
failed=0
grep -qE 'Test unit written to|^==[0-9]+== ?ERROR|ERROR: libFuzzer|SUMMARY: (Address|Leak|libFuzzer)' "$work"/job*.log && failed=1
executed=$(cat "$work"/job*.log | awk "/^stat::number_of_executed_units/ {n += \$NF} END {print n + 0}")
slowest=$(cat "$work"/job*.log | sed -n 's/.*Slowest unit: \([0-9]*\) s.*/\1/p' | sort -n | tail -n 1)
echo "fuzz.sh: target $target, $seconds s, $jobs process(es): $executed executions (stat::number_of_executed_units)"
[[ -n "$slowest" ]] && echo "fuzz.sh: slowest input took ${slowest} s"
if [[ "$failed" == 0 ]] && grep -q 'libFuzzer: run interrupted' "$work"/job*.log; then
    echo "fuzz.sh: interrupted" >&2
    exit 130
fi
if [[ "$failed" == 1 || "$status" != 0 ]]; then
    echo "fuzz.sh: FOUND A PROBLEM; input(s) saved:" >&2
    grep -h 'Test unit written to' "$work"/job*.log >&2 || true
    ls -1 "$fuzzdir/crashes" >&2
    exit 1
fi
echo "fuzz.sh: no crash, hang, leak or out-of-memory input found"
