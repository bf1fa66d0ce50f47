/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Userspace's log, in the klog format the core's log (kernel/core/log.h)
 * writes and Volcano users already grep:
 *
 *	I1123 01:35:00.123456   4242 kstatus.c:225] Updated the status of PodGroup ns/pg
 *
 * A severity letter (I, W, E), month and day, wall-clock time to the
 * microsecond, the process id, the source file and line, and the text.
 * vsnl_v(3, ...) prints only at -v 3 and above, as klog.V(3).Infof does;
 * warnings and errors always print. It is libvsnl's own so that a long
 * running program (vskube) logs without the core (Documentation/
 * architecture.md, "Userspace"); the two write the same lines, so a
 * program that still links the core for part of its work logs as one.
 */
#ifndef VSNL_LOG_H
#define VSNL_LOG_H

#include <stdio.h>

#include "lib/compiler.h"

extern int vsnl_log_verbosity;		/* -v N */
extern FILE *vsnl_log_file;		/* NULL: stderr */

__printf(4, 5)
void vsnl_log_print(char severity, const char *file, int line, const char *fmt, ...);

#define vsnl_v_enabled(level)	__builtin_expect(vsnl_log_verbosity >= (level), 0)

#define vsnl_v(level, ...) do {							\
	if (vsnl_v_enabled(level))						\
		vsnl_log_print('I', __FILE__, __LINE__, __VA_ARGS__);		\
} while (0)

#define vsnl_info(...)	vsnl_log_print('I', __FILE__, __LINE__, __VA_ARGS__)
#define vsnl_warn(...)	vsnl_log_print('W', __FILE__, __LINE__, __VA_ARGS__)
#define vsnl_error(...)	vsnl_log_print('E', __FILE__, __LINE__, __VA_ARGS__)

#endif /* VSNL_LOG_H */
