// SPDX-License-Identifier: Apache-2.0
/*
 * Whole files into memory: see file.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a special file";
}

static int refuse_kind(const char *path, mode_t mode, struct vs_err *err)
{
	return vs_err_set(err, S_ISDIR(mode) ? EISDIR : EINVAL, "%s: %s, not a regular file",
			  path, file_kind(mode));
}

int vs_open_regular(const char *path, int flags, mode_t mode, struct vs_err *err)
{
	struct stat st;
	int fd;

	/* Opening a device may do something (a tape rewinds, a watchdog starts): look first. */
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return refuse_kind(path, st.st_mode, err);
	/* Swapped in since: O_NONBLOCK opens a FIFO at once, fstat() refuses it. */
	fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode);
	if (fd < 0)
		return vs_err_set(err, errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		return vs_err_set(err, e, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse_kind(path, st.st_mode, err);
	}
	return fd;
}

int vs_read_regular_file(const char *path, size_t max, char **out, size_t *len,
			 struct vs_err *err)
{
	int fd = vs_open_regular(path, O_RDONLY, 0, err), ret;

	if (fd < 0)
		return fd;
	/* O_NONBLOCK stays: a regular file's read() does not heed it. */
	ret = vs_read_fd(fd, path, max, out, len, err);
	close(fd);
	return ret;
}
