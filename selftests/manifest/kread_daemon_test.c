// SPDX-License-Identifier: Apache-2.0
/*
 * The manifest reader without the core (userspace/kube/kread.c) against the
 * old one, through real daemons: every manifest the tests have
 * (selftests/manifests/ and the fuzz corpus of manifests) read by both,
 * the requests of each kind kread reads sent in one batch to a vschedd of
 * each (after what the old reader made of the kinds before it, to both),
 * and the daemons' listings of that kind ("vsctl KIND list -o json")
 * compared whole. The kinds are added here as they move to kread.
 */
#include <dirent.h>
#include <libgen.h>
#include <limits.h>

#include "../daemon/dtest.h"
#include "kube/kread.h"
#include "kube/manifest.h"
#include "lib/file.h"
#include "lib/vsnl.h"

static struct dtest old_d, new_d;
static char vsctl[PATH_MAX], srcdir[PATH_MAX];

static void fini(void)
{
	dt_cleanup(&old_d);
	dt_cleanup(&new_d);
}

static void init(void)
{
	struct vschedd_opts o = { .period_ms = 0 }, o_new = { .period_ms = 0 };
	char exe[PATH_MAX], src[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	cr_assert_gt(n, 0);
	exe[n] = '\0';
	/* the binary is OBJ/selftests/vs-selftests, vsctl is OBJ/vsctl */
	snprintf(vsctl, sizeof(vsctl), "%s/../vsctl", dirname(exe));
	cr_assert_eq(access(vsctl, X_OK), 0, "no vsctl at %s", vsctl);
	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(srcdir, sizeof(srcdir), "%s/..", dirname(src));
	dt_start(&old_d, &o);
	/* the second daemon in a directory of its own */
	snprintf(new_d.dir, sizeof(new_d.dir), "/tmp/vschedd-test-%d-new", (int)getpid());
	mkdir(new_d.dir, 0755);
	snprintf(new_d.path, sizeof(new_d.path), "%s/vs.sock", new_d.dir);
	snprintf(new_d.log, sizeof(new_d.log), "%s/log", new_d.dir);
	dt_start(&new_d, &o_new);
}

TestSuite(kread_daemon, .init = init, .fini = fini, .timeout = 120);

static struct vsnl *open_batch(const struct dtest *d)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = vsnl_open(d->path, &err);

	cr_assert_not_null(c, "%s", err.msg);
	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	return c;
}

/* The batch's end: 0, or the daemon's refusal in @err. */
static int end_batch(struct vsnl *c, struct vsnl_err *err)
{
	int ret = vsnl_batch_end(c, err);

	vsnl_close(c);
	return ret;
}

/*
 * What the old reader made of the kinds before @kind (with @kind itself when
 * @with_kind) into the batch of @c, in its order: the objects a kind's
 * documents name (queues for PodGroups...) go to both daemons alike.
 * The number of @kind's objects put; those the old reader made for a pod
 * (o->implicit, no document of their own) are not: kread sends documents.
 */
static u32 put_old(struct vsnl *c, const struct mf_set *set, enum kr_kind kind, bool with_kind,
		   void *buf, size_t cap)
{
	struct vsnl_err err = { 0 };
	u32 nr = 0;

	for (u32 i = 0; i < set->nr_objs; i++) {
		const struct mf_obj *o = &set->objs[i];
		struct nlmsghdr *nlh;

		if (!o->obj || (int)o->kind > (int)kind ||
		    ((int)o->kind == (int)kind && (!with_kind || o->implicit)))
			continue;
		/* the PodGroups the old reader made for pods: the daemon makes its own */
		if (o->implicit && !with_kind)
			continue;
		nlh = vsnl_msg_put(buf, cap, mf_kind(o->kind)->cmd_new, 0);
		cr_assert(mf_put_spec(o, nlh, cap));
		cr_assert_eq(vsnl_batch_add_nlh(c, nlh, NULL, &err), 0, "%s", err.msg);
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
 * The classes the old daemon has, for the old reader to give pods their
 * priority as vsctl apply does (learn_prioclasses()): the daemon's
 * admission takes them from the classes it has too.
 */
static void learn_prioclasses(struct mf_set *set)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = vsnl_open(old_d.path, &err);

	cr_assert_not_null(c, "%s", err.msg);
	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_PRIOCLASS_GET, NLM_F_DUMP), on_prioclass,
				  set, &err), 0, "%s", err.msg);
	vsnl_close(c);
	set->offline = false;
}

/*
 * The objects of @kind in @text sent by the old reader to one daemon and by
 * kread to the other, after the old reader's objects of the kinds before it
 * to both.
 */
static void send_both(const char *file, const char *text, size_t len, enum kr_kind kind,
		      u32 *nr_sent)
{
	static char buf[1 << 16];
	struct vsnl_err err = { 0 }, said_old = { 0 }, said_new = { 0 };
	struct vsnl_ydocs ydocs = { 0 };
	struct kr_docs docs = { 0 };
	struct mf_err e = { { 0 } };
	struct mf_set set;
	struct vsnl *c;
	u32 nr_old = 0, nr_new = 0;
	int ret_old, ret_new;

	cr_assert_eq(mf_set_init(&set), 0);
	set.offline = true;
	if (kind == KR_POD)
		learn_prioclasses(&set);
	ret_old = mf_set_parse(&set, file, text, len, &e) ?: mf_set_build(&set, &e);
	ret_new = vsnl_yaml_parse_docs(text, len, file, &ydocs, &err) ?:
		  kr_docs_read(file, &ydocs, &docs, &err);
	if (!ret_old && !ret_new) {
		c = open_batch(&old_d);
		nr_old = put_old(c, &set, kind, true, buf, sizeof(buf));
		ret_old = end_batch(c, &said_old);
		c = open_batch(&new_d);
		put_old(c, &set, kind, false, buf, sizeof(buf));
		for (u32 i = 0; i < docs.nr; i++) {
			struct nlmsghdr *nlh = NULL;

			if (docs.v[i].kind != kind)
				continue;
			ret_new = kr_put_new(&docs.v[i], buf, sizeof(buf), &nlh, &err);
			if (ret_new == KR_SKIPPED)	/* as the old reader skips it */
				continue;
			cr_assert_eq(ret_new, 0, "%s", err.msg);
			cr_assert_eq(vsnl_batch_add_nlh(c, nlh, NULL, &err), 0, "%s", err.msg);
			nr_new++;
		}
		ret_new = end_batch(c, &said_new);
		/* a class of another file again: both refused alike */
		cr_assert_eq(ret_new, ret_old, "%s: old %d (%s), new %d (%s)", file, ret_old,
			     said_old.msg, ret_new, said_new.msg);
		cr_assert_str_eq(said_new.msg, said_old.msg, "%s", file);
		cr_assert_eq(nr_old, nr_new, "%s: old %u objects, new %u", file, nr_old, nr_new);
		*nr_sent += nr_new;
	}
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
	mf_set_free(&set);
}

static void send_dir(const char *dir, enum kr_kind kind, u32 *nr_files, u32 *nr_sent)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	cr_assert_not_null(d, "%s", dir);
	while ((de = readdir(d))) {
		struct vsnl_err err = { 0 };
		char path[PATH_MAX];
		size_t len = 0;
		char *text;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (vsnl_read_file(path, 1 << 24, VSNL_FILE_REGULAR, &text, &len, &err))
			continue;
		send_both(path, text, len, kind, nr_sent);
		free(text);
		(*nr_files)++;
	}
	closedir(d);
}

/* "vsctl @group list -o json" of @d. */
static char *list(const struct dtest *d, const char *group)
{
	char *cmd, *out = NULL;
	size_t cap = 0, len = 0;
	FILE *p;

	cr_assert_geq(asprintf(&cmd, "VSCHED_SOCKET='%s' '%s' %s list -o json", d->path, vsctl,
			       group), 0);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			out = realloc(out, cap);
			cr_assert_not_null(out);
		}
		size_t n = fread(out + len, 1, 4096, p);

		if (!n)
			break;
		len += n;
	}
	out[len] = '\0';
	cr_assert_eq(pclose(p), 0, "%s", cmd);
	free(cmd);
	return out;
}

Test(kread_daemon, priority_classes_are_what_the_old_reader_made)
{
	char dir[PATH_MAX + 32];
	u32 nr_files = 0, nr_sent = 0;
	char *a, *b;

	snprintf(dir, sizeof(dir), "%s/manifests", srcdir);
	send_dir(dir, KR_PRIOCLASS, &nr_files, &nr_sent);
	snprintf(dir, sizeof(dir), "%s/fuzz/corpus/manifest", srcdir);
	send_dir(dir, KR_PRIOCLASS, &nr_files, &nr_sent);
	cr_assert_gt(nr_files, 10);
	cr_assert_gt(nr_sent, 0, "no PriorityClass sent: the test compares nothing");
	a = list(&old_d, "prioclass");
	b = list(&new_d, "prioclass");
	cr_assert_gt(strlen(a), 2);
	cr_assert_str_eq(b, a);
	free(a);
	free(b);
}

/*
 * The objects of @kind in every manifest the tests have, sent by each
 * reader to its daemon, listed alike by "vsctl @group list -o json";
 * at least @min_sent of them, and the listing holds @want.
 */
static void listed_alike(enum kr_kind kind, const char *group, u32 min_sent, const char *want)
{
	char dir[PATH_MAX + 32];
	u32 nr_files = 0, nr_sent = 0;
	char *a, *b;

	snprintf(dir, sizeof(dir), "%s/manifests", srcdir);
	send_dir(dir, kind, &nr_files, &nr_sent);
	snprintf(dir, sizeof(dir), "%s/fuzz/corpus/manifest", srcdir);
	send_dir(dir, kind, &nr_files, &nr_sent);
	cr_assert_gt(nr_files, 10);
	cr_assert_geq(nr_sent, min_sent, "%u %s sent: the test compares too little", nr_sent,
		      kr_kind(kind)->kind);
	a = list(&old_d, group);
	b = list(&new_d, group);
	cr_assert_gt(strlen(a), 2);
	cr_assert(strstr(a, want), "no \"%s\" in %s", want, a);
	cr_assert_str_eq(b, a);
	free(a);
	free(b);
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
	a = list(&new_d, "podgroup");
	cr_assert(strstr(a, "Unschedulable"), "%s", a);
	free(a);
}

/* @json without the lines that hold @key. */
static void drop_lines(char *json, const char *key)
{
	char *line = json, *out = json;

	while (*line) {
		char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line + 1) : strlen(line);

		if (!memmem(line, n, key, strlen(key))) {
			memmove(out, line, n);
			out += n;
		}
		line += n;
	}
	*out = '\0';
}

/*
 * Pods: the old reader made their PodGroups itself (from the owner's UID,
 * and the shadow ones of other schedulers' pods) and sent them, with each
 * pod's priority from its class; kread sends OWNER_UID, SCHEDULER and
 * ADMIT, and the daemon makes them. The tasks and the PodGroups of both
 * daemons must be the same, but for the owner's UID, which only kread's
 * daemon is told.
 */
Test(kread_daemon, pods_are_what_the_old_reader_made)
{
	static const char *const groups[] = { "task", "podgroup" };
	/* manifests/pods.yaml taken: an owner's pods, a shadow PodGroup, a pod skipped */
	static const char *const taken[] = {
		"\"web-1\"", "\"podgroup-6d1c0a2e-0000-4000-8000-0000000000bb\"",
	};
	char dir[PATH_MAX + 32];
	u32 nr_files = 0, nr_sent = 0;

	snprintf(dir, sizeof(dir), "%s/manifests", srcdir);
	send_dir(dir, KR_POD, &nr_files, &nr_sent);
	snprintf(dir, sizeof(dir), "%s/fuzz/corpus/manifest", srcdir);
	send_dir(dir, KR_POD, &nr_files, &nr_sent);
	cr_assert_gt(nr_files, 10);
	cr_assert_gt(nr_sent, 10, "%u pods sent: the test compares too little", nr_sent);
	for (u32 i = 0; i < ARRAY_SIZE(groups); i++) {
		char *a = list(&old_d, groups[i]);
		char *b = list(&new_d, groups[i]);

		cr_assert_not_null(strstr(a, taken[i]), "%s: no %s", groups[i], taken[i]);
		cr_assert_null(strstr(a, "\"elsewhere\""));
		if (!i)
			cr_assert_not_null(strstr(b, "\"ownerUID\""), "kread tells the owner");
		drop_lines(b, "\"ownerUID\"");
		cr_assert_str_eq(b, a, "%s", groups[i]);
		free(a);
		free(b);
	}
}

/*
 * VolcanoJobs: what kread does not send (the queue, minAvailable and
 * maxRetry when not written) the daemon defaults as the old reader's
 * private cluster did.
 */
Test(kread_daemon, volcano_jobs_are_what_the_old_reader_made)
{
	listed_alike(KR_VJOB, "job", 2, "\"train\"");
}
