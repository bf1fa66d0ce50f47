// SPDX-License-Identifier: Apache-2.0
/*
 * Whole files into memory: see file.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/compiler.h"
#include "core/file.h"

int vs_read_fd(int fd, const char *name, size_t max, char **out, size_t *len,
	       struct vs_err *err)
{
	size_t n = 0, cap = min_t(size_t, max, 16u << 10) + 1;
	char *buf = malloc(cap), *bigger;
	ssize_t r;

	if (!buf)
		return vs_err_set(err, ENOMEM, "%s: out of memory", name);
	for (;;) {
		/* One byte past @max tells a file of @max bytes from a larger one. */
		if (n == cap - 1) {
			if (n > max) {
				free(buf);
				return vs_err_set(err, EFBIG, "%s: larger than %zu bytes", name, max);
			}
			cap = min_t(size_t, 2 * cap, max + 2);
			bigger = realloc(buf, cap);
			if (!bigger) {
				free(buf);
				return vs_err_set(err, ENOMEM, "%s: out of memory", name);
			}
			buf = bigger;
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			return vs_err_set(err, e, "%s: %s", name, strerror(e));
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		free(buf);
		return vs_err_set(err, EFBIG, "%s: larger than %zu bytes", name, max);
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int vs_read_file(const char *path, size_t max, char **out, size_t *len, struct vs_err *err)
{
	int fd, ret;

	if (!strcmp(path, "-"))
		return vs_read_fd(STDIN_FILENO, path, max, out, len, err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return vs_err_set(err, errno, "%s: %s", path, strerror(errno));
	ret = vs_read_fd(fd, path, max, out, len, err);
	close(fd);
	return ret;
}
