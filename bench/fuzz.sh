#!/usr/bin/env bash
# Runs the mutation fuzzer (Sources/healthaudit-fuzz) over every reader of untrusted input.
#
#   bash bench/fuzz.sh                      # 600 s per target, two targets at a time
#   FUZZ_SECONDS=60 bash bench/fuzz.sh plist markdown
#
# Each target runs as a subprocess of a release build. A trap (crash) kills only that subprocess:
# the input it was running is kept as .build/fuzz/<target>.crash-<seed> and the target restarts
# with the next seed until its time is up. A failed check (not a crash) keeps its input as
# .build/fuzz/<target>.finding. Reproduce either with
#   .build/release/healthaudit-fuzz --target <target> --reproduce <file>
# Env: FUZZ_SECONDS (600), FUZZ_JOBS (2), FUZZ_SEED (1).
set -u
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${FUZZ_SECONDS:-600}
JOBS=${FUZZ_JOBS:-2}
FIRST_SEED=${FUZZ_SEED:-1}
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(plist strings config markdown xcode swift tuist javascript http xcodegen xcstrings results)
WORK=.build/fuzz
mkdir -p "$WORK"

swift build -c release --product healthaudit-fuzz >&2 || exit 1
BIN=.build/release/healthaudit-fuzz

run_target() { # target → writes $WORK/<target>.summary
    local target=$1 seed=$FIRST_SEED iterations=0 crashes=0 findings=0 started=$(date +%s)
    local log="$WORK/$target.log"
    : > "$log"
    while :; do
        local left=$(( SECONDS_PER_TARGET - ($(date +%s) - started) ))
        [ "$left" -le 0 ] && break
        "$BIN" --target "$target" --seconds "$left" --seed "$seed" --work "$WORK" > "$WORK/$target.run" 2>&1
        local status=$?
        cat "$WORK/$target.run" >> "$log"
        local result count
        result=$(grep '^RESULT' "$WORK/$target.run" | tail -1)
        if [ -n "$result" ]; then
            count=$(sed -E 's/.*iterations=([0-9]+).*/\1/' <<<"$result")
            iterations=$((iterations + count))
            if grep -q 'findings=1' <<<"$result"; then
                findings=$((findings + 1))
                cp "$WORK/$target.finding" "$WORK/$target.finding-$seed"
                echo "$target: finding with seed $seed, input kept as $WORK/$target.finding-$seed" >&2
            fi
        elif [ "$status" -gt 128 ] || [ "$status" -ne 0 ]; then
            crashes=$((crashes + 1))
            cp "$WORK/$target.current" "$WORK/$target.crash-$seed"
            count=$(grep -Eo '^  [0-9]+ iterations' "$WORK/$target.run" | tail -1 | grep -Eo '[0-9]+' || echo 0)
            iterations=$((iterations + ${count:-0}))
            echo "$target: CRASH (exit $status) with seed $seed, input kept as $WORK/$target.crash-$seed" >&2
        fi
        seed=$((seed + 1))
    done
    echo "$target $iterations $(( $(date +%s) - started )) $crashes $findings" > "$WORK/$target.summary"
}

running=0
for target in "${TARGETS[@]}"; do
    rm -f "$WORK/$target.summary"
    echo "fuzzing $target for ${SECONDS_PER_TARGET}s" >&2
    run_target "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait

printf '%-10s %12s %8s %8s %9s\n' target iterations seconds crashes findings
status=0
for target in "${TARGETS[@]}"; do
    read -r name iterations secs crashes findings < "$WORK/$target.summary"
    printf '%-10s %12s %8s %8s %9s\n' "$name" "$iterations" "$secs" "$crashes" "$findings"
    [ "$crashes" -gt 0 ] || [ "$findings" -gt 0 ] && status=1
done
exit $status
