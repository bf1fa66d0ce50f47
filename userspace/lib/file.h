/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A file read whole into memory by a client: a manifest, a kubeconfig, a
 * configuration to send. Read to its end whatever size the file claims
 * (pipes, standard input, /proc), up to a bound.
 */
#ifndef VSNL_FILE_H
#define VSNL_FILE_H

#include <stddef.h>

#include "lib/vsnl.h"

/* "-" is standard input. */
#define VSNL_FILE_STDIN		0x1
/*
 * A regular file only: a FIFO, a device, a socket or a directory is refused
 * before it is opened (a device is not opened at all), or after, if one was
 * put at the path in between (it is opened without blocking to see that).
 */
#define VSNL_FILE_REGULAR	0x2

/*
 * The file at @path in a new buffer, NUL-terminated (the NUL not counted in
 * *@len); the caller frees *@out. 0, or -errno with @err naming the path:
 * "PATH: larger than MAX bytes", "PATH: a FIFO, not a regular file",
 * "PATH: No such file or directory".
 */
int vsnl_read_file(const char *path, size_t max, unsigned int flags, char **out, size_t *len,
		   struct vsnl_err *err);

#endif /* VSNL_FILE_H */
