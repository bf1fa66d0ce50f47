// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for whole-file reads (core/file.h): the bytes and a NUL after them,
 * the bound (a file of exactly the bound passes, one byte more is EFBIG,
 * whatever the file reports as its size), a pipe read to its end, and
 * errors that name the file; and the daemon's files, regular or refused
 * at once, whichever way they are opened.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "core/file.h"

static char path[64];

static void setup(void)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/vs-file-test-XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
}

static void teardown(void)
{
	unlink(path);
}

TestSuite(file, .init = setup, .fini = teardown);

/* @path holds @n bytes, 'a' then 'b'... */
static void fill(size_t n)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	for (size_t i = 0; i < n; i++)
		fputc('a' + (int)(i % 26), f);
	cr_assert_eq(fclose(f), 0);
}

Test(file, a_file_comes_whole_and_nul_terminated)
{
	struct vs_err err = { { 0 } };
	size_t len = 0;
	char *buf;

	fill(100000);		/* several reads, several reallocations */
	cr_assert_eq(vs_read_file(path, 1 << 20, &buf, &len, &err), 0, "%s", err.msg);
	cr_assert_eq(len, 100000);
	cr_assert_eq(buf[0], 'a');
	cr_assert_eq(buf[99999], 'a' + 99999 % 26);
	cr_assert_eq(buf[len], '\0');
	free(buf);
}

Test(file, the_bound_is_exact)
{
	struct vs_err err = { { 0 } };
	char *buf = NULL, want[128];
	size_t len;

	fill(4096);
	cr_assert_eq(vs_read_file(path, 4096, &buf, &len, &err), 0, "%s", err.msg);
	cr_assert_eq(len, 4096);
	free(buf);
	buf = NULL;
	cr_assert_eq(vs_read_file(path, 4095, &buf, &len, &err), -EFBIG);
	cr_assert_null(buf);
	snprintf(want, sizeof(want), "%s: larger than 4095 bytes", path);
	cr_assert_str_eq(err.msg, want);
	/* an empty file is an empty string */
	fill(0);
	cr_assert_eq(vs_read_file(path, 10, &buf, &len, &err), 0, "%s", err.msg);
	cr_assert_eq(len, 0);
	cr_assert_str_eq(buf, "");
	free(buf);
}

Test(file, a_pipe_is_read_to_its_end)
{
	struct vs_err err = { { 0 } };
	int p[2];
	size_t len;
	char *buf;

	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(write(p[1], "hello, ", 7), 7);
	cr_assert_eq(write(p[1], "world", 5), 5);
	close(p[1]);
	cr_assert_eq(vs_read_fd(p[0], "the pipe", 64, &buf, &len, &err), 0, "%s", err.msg);
	close(p[0]);
	cr_assert_eq(len, 12);
	cr_assert_str_eq(buf, "hello, world");
	free(buf);
}

Test(file, errors_name_the_file)
{
	struct vs_err err = { { 0 } };
	char *buf = NULL;
	size_t len;

	cr_assert_eq(vs_read_file("/nonexistent/x.conf", 10, &buf, &len, &err), -ENOENT);
	cr_assert_str_eq(err.msg, "/nonexistent/x.conf: No such file or directory");
	vs_err_clear(&err);
	cr_assert_eq(vs_read_file("/tmp", 10, &buf, &len, &err), -EISDIR);
	cr_assert_str_eq(err.msg, "/tmp: Is a directory");
	cr_assert_null(buf);
}

/* A FIFO nobody opens: refused at once to be read or written, never waited on. */
Test(file, only_a_regular_file_is_opened_and_a_fifo_never_waited_on, .timeout = 10)
{
	struct vs_err err = { { 0 } };
	char fifo[80], want[128];
	char *buf = NULL;
	size_t len;
	int fd;

	fill(5);
	cr_assert_eq(vs_read_regular_file(path, 64, &buf, &len, &err), 0, "%s", err.msg);
	cr_assert_str_eq(buf, "abcde");
	free(buf);
	buf = NULL;
	fd = vs_open_regular(path, O_WRONLY | O_CREAT | O_TRUNC, 0600, &err);
	cr_assert_geq(fd, 0, "%s", err.msg);
	cr_assert_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	close(fd);

	snprintf(fifo, sizeof(fifo), "%s.fifo", path);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	snprintf(want, sizeof(want), "%s: a FIFO, not a regular file", fifo);
	cr_assert_eq(vs_read_regular_file(fifo, 64, &buf, &len, &err), -EINVAL);
	cr_assert_str_eq(err.msg, want);
	vs_err_clear(&err);
	cr_assert_eq(vs_open_regular(fifo, O_WRONLY | O_CREAT | O_TRUNC, 0600, &err), -EINVAL);
	cr_assert_str_eq(err.msg, want);
	unlink(fifo);
	vs_err_clear(&err);
	cr_assert_eq(vs_read_regular_file("/tmp", 64, &buf, &len, &err), -EISDIR);
	cr_assert_str_eq(err.msg, "/tmp: a directory, not a regular file");
	cr_assert_null(buf);
}
