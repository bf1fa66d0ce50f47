/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The heap the process holds, as its allocator counts it, and a cap on it.
 *
 * vs_mem_allocated() is the bytes allocated and not yet freed: jemalloc's
 * per-thread counters (thread.allocatedp and thread.deallocatedp, read
 * through pointers taken once, so a read is two loads), or under
 * AddressSanitizer its own count. It is meant for a single-threaded
 * process such as vschedd, whose one thread allocates and frees
 * everything. Pool slabs, arena chunks, tables and strings are all in it;
 * code, stacks, mapped files and the allocator's own fragmentation are
 * not, so the resident set runs somewhat above it.
 */
#ifndef VS_CORE_MEM_H
#define VS_CORE_MEM_H

#include <stdbool.h>
#include "core/compiler.h"

/* The bytes held now; 0 when the allocator gives no count (vs_mem_counted()). */
u64 vs_mem_allocated(void);

/*
 * Whether vs_mem_allocated() means anything here: an allocator that counts
 * ("jemalloc", "AddressSanitizer" in @source) and a count above zero, which
 * a process that has allocated anything has. Under valgrind, which replaces
 * jemalloc's malloc and leaves its counters at zero, it is false.
 */
bool vs_mem_counted(const char **source);

/* A cap on the heap: vschedd --max-memory. */
struct vs_mem_cap {
	u64 max;			/* bytes; 0: no cap */
	u64 (*used)(void);		/* the count; NULL: vs_mem_allocated() (tests step theirs) */
	/*
	 * Heap held for others and bounded on its own (vschedd: the
	 * connections' out-queues, as a socket's receive queue is charged
	 * to the socket), taken off the count; NULL: none.
	 */
	const u64 *charged;
};

/* Whether @cap is reached (NULL or max 0: never), with the count in *@used. */
static inline bool vs_mem_cap_reached(const struct vs_mem_cap *cap, u64 *used)
{
	if (!cap || !cap->max)
		return false;
	*used = cap->used ? cap->used() : vs_mem_allocated();
	if (cap->charged)
		*used -= *cap->charged < *used ? *cap->charged : *used;
	return *used >= cap->max;
}

#endif /* VS_CORE_MEM_H */
