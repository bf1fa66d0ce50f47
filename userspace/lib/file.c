// SPDX-License-Identifier: Apache-2.0
/*
 * A file read whole by a client. See file.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"

/* What a path is when it is not a regular file, for the message. */
static const char *not_regular(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:	return "a directory";
	case S_IFIFO:	return "a FIFO";
	case S_IFCHR:	return "a character device";
	case S_IFBLK:	return "a block device";
	case S_IFSOCK:	return "a socket";
	default:	return "a special file";
	}
}

static int refuse(const char *path, mode_t mode, struct vsnl_err *err)
{
	return vsnl_err_set(err, S_ISDIR(mode) ? EISDIR : EINVAL, "%s: %s, not a regular file",
			    path, not_regular(mode));
}

/* @path opened for reading under @flags: a descriptor, or -errno with @err. */
static int open_for_read(const char *path, unsigned int flags, struct vsnl_err *err)
{
	int oflags = O_RDONLY | O_CLOEXEC, fd;
	struct stat st;

	if (flags & VSNL_FILE_REGULAR) {
		/* Opening a device may do something (a tape rewinds): look first. */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
			return refuse(path, st.st_mode, err);
		/* A FIFO put there since opens at once, and is refused below. */
		oflags |= O_NONBLOCK | O_NOCTTY;
	}
	fd = open(path, oflags);
	if (fd < 0)
		return vsnl_err_set(err, errno, "%s: %s", path, strerror(errno));
	if (!(flags & VSNL_FILE_REGULAR))
		return fd;
	if (fstat(fd, &st) != 0) {
		int e = errno;

		close(fd);
		return vsnl_err_set(err, e, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse(path, st.st_mode, err);
	}
	return fd;
}

/* @fd to its end, at most @max bytes, into *@out. */
static int read_all(int fd, const char *path, size_t max, char **out, size_t *len,
		    struct vsnl_err *err)
{
	size_t have = 0, room = 4096;
	char *buf = NULL;

	for (;;) {
		ssize_t got;

		/* Room for one byte past @max (to see that it is past) and the NUL. */
		if (room - have < 2 || !buf) {
			char *more;

			if (buf)
				room *= 2;
			if (room > max + 2)
				room = max + 2;
			more = realloc(buf, room);
			if (!more) {
				free(buf);
				return vsnl_err_set(err, ENOMEM, "%s: out of memory", path);
			}
			buf = more;
		}
		got = read(fd, buf + have, room - 1 - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			return vsnl_err_set(err, e, "%s: %s", path, strerror(e));
		}
		have += (size_t)got;
		if (have > max) {
			free(buf);
			return vsnl_err_set(err, EFBIG, "%s: larger than %zu bytes", path, max);
		}
		if (got == 0)
			break;
	}
	buf[have] = '\0';
	*out = buf;
	*len = have;
	return 0;
}

int vsnl_read_file(const char *path, size_t max, unsigned int flags, char **out, size_t *len,
		   struct vsnl_err *err)
{
	int fd, ret;

	if ((flags & VSNL_FILE_STDIN) && strcmp(path, "-") == 0)
		return read_all(STDIN_FILENO, path, max, out, len, err);
	fd = open_for_read(path, flags, err);
	if (fd < 0)
		return fd;
	ret = read_all(fd, path, max, out, len, err);
	close(fd);
	return ret;
}
