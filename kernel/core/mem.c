// SPDX-License-Identifier: Apache-2.0
/*
 * The count of the heap held, from whichever allocator the build links
 * (Makefile: VS_HAVE_JEMALLOC, or AddressSanitizer's in SANITIZE and FUZZ
 * builds).
 */
#include "core/mem.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VS_MEM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define VS_MEM_ASAN 1
#endif

#if defined(VS_MEM_ASAN)
#include <stddef.h>

/* The runtime's (GCC ships no allocator_interface.h to declare it). */
size_t __sanitizer_get_current_allocated_bytes(void);

#define MEM_SOURCE "AddressSanitizer"

u64 vs_mem_allocated(void)
{
	return __sanitizer_get_current_allocated_bytes();
}
#elif defined(VS_HAVE_JEMALLOC)
#include <stddef.h>
#include <stdint.h>
#include <jemalloc/jemalloc.h>

#define MEM_SOURCE "jemalloc"

/* The calling thread's counters, taken once; NULL: jemalloc keeps none. */
static const uint64_t *allocatedp, *deallocatedp;
static bool looked;

u64 vs_mem_allocated(void)
{
	if (unlikely(!looked)) {
		size_t len = sizeof(allocatedp);

		looked = true;
		if (mallctl("thread.allocatedp", &allocatedp, &len, NULL, 0) ||
		    mallctl("thread.deallocatedp", &deallocatedp, &len, NULL, 0))
			allocatedp = deallocatedp = NULL;
	}
	if (!allocatedp)
		return 0;
	return *allocatedp - *deallocatedp;
}
#else
u64 vs_mem_allocated(void)
{
	return 0;
}
#endif

bool vs_mem_counted(const char **source)
{
#ifdef MEM_SOURCE
	if (source)
		*source = MEM_SOURCE;
	return vs_mem_allocated() > 0;
#else
	if (source)
		*source = NULL;
	return false;
#endif
}
