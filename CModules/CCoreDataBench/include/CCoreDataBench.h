/* What coredata-bench needs from C that Swift's Glibc module does not give it. */
#ifndef CCOREDATABENCH_H
#define CCOREDATABENCH_H

#include <stddef.h>

/**
 * Bytes the process's heap has handed out and not taken back: glibc's mallinfo2()
 * allocated arena bytes (uordblks) plus blocks mapped on their own (hblkhd). Unlike resident
 * memory it does not count what malloc keeps for reuse after a free.
 * @return the bytes in use, or 0 where mallinfo2() is missing (glibc before 2.33)
 */
size_t cdbench_heap_in_use(void);

#endif
