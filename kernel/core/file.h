/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole files into memory: configuration files, scenarios, manifests. Read
 * to the end whatever size the file claims (/proc, pipes, standard input),
 * up to a bound, so that a file that keeps growing cannot take the memory.
 *
 * The daemon's own files (its configuration, its checkpoint) are regular
 * files and nothing else: a FIFO or a device put at their path would hold
 * it in open() or read() until a writer came, with every client waiting.
 * vs_open_regular() opens them without blocking and refuses anything else.
 */
#ifndef VS_CORE_FILE_H
#define VS_CORE_FILE_H

#include <stddef.h>
#include <sys/types.h>

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

/*
 * open(@path, @flags, @mode) of a regular file, never blocking: anything
 * else is refused before it is opened when it can be seen (a device is
 * not opened at all) and after, by fstat(), when it was swapped in
 * between. The descriptor, O_CLOEXEC; or -EISDIR for a directory, -EINVAL
 * for any other kind ("PATH: a FIFO, not a regular file"), or open()'s
 * error ("PATH: No such file or directory").
 */
int vs_open_regular(const char *path, int flags, mode_t mode, struct vs_err *err);

/* vs_read_file() of a regular file only (vs_open_regular()): no "-", no pipe. */
int vs_read_regular_file(const char *path, size_t max, char **out, size_t *len,
			 struct vs_err *err);

#endif /* VS_CORE_FILE_H */
