/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The old manifest reader's answers, kept (selftests/manifest/golden/):
 * for each kind, what a vschedd listed ("vsctl KIND list -o json") after
 * the old reader (userspace/kube/manifest.c) sent it, file by file, the
 * objects of that kind and of the kinds before it of every manifest the
 * tests have (selftests/manifests/ and the fuzz corpus of manifests), and
 * what the daemon answered each file's batch. The daemon's state carries
 * from file to file (a queue "default" in two files: the second is
 * refused), so the files' order is part of the answers: the order the
 * test before them read the directories in, kept in the answers.
 * kread_daemon_test.c holds the reader without the core to them. The old
 * reader that wrote them is gone (with manifest_golden_test.c, which held
 * it to them and wrote them): they are the record of what vsched did
 * before, changed by hand, with the reason in the commit, where a change
 * of the daemon's listings is meant.
 *
 * A kind's answers, golden/KIND.answers, one line per file:
 *
 *	PATH<TAB>NR<TAB>RET[<TAB>MESSAGE]
 *
 * PATH under selftests/; NR the objects of the kind sent, RET and MESSAGE
 * the batch's answer, the message at fault named by its place in the
 * batch ("-" for NR and RET: the file was not sent, the old reader
 * refused it or kread could not read its documents). A manifest added
 * later has no answer, and is not compared. Its listings:
 * golden/KIND.GROUP.json.
 */
#ifndef SELFTESTS_MANIFEST_GOLDEN_H
#define SELFTESTS_MANIFEST_GOLDEN_H

#include <dirent.h>
#include <libgen.h>
#include <limits.h>

#include "../daemon/dtest.h"
#include "kube/kread.h"
#include "lib/file.h"
#include "lib/vsnl.h"

/* What the tests have of manifests, under selftests/. */
static const char *const gd_dirs[] = { "manifests", "fuzz/corpus/manifest" };

/* The kinds, as the golden files name them, and the groups of vsctl that list them. */
static const struct gd_kind {
	const char *name;
	const char *groups[2];
} gd_kinds[KR_NR_KINDS] = {
	[KR_PRIOCLASS] = { "prioclasses", { "prioclass" } },
	[KR_QUEUE] = { "queues", { "queue" } },
	[KR_NODE] = { "nodes", { "node" } },
	[KR_PODGROUP] = { "podgroups", { "podgroup" } },
	[KR_VJOB] = { "vjobs", { "job" } },
	[KR_POD] = { "pods", { "task", "podgroup" } },
};

static struct dtest gd_d;
static char gd_vsctl[PATH_MAX], gd_srcdir[PATH_MAX];

/* One daemon, with vsctl beside the test binary and selftests/ found from this file. */
static inline void gd_init(void)
{
	struct vschedd_opts o = { .period_ms = 0 };
	char exe[PATH_MAX], src[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	cr_assert_gt(n, 0);
	exe[n] = '\0';
	/* the binary is OBJ/selftests/vs-selftests, vsctl is OBJ/vsctl */
	snprintf(gd_vsctl, sizeof(gd_vsctl), "%s/../vsctl", dirname(exe));
	cr_assert_eq(access(gd_vsctl, X_OK), 0, "no vsctl at %s", gd_vsctl);
	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(gd_srcdir, sizeof(gd_srcdir), "%s/..", dirname(src));
	dt_start(&gd_d, &o);
}

static inline void gd_fini(void)
{
	dt_cleanup(&gd_d);
}

/* The path of the golden file "KIND@suffix". */
static inline void gd_path(enum kr_kind kind, const char *suffix, char *out, size_t size)
{
	snprintf(out, size, "%s/manifest/golden/%s%s", gd_srcdir, gd_kinds[kind].name, suffix);
}

/* A golden file's text, whole. */
static inline char *gd_load(enum kr_kind kind, const char *suffix)
{
	struct vsnl_err err = { 0 };
	char path[PATH_MAX + 128];
	char *text = NULL;
	size_t len = 0;

	gd_path(kind, suffix, path, sizeof(path));
	cr_assert_eq(vsnl_read_file(path, 1 << 24, VSNL_FILE_REGULAR, &text, &len, &err), 0,
		     "%s", err.msg);
	return text;
}

/* Whether @name is among the first @nr of @v. */
static inline bool gd_has(char **v, u32 nr, const char *name)
{
	for (u32 i = 0; i < nr; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

static inline void gd_files_add(char ***v, u32 *nr, const char *name, size_t len)
{
	*v = realloc(*v, (*nr + 2) * sizeof(**v));
	cr_assert_not_null(*v);
	(*v)[*nr] = strndup(name, len);
	cr_assert_not_null((*v)[*nr]);
	(*v)[++*nr] = NULL;
}

/*
 * The manifests @kind's answers name, as "DIR/NAME" under selftests/, in
 * their order; with @others, then every other manifest the tests have, in
 * the order of gd_dirs and of each directory's entries (the order the
 * first answers were written in, as the test before them read the
 * directories). NULL-terminated, each and the array free()d by
 * gd_files_free(). The daemon's state carries from file to file, so the
 * order is kept, and a manifest added since is only compared once the
 * answers are written again.
 */
static inline char **gd_files(enum kr_kind kind, bool others)
{
	char path[PATH_MAX + 128];
	char **v = NULL;
	u32 nr = 0;

	gd_path(kind, ".answers", path, sizeof(path));
	if (!access(path, F_OK)) {
		char *answers = gd_load(kind, ".answers");

		for (char *line = answers; *line; ) {
			char *end = strchr(line, '\n');

			gd_files_add(&v, &nr, line, strcspn(line, "\t\n"));
			line = end ? end + 1 : line + strlen(line);
		}
		free(answers);
	}
	for (u32 i = 0; others && i < ARRAY_SIZE(gd_dirs); i++) {
		char dir[PATH_MAX + 64];
		struct dirent *de;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/%s", gd_srcdir, gd_dirs[i]);
		d = opendir(dir);
		cr_assert_not_null(d, "%s", dir);
		while ((de = readdir(d))) {
			char name[PATH_MAX];

			if (de->d_name[0] == '.')
				continue;
			snprintf(name, sizeof(name), "%s/%s", gd_dirs[i], de->d_name);
			if (!gd_has(v, nr, name))
				gd_files_add(&v, &nr, name, strlen(name));
		}
		closedir(d);
	}
	cr_assert_gt(nr, 10);
	return v;
}

static inline void gd_files_free(char **v)
{
	for (u32 i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

/* The text of @file (under selftests/); NULL when it is no regular file. */
static inline char *gd_read(const char *file, size_t *len)
{
	struct vsnl_err err = { 0 };
	char path[PATH_MAX + 64];
	char *text = NULL;

	snprintf(path, sizeof(path), "%s/%s", gd_srcdir, file);
	*len = 0;
	if (vsnl_read_file(path, 1 << 24, VSNL_FILE_REGULAR, &text, len, &err))
		return NULL;
	return text;
}

/* "vsctl @group list -o json" of the test's daemon. */
static inline char *gd_list(const char *group)
{
	char *cmd, *out = NULL;
	size_t cap = 0, len = 0;
	FILE *p;

	cr_assert_geq(asprintf(&cmd, "VSCHED_SOCKET='%s' '%s' %s list -o json", gd_d.path,
			       gd_vsctl, group), 0);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	for (;;) {
		size_t n;

		if (len + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			out = realloc(out, cap);
			cr_assert_not_null(out);
		}
		n = fread(out + len, 1, 4096, p);
		if (!n)
			break;
		len += n;
	}
	out[len] = '\0';
	cr_assert_eq(pclose(p), 0, "%s", cmd);
	free(cmd);
	return out;
}

/* One file's answer, as a line of KIND.answers. */
struct gd_answer {
	bool sent;
	u32 nr;			/* objects of the kind sent */
	int ret;		/* the batch's answer */
	char msg[VSNL_ERR_MSG_MAX];
};

static inline void gd_answer_fmt(const char *file, const struct gd_answer *a, char *out,
				 size_t size)
{
	if (!a->sent)
		snprintf(out, size, "%s\t-\t-\n", file);
	else
		snprintf(out, size, "%s\t%u\t%d%s%s\n", file, a->nr, a->ret, *a->msg ? "\t" : "",
			 a->msg);
}

/* A batch begun on a fresh connection to the test's daemon. */
static inline struct vsnl *gd_batch(void)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = vsnl_open(gd_d.path, &err);

	cr_assert_not_null(c, "%s", err.msg);
	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	return c;
}

/* @nlh added to the batch of @c; *@first is the seq of the batch's first message. */
static inline void gd_add(struct vsnl *c, const struct nlmsghdr *nlh, u32 *first)
{
	struct vsnl_err err = { 0 };
	u32 seq = 0;

	cr_assert_eq(vsnl_batch_add_nlh(c, nlh, &seq, &err), 0, "%s", err.msg);
	if (!*first)
		*first = seq;
}

/*
 * The batch's end into @a: its answer, and the daemon's message with the
 * message at fault named by its place in the batch ("message seq #2"), as
 * the sequence numbers themselves start from the clock.
 */
static inline void gd_batch_end(struct vsnl *c, u32 first, struct gd_answer *a)
{
	struct vsnl_err err = { 0 };
	char seq[32], *at;

	a->ret = vsnl_batch_end(c, &err);
	vsnl_close(c);
	snprintf(a->msg, sizeof(a->msg), "%s", err.msg);
	if (!err.seq)
		return;
	cr_assert_geq(err.seq, first);
	snprintf(seq, sizeof(seq), "seq %u ", err.seq);
	at = strstr(a->msg, seq);
	cr_assert_not_null(at, "%s", a->msg);
	snprintf(at, sizeof(a->msg) - (size_t)(at - a->msg), "seq #%u %s", err.seq - first + 1,
		 strstr(err.msg, seq) + strlen(seq));
	cr_assert_null(strpbrk(a->msg, "\t\n"), "%s", a->msg);
}

#endif /* SELFTESTS_MANIFEST_GOLDEN_H */
