#include "CCoreDataFuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* libFuzzer's entry point for programs with their own main; present only when the program
 * is linked with libclang_rt.fuzzer_no_main. */
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))
    __attribute__((weak));

int cdfuzz_is_fuzzing(void) { return LLVMFuzzerRunDriver != NULL; }

static int replay_file(const char *path, cdfuzz_callback callback, size_t *count) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) { fprintf(stderr, "coredata-fuzz: cannot open %s\n", path); return 1; }
    size_t capacity = 4096, size = 0, got;
    uint8_t *data = malloc(capacity);
    while (data != NULL && (got = fread(data + size, 1, capacity - size, file)) > 0) {
        size += got;
        if (size == capacity) {
            uint8_t *grown = realloc(data, capacity * 2);
            if (grown == NULL) { free(data); data = NULL; break; }
            data = grown;
            capacity *= 2;
        }
    }
    fclose(file);
    if (data == NULL) { fprintf(stderr, "coredata-fuzz: out of memory reading %s\n", path); return 1; }
    callback(data, size);
    free(data);
    *count += 1;
    return 0;
}

static int replay(const char *path, cdfuzz_callback callback, size_t *count) {
    struct stat info;
    if (stat(path, &info) != 0) { fprintf(stderr, "coredata-fuzz: no such file %s\n", path); return 1; }
    if (!S_ISDIR(info.st_mode)) return replay_file(path, callback, count);
    DIR *folder = opendir(path);
    if (folder == NULL) { fprintf(stderr, "coredata-fuzz: cannot read %s\n", path); return 1; }
    int status = 0;
    struct dirent *entry;
    while ((entry = readdir(folder)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        size_t length = strlen(path) + strlen(entry->d_name) + 2;
        char *child = malloc(length);
        if (child == NULL) { status = 1; break; }
        snprintf(child, length, "%s/%s", path, entry->d_name);
        struct stat child_info;
        if (stat(child, &child_info) == 0 && S_ISREG(child_info.st_mode)) {
            status |= replay_file(child, callback, count);
        }
        free(child);
    }
    closedir(folder);
    return status;
}

int cdfuzz_main(int argc, char **argv, cdfuzz_callback callback) {
    if (LLVMFuzzerRunDriver != NULL) return LLVMFuzzerRunDriver(&argc, &argv, callback);
    size_t count = 0;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;
        status |= replay(argv[i], callback, &count);
    }
    printf("coredata-fuzz: replayed %zu inputs, no crash\n", count);
    return status;
}
