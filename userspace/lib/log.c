// SPDX-License-Identifier: Apache-2.0
/*
 * klog-format logging for userspace: see log.h.
 */
#include <stdarg.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lib/log.h"

int vsnl_log_verbosity;
FILE *vsnl_log_file;

void vsnl_log_print(char severity, const char *file, int line, const char *fmt, ...)
{
	FILE *out = vsnl_log_file ? vsnl_log_file : stderr;
	const char *base = strrchr(file, '/');
	struct timeval tv;
	struct tm tm;
	va_list ap;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	fprintf(out, "%c%02d%02d %02d:%02d:%02d.%06ld %7d %s:%d] ", severity, tm.tm_mon + 1,
		tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)tv.tv_usec, (int)getpid(),
		base ? base + 1 : file, line);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}
