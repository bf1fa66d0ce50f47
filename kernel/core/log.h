/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Logging in klog's format, which Volcano users already grep:
 *
 *	I1123 01:35:00.123456   4242 allocate.c:212] Try to allocate resource to 3 tasks of Job <ns/pg>
 *
 * A severity letter (I, W, E), month and day, wall-clock time to the
 * microsecond, the thread (process) id, the source file and line, and the
 * text. Info lines have a verbosity: vs_v(3, ...) prints only at -v 3 and
 * above, as klog.V(3).Infof does; warnings and errors always print. The
 * check is one comparison, so verbose lines cost nothing when they are off.
 *
 * Everything goes to one FILE (stderr unless a program or a test says
 * otherwise). The core is single-threaded, so there is no locking.
 */
#ifndef VS_CORE_LOG_H
#define VS_CORE_LOG_H

#include <stdio.h>

#include "core/compiler.h"

extern int vs_log_verbosity;		/* -v N */
extern FILE *vs_log_file;		/* NULL: stderr */

__printf(4, 5)
void vs_log_print(char severity, const char *file, int line, const char *fmt, ...);

#define vs_v_enabled(level)	unlikely(vs_log_verbosity >= (level))

#define vs_v(level, ...) do {							\
	if (vs_v_enabled(level))						\
		vs_log_print('I', __FILE__, __LINE__, __VA_ARGS__);		\
} while (0)

#define vs_info(...)	vs_log_print('I', __FILE__, __LINE__, __VA_ARGS__)
#define vs_warn(...)	vs_log_print('W', __FILE__, __LINE__, __VA_ARGS__)
#define vs_error(...)	vs_log_print('E', __FILE__, __LINE__, __VA_ARGS__)

#endif /* VS_CORE_LOG_H */
