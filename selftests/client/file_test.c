// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl's whole-file reader: what it reads, its bound, standard input,
 * and what it refuses when a regular file is asked for, each answered as
 * the core's reader answers the daemon (vsctl conf set reads the file the
 * daemon would take), message for message.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "core/file.h"
#include "lib/file.h"

static char dir[] = "/tmp/vsnl-file-XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

/* What the tests make: "f" and "fifo". */
static void teardown(void)
{
	static const char *const made[] = { "f", "fifo" };
	char path[128];

	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
		cr_assert(unlink(path) == 0 || errno == ENOENT, "%s: %s", path, strerror(errno));
	}
	cr_assert_eq(rmdir(dir), 0, "%s: %s", dir, strerror(errno));
}

TestSuite(client_file, .init = setup, .fini = teardown);

/* DIR/NAME holding @n bytes of a pattern; its path in @path. */
static void make_file(char *path, size_t size, const char *name, size_t n)
{
	FILE *f;

	snprintf(path, size, "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	for (size_t i = 0; i < n; i++)
		fputc('a' + (int)(i % 26), f);
	cr_assert_eq(fclose(f), 0);
}

/* Both readers of a regular file at @path, bounded by @max, agree. */
static int both(const char *path, size_t max, char **text, size_t *len, struct vsnl_err *e)
{
	struct vs_err ce = { { 0 } };
	char *ctext = NULL;
	size_t clen = 0;
	int core = vs_read_regular_file(path, max, &ctext, &clen, &ce);
	int client = vsnl_read_file(path, max, VSNL_FILE_REGULAR, text, len, e);

	cr_assert_eq(client, core, "%s: the client answers %d, the core %d", path, client, core);
	if (core) {
		cr_assert_str_eq(e->msg, ce.msg);
	} else {
		cr_assert_eq(*len, clen);
		cr_assert_eq(memcmp(*text, ctext, clen + 1), 0);
	}
	free(ctext);
	return client;
}

Test(client_file, a_file_is_read_whole_and_ends_in_a_nul_up_to_its_bound)
{
	static const size_t sizes[] = { 0, 1, 4095, 4096, 4097, 10000, 70000 };
	char path[128], *text = NULL;
	struct vsnl_err e = { 0 };
	size_t len = 0;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		make_file(path, sizeof(path), "f", sizes[i]);
		cr_assert_eq(both(path, sizes[i], &text, &len, &e), 0, "%zu bytes", sizes[i]);
		cr_assert_eq(len, sizes[i]);
		cr_assert_eq(text[len], '\0');
		cr_assert(len == 0 || text[len - 1] == 'a' + (int)((len - 1) % 26));
		free(text);
		text = NULL;
		e = (struct vsnl_err){ 0 };
		cr_assert_eq(both(path, sizes[i] ? sizes[i] - 1 : 0, &text, &len, &e),
			     sizes[i] ? -EFBIG : 0, "%zu bytes", sizes[i]);
		if (sizes[i])
			cr_assert(strstr(e.msg, "larger than"), "%s", e.msg);
		free(text);
		text = NULL;
		e = (struct vsnl_err){ 0 };
	}
}

Test(client_file, what_is_not_a_regular_file_is_refused_at_once_and_named)
{
	char fifo[128], missing[128], *text = NULL;
	struct vsnl_err e = { 0 };
	size_t len = 0;

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	/* no writer: a reader that opened it blocking would wait here for ever */
	cr_assert_eq(both(fifo, 100, &text, &len, &e), -EINVAL);
	cr_assert(strstr(e.msg, ": a FIFO, not a regular file"), "%s", e.msg);
	e = (struct vsnl_err){ 0 };
	cr_assert_eq(both(dir, 100, &text, &len, &e), -EISDIR);
	cr_assert(strstr(e.msg, ": a directory, not a regular file"), "%s", e.msg);
	e = (struct vsnl_err){ 0 };
	snprintf(missing, sizeof(missing), "%s/none", dir);
	cr_assert_eq(both(missing, 100, &text, &len, &e), -ENOENT);
	cr_assert(strstr(e.msg, "none: No such file or directory"), "%s", e.msg);
}

Test(client_file, standard_input_is_read_when_asked_for)
{
	static const char msg[] = "apiVersion: v1\nkind: Node\n";
	struct vsnl_err e = { 0 };
	char *text = NULL;
	size_t len = 0;
	int p[2];

	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(write(p[1], msg, strlen(msg)), (ssize_t)strlen(msg));
	cr_assert_eq(close(p[1]), 0);
	cr_assert_eq(dup2(p[0], STDIN_FILENO), STDIN_FILENO);
	cr_assert_eq(vsnl_read_file("-", 1000, VSNL_FILE_STDIN, &text, &len, &e), 0, "%s", e.msg);
	cr_assert_eq(len, strlen(msg));
	cr_assert_str_eq(text, msg);
	free(text);
	/* without the flag "-" is a file's name like any other */
	cr_assert_eq(chdir(dir), 0);
	cr_assert_eq(vsnl_read_file("-", 1000, 0, &text, &len, &e), -ENOENT);
	cr_assert_str_eq(e.msg, "-: No such file or directory");
}
