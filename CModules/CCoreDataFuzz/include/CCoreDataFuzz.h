/* The fuzzing driver of coredata-fuzz (issue 17): libFuzzer when the program is linked with
 * it, else a replay of inputs from files, so that the same program builds everywhere and
 * replays its corpus and every crash ever found as a regression check. */
#ifndef CCOREDATAFUZZ_H
#define CCOREDATAFUZZ_H

#include <stddef.h>
#include <stdint.h>

/** One input: returns 0 (libFuzzer's convention); a crash is a finding. */
typedef int (*cdfuzz_callback)(const uint8_t *data, size_t size);

/**
 * Runs libFuzzer's driver with @p argc and @p argv when the program is linked with
 * libclang_rt.fuzzer_no_main (scripts/fuzz.sh); otherwise calls @p callback once with the
 * contents of each file named by an argument that does not start with '-', or of each file
 * in a folder so named, and prints how many it replayed.
 * @return the driver's exit status; in replay mode 0, or 1 if a file cannot be read
 */
int cdfuzz_main(int argc, char **argv, cdfuzz_callback callback);

/** Whether the program is linked with libFuzzer (1) or replays files (0). */
int cdfuzz_is_fuzzing(void);

#endif
