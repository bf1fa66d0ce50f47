/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole files into memory: configuration files, scenarios, manifests. Read
 * to the end whatever size the file claims (/proc, pipes, standard input),
 * up to a bound, so that a file that keeps growing cannot take the memory.
 */
#ifndef VS_CORE_FILE_H
#define VS_CORE_FILE_H

#include <stddef.h>

#include "core/err.h"

/*
 * Read @fd to its end into a new buffer, NUL-terminated (the NUL not
 * counted in *@len); the caller frees *@out. More than @max bytes is
 * -EFBIG. Errors name the file as @name: "NAME: larger than MAX bytes",
 * "NAME: Input/output error". @fd is not closed.
 */
int vs_read_fd(int fd, const char *name, size_t max, char **out, size_t *len,
	       struct vs_err *err);

/* The same for the file at @path, opened and closed here; "-" is standard input. */
int vs_read_file(const char *path, size_t max, char **out, size_t *len, struct vs_err *err);

#endif /* VS_CORE_FILE_H */
