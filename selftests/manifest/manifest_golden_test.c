// SPDX-License-Identifier: Apache-2.0
/*
 * The old manifest reader (userspace/kube/manifest.c) held to the answers
 * kept of it (golden.h): every manifest the tests have, file by file in
 * the order of their names, its objects of a kind and of the kinds before
 * it sent in one batch to a vschedd, as vsctl apply sent them, and the
 * daemon's answers and listings compared with selftests/manifest/golden/.
 * With VS_GOLDEN_WRITE=1 it writes them instead:
 *
 *	VS_GOLDEN_WRITE=1 ./selftests/vs-selftests --filter=manifest_golden/'*'
 *
 * This file goes with the old reader; the answers stay, for
 * kread_daemon_test.c.
 */
#include "golden.h"
#include "kube/manifest.h"

TestSuite(manifest_golden, .init = gd_init, .fini = gd_fini, .timeout = 120);

/*
 * The old reader's objects of the kinds up to @kind into the batch of @c,
 * in its order; the objects it made for a pod (o->implicit) too, but for
 * @kind's own (the PodGroups of pods, which the daemon makes now), as
 * kread_daemon_test.c sent them. The number of @kind's objects put.
 */
static u32 put_old(struct vsnl *c, const struct mf_set *set, enum kr_kind kind, void *buf,
		   size_t cap, u32 *first)
{
	u32 nr = 0;

	for (u32 i = 0; i < set->nr_objs; i++) {
		const struct mf_obj *o = &set->objs[i];
		struct nlmsghdr *nlh;

		if (!o->obj || (int)o->kind > (int)kind ||
		    ((int)o->kind == (int)kind && o->implicit))
			continue;
		nlh = vsnl_msg_put(buf, cap, mf_kind(o->kind)->cmd_new, 0);
		cr_assert(mf_put_spec(o, nlh, cap));
		gd_add(c, nlh, first);
		nr += (int)o->kind == (int)kind;
	}
	return nr;
}

static int on_prioclass(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct nlattr *at[VS_PC_A_MAX + 1] = { NULL };
	struct vs_prioclass_spec spec = { 0 };
	struct mf_err e = { { 0 } };

	cr_assert_not_null(tb[VS_A_PRIOCLASS]);
	cr_assert_geq(vsnl_parse_nested(at, VS_PC_A_MAX, tb[VS_A_PRIOCLASS]), 0);
	spec.name = nla_get_string(at[VS_PC_A_NAME]);
	spec.value = (s32)nla_get_u32(at[VS_PC_A_VALUE]);
	spec.global_default = at[VS_PC_A_GLOBAL_DEFAULT] && nla_get_u8(at[VS_PC_A_GLOBAL_DEFAULT]);
	if (at[VS_PC_A_PREEMPTION_POLICY])
		spec.preemption_policy = nla_get_u32(at[VS_PC_A_PREEMPTION_POLICY]);
	cr_assert_eq(mf_set_add_prioclass(arg, &spec, &e), 0, "%s", e.msg);
	return 0;
}

/*
 * The classes the daemon has, for the old reader to give pods their
 * priority as vsctl apply did (learn_prioclasses()).
 */
static void learn_prioclasses(struct mf_set *set)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = vsnl_open(gd_d.path, &err);

	cr_assert_not_null(c, "%s", err.msg);
	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_PRIOCLASS_GET, NLM_F_DUMP), on_prioclass,
				  set, &err), 0, "%s", err.msg);
	vsnl_close(c);
	set->offline = false;
}

/*
 * @file sent as the old reader sent it: when both it and kread read the
 * file (kread_daemon_test.c compared only those), its objects up to @kind.
 */
static struct gd_answer send_old(const char *file, const char *text, size_t len,
				  enum kr_kind kind)
{
	static char buf[1 << 16];
	struct gd_answer a = { 0 };
	struct vsnl_err err = { 0 };
	struct vsnl_ydocs ydocs = { 0 };
	struct kr_docs docs = { 0 };
	struct mf_err e = { { 0 } };
	struct mf_set set;
	int ret_old, ret_new;
	struct vsnl *c;
	u32 first = 0;

	cr_assert_eq(mf_set_init(&set), 0);
	set.offline = true;
	if (kind == KR_POD)
		learn_prioclasses(&set);
	ret_old = mf_set_parse(&set, file, text, len, &e) ?: mf_set_build(&set, &e);
	ret_new = vsnl_yaml_parse_docs(text, len, file, &ydocs, &err) ?:
		  kr_docs_read(file, &ydocs, &docs, &err);
	if (!ret_old && !ret_new) {
		c = gd_batch();
		a.sent = true;
		a.nr = put_old(c, &set, kind, buf, sizeof(buf), &first);
		gd_batch_end(c, first, &a);
	}
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
	mf_set_free(&set);
	return a;
}

/* @text as the golden file KIND@suffix: written, or compared with it. */
static void golden(enum kr_kind kind, const char *suffix, const char *text)
{
	char path[PATH_MAX + 128];
	char *want;
	FILE *f;

	if (getenv("VS_GOLDEN_WRITE")) {
		gd_path(kind, suffix, path, sizeof(path));
		f = fopen(path, "w");
		cr_assert_not_null(f, "%s", path);
		cr_assert_eq(fputs(text, f) < 0, 0);
		cr_assert_eq(fclose(f), 0, "%s", path);
		return;
	}
	want = gd_load(kind, suffix);
	cr_assert_str_eq(text, want, "%s%s: the old reader's answer changed", gd_kinds[kind].name,
			 suffix);
	free(want);
}

static void old_answers(enum kr_kind kind)
{
	char **files = gd_files(kind, getenv("VS_GOLDEN_WRITE"));
	char *answers = NULL, line[PATH_MAX + VSNL_ERR_MSG_MAX + 64];
	size_t len = 0;

	for (u32 i = 0; files[i]; i++) {
		struct gd_answer a = { 0 };
		size_t n = 0;
		char *text = gd_read(files[i], &n);

		if (!text)
			continue;
		a = send_old(files[i], text, n, kind);
		free(text);
		gd_answer_fmt(files[i], &a, line, sizeof(line));
		answers = realloc(answers, len + strlen(line) + 1);
		cr_assert_not_null(answers);
		memcpy(answers + len, line, strlen(line) + 1);
		len += strlen(line);
	}
	golden(kind, ".answers", answers);
	for (u32 g = 0; g < ARRAY_SIZE(gd_kinds[kind].groups) && gd_kinds[kind].groups[g]; g++) {
		char suffix[64];
		char *listing = gd_list(gd_kinds[kind].groups[g]);

		snprintf(suffix, sizeof(suffix), ".%s.json", gd_kinds[kind].groups[g]);
		golden(kind, suffix, listing);
		free(listing);
	}
	free(answers);
	gd_files_free(files);
}

Test(manifest_golden, priority_classes)
{
	old_answers(KR_PRIOCLASS);
}

Test(manifest_golden, queues)
{
	old_answers(KR_QUEUE);
}

Test(manifest_golden, nodes)
{
	old_answers(KR_NODE);
}

Test(manifest_golden, podgroups)
{
	old_answers(KR_PODGROUP);
}

Test(manifest_golden, volcano_jobs)
{
	old_answers(KR_VJOB);
}

Test(manifest_golden, pods)
{
	old_answers(KR_POD);
}
