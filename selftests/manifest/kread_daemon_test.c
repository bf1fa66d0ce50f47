// SPDX-License-Identifier: Apache-2.0
/*
 * The manifest reader without the core (userspace/kube/kread.c) against the
 * old one's answers, kept in selftests/manifest/golden/ (golden.h), through
 * a real daemon: every manifest the old reader's daemon was sent, file by
 * file in the same order, read by kread, its requests of a kind and of the
 * kinds before it sent in one batch to a vschedd, each batch answered as
 * the old reader's was, and the daemon's listings of that kind ("vsctl
 * KIND list -o json") compared whole with the old reader's daemon's.
 */
#include "golden.h"

TestSuite(kread_daemon, .init = gd_init, .fini = gd_fini, .timeout = 120);

/*
 * @file's documents of @kind and of the kinds before it, put by kread in
 * one batch in the order of kinds (a pod another scheduler places is
 * skipped, as the old reader skipped it): the daemon's answer.
 */
static struct gd_answer send_new(const char *file, const char *text, size_t len,
				 enum kr_kind kind)
{
	static char buf[1 << 16];
	struct gd_answer a = { .sent = true };
	struct vsnl_ydocs ydocs = { 0 };
	struct kr_docs docs = { 0 };
	struct vsnl_err err = { 0 };
	struct vsnl *c;
	u32 first = 0;

	cr_assert_eq(vsnl_yaml_parse_docs(text, len, file, &ydocs, &err) ?:
		     kr_docs_read(file, &ydocs, &docs, &err), 0, "%s", err.msg);
	c = gd_batch();
	for (int k = 0; k <= (int)kind; k++) {
		for (u32 i = 0; i < docs.nr; i++) {
			struct nlmsghdr *nlh = NULL;
			int ret;

			if ((int)docs.v[i].kind != k)
				continue;
			ret = kr_put_new(&docs.v[i], buf, sizeof(buf), &nlh, &err);
			if (ret == KR_SKIPPED)
				continue;
			cr_assert_eq(ret, 0, "%s", err.msg);
			gd_add(c, nlh, &first);
			a.nr += k == (int)kind;
		}
	}
	gd_batch_end(c, first, &a);
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
	return a;
}

/*
 * The files of the old reader's answers for @kind sent again by kread,
 * each answered alike: at least @min_files files sent and @min_sent
 * objects of @kind among them.
 */
static void send_all(enum kr_kind kind, u32 min_files, u32 min_sent)
{
	char *answers = gd_load(kind, ".answers"), *line, *save = NULL;
	u32 nr_files = 0, nr_sent = 0, nr_lines = 0;

	for (line = strtok_r(answers, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *file = line, *nr = strchr(file, '\t');
		char want[PATH_MAX + VSNL_ERR_MSG_MAX + 64], got[sizeof(want)];
		struct gd_answer a = { 0 };
		size_t len = 0;
		char *text;

		cr_assert(nr && strchr(nr + 1, '\t'), "%s: not FILE NR RET [MESSAGE]", line);
		*nr++ = '\0';
		nr_lines++;
		text = gd_read(file, &len);
		cr_assert_not_null(text, "%s: the old reader's answer names it, it is gone", file);
		if (*nr != '-') {
			a = send_new(file, text, len, kind);
			nr_files++;
			nr_sent += a.nr;
		}
		gd_answer_fmt(file, &a, got, sizeof(got));
		nr[-1] = '\t';
		snprintf(want, sizeof(want), "%s\n", line);
		cr_assert_str_eq(got, want, "kread: %sthe old reader: %s", got, want);
		free(text);
	}
	cr_assert_gt(nr_lines, 10);
	cr_assert_geq(nr_files, min_files);
	cr_assert_geq(nr_sent, min_sent, "%u %s sent: the test compares too little", nr_sent,
		      kr_kind(kind)->kind);
	free(answers);
}

/* The daemon's listing of @group, and the old reader's daemon's (the golden file). */
static void listings(enum kr_kind kind, const char *group, char **now, char **old)
{
	char suffix[64];

	snprintf(suffix, sizeof(suffix), ".%s.json", group);
	*now = gd_list(group);
	*old = gd_load(kind, suffix);
	cr_assert_gt(strlen(*old), 2);
}

/*
 * The objects of @kind in every manifest the old reader sent, sent by
 * kread and listed as the old reader's daemon listed them; at least
 * @min_sent of them, and the listing holds @want.
 */
static void listed_alike(enum kr_kind kind, const char *group, u32 min_sent, const char *want)
{
	char *a, *b;

	send_all(kind, 10, min_sent);
	listings(kind, group, &b, &a);
	cr_assert(strstr(a, want), "no \"%s\" in %s", want, a);
	cr_assert_str_eq(b, a);
	free(a);
	free(b);
}

Test(kread_daemon, priority_classes_are_what_the_old_reader_made)
{
	listed_alike(KR_PRIOCLASS, "prioclass", 1, "\"name\"");
}

Test(kread_daemon, queues_are_what_the_old_reader_made)
{
	listed_alike(KR_QUEUE, "queue", 1, "\"name\"");
}

Test(kread_daemon, nodes_are_what_the_old_reader_made)
{
	listed_alike(KR_NODE, "node", 1, "\"name\"");
}

/*
 * PodGroups: the daemon's defaults for what kread does not send (the
 * queue, the phase) are what the old reader's private cluster sent; its
 * conditions kept per type alike.
 */
Test(kread_daemon, podgroups_are_what_the_old_reader_made)
{
	char *a;

	listed_alike(KR_PODGROUP, "podgroup", 3, "resnet");
	a = gd_list("podgroup");
	cr_assert(strstr(a, "Unschedulable"), "%s", a);
	free(a);
}

/* How far @line is indented. */
static size_t indent_of(const char *line)
{
	return strspn(line, " ");
}

/*
 * @json without its members named @key: the member's line and, when it
 * opens an array or an object, the lines up to the one that closes it.
 */
static void drop_member(char *json, const char *key)
{
	char *line = json, *out = json;
	size_t skip_to = 0;
	bool skipping = false;

	while (*line) {
		char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line + 1) : strlen(line);
		bool drop = skipping;

		if (skipping) {
			if (indent_of(line) == skip_to)
				skipping = false;
		} else if (memmem(line, n, key, strlen(key))) {
			char last = line[n - (end ? 2 : 1)];

			drop = true;
			skipping = last == '[' || last == '{';
			skip_to = indent_of(line);
		}
		if (!drop) {
			memmove(out, line, n);
			out += n;
		}
		line += n;
	}
	*out = '\0';
}

/* @json with no comma at the end of a line: members dropped leave none. */
static void drop_trailing_commas(char *json)
{
	char *in = json, *out = json;

	for (; *in; in++)
		if (!(*in == ',' && in[1] == '\n'))
			*out++ = *in;
	*out = '\0';
}

/*
 * Pods: the old reader made their PodGroups itself (from the owner's UID,
 * and the shadow ones of other schedulers' pods) and sent them, with each
 * pod's priority from its class; kread sends OWNER_UID, SCHEDULER and
 * ADMIT, and the daemon makes them. The tasks and the PodGroups must be
 * the old reader's daemon's, but for the owner's UID and the containers'
 * images, which only kread's daemon is told.
 */
Test(kread_daemon, pods_are_what_the_old_reader_made)
{
	static const char *const groups[] = { "task", "podgroup" };
	/* manifests/pods.yaml taken: an owner's pods, a shadow PodGroup, a pod skipped */
	static const char *const taken[] = {
		"\"web-1\"", "\"podgroup-6d1c0a2e-0000-4000-8000-0000000000bb\"",
	};

	send_all(KR_POD, 10, 11);
	for (u32 i = 0; i < ARRAY_SIZE(groups); i++) {
		char *a, *b;

		listings(KR_POD, groups[i], &b, &a);
		cr_assert_not_null(strstr(a, taken[i]), "%s: no %s", groups[i], taken[i]);
		cr_assert_null(strstr(a, "\"elsewhere\""));
		if (!i)
			cr_assert_not_null(strstr(b, "\"ownerUID\""), "kread tells the owner");
		if (!i) {
			cr_assert_not_null(strstr(b, "\"nginx:latest\""), "kread tells the images");
			cr_assert_null(strstr(a, "\"images\""), "the old reader did not");
		}
		drop_member(b, "\"ownerUID\"");
		drop_member(b, "\"images\"");
		drop_trailing_commas(a);
		drop_trailing_commas(b);
		cr_assert_str_eq(b, a, "%s", groups[i]);
		free(a);
		free(b);
	}
}

/*
 * VolcanoJobs: what kread does not send (the queue, minAvailable and
 * maxRetry when not written) the daemon defaults as the old reader's
 * private cluster did; the templates' images only kread's daemon is told.
 */
Test(kread_daemon, volcano_jobs_are_what_the_old_reader_made)
{
	char *a, *b;

	send_all(KR_VJOB, 10, 2);
	listings(KR_VJOB, "job", &b, &a);
	cr_assert(strstr(a, "\"train\""), "%s", a);
	cr_assert_not_null(strstr(b, "\"images\""), "kread tells the templates' images");
	drop_member(b, "\"images\"");
	drop_trailing_commas(a);
	drop_trailing_commas(b);
	cr_assert_str_eq(b, a);
	free(a);
	free(b);
}
