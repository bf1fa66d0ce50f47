// SPDX-License-Identifier: Apache-2.0
/*
 * vskube's way in (userspace/vskube/ksync.h) between the test API server
 * (selftests/kube/) and a real vschedd (a child process, as the daemon's
 * tests run one): objects read by the manifest reader without the core and
 * sent in batches; a pod sent as the API server holds it, admitted already
 * (its class may be gone since); what the reader refuses left out and the
 * rest loaded; another scheduler's pending pod skipped; deletions sent as
 * DEL by key, and as a pod's DELETED report. HyperNodes: mirrored,
 * replaced when their members change, deleted; relisted after a 410 and
 * watched again; a bad one logged with what is wrong and left out. A
 * PodGroup's volcano.sh/preemptable follows its annotation, else its label.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "../daemon/dreq.h"
#include "../daemon/dtest.h"
#include "kapi.h"
#include "lib/log.h"
#include "vskube/informer.h"
#include "vskube/ksync.h"

static struct dtest t;
static struct kapi api;
static struct kc_config cfg;
static struct kcl *c;
static struct vsnl *nl, *q;
static struct ksync *s;

static void setup(void)
{
	struct vschedd_opts o = { .period_ms = 0 };
	struct vsnl_err e = { 0 };

	dt_start(&t, &o);
	kapi_init(&api, "ksync-test");
	memset(&cfg, 0, sizeof(cfg));
	kapi_start(&api, 100, &cfg.server);
	c = kcl_new(&cfg, &e);
	cr_assert_not_null(c, "%s", e.msg);
	nl = vsnl_open(t.path, &e);
	cr_assert_not_null(nl, "%s", e.msg);
	q = vsnl_open(t.path, &e);
	cr_assert_not_null(q, "%s", e.msg);
}

static void teardown(void)
{
	ksync_free(s);
	vsnl_close(q);
	vsnl_close(nl);
	kcl_free(c);
	kapi_fini(&api);
	kc_config_free(&cfg);
	dt_cleanup(&t);
}

TestSuite(ksync, .init = setup, .fini = teardown, .timeout = 120);

/* POST @body to @path of the API server: 201. */
static void create(const char *path, const char *body)
{
	struct vsnl_err e = { 0 };
	long status = 0;

	cr_assert_eq(kcl_call(c, "POST", path, "application/json", body, &status, NULL, NULL, &e),
		     0, "%s", e.msg);
	cr_assert_eq(status, 201, "POST %s: %ld", path, status);
}

static void delete(const char *path)
{
	struct vsnl_err e = { 0 };
	long status = 0;

	cr_assert_eq(kcl_call(c, "DELETE", path, NULL, NULL, &status, NULL, NULL, &e), 0, "%s",
		     e.msg);
	cr_assert_eq(status, 200, "DELETE %s: %ld", path, status);
}

/* Run the bridge's way in, as main.c does, until @done() or 20 s. */
static void run_until(bool (*done)(void))
{
	struct vsnl_err e = { 0 };
	u64 end = kinf_clock_ms() + 20000;

	while (!done()) {
		cr_assert_lt(kinf_clock_ms(), end, "timed out");
		ksync_tick(s, kinf_clock_ms());
		cr_assert_eq(kcl_poll(c, NULL, 0, 20, &e), 0, "%s", e.msg);
		cr_assert_eq(ksync_flush(s, &e), 0, "%s", e.msg);
	}
}

static bool synced(void)
{
	return ksync_synced(s);
}

/* ---- what the daemon has ---- */

struct task_seen {
	s32 priority;
	char podgroup[VS_NAME_MAX];
	u32 seen;
};

static int read_task(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct nlattr *a[VS_TASK_A_MAX + 1];
	struct task_seen *ts = arg;

	cr_assert_not_null(tb[VS_A_TASK]);
	vsnl_parse_nested(a, VS_TASK_A_MAX, tb[VS_A_TASK]);
	ts->priority = a[VS_TASK_A_PRIORITY] ? (s32)nla_get_u32(a[VS_TASK_A_PRIORITY]) : -1;
	snprintf(ts->podgroup, sizeof(ts->podgroup), "%s",
		 a[VS_TASK_A_PODGROUP] ? nla_get_string(a[VS_TASK_A_PODGROUP]) : "");
	ts->seen++;
	return 0;
}

/* The task @ns/@name: 0 and what it is, or the daemon's error. */
static int task_get(const char *ns, const char *name, struct task_seen *ts)
{
	struct vsnl_err e = { 0 };

	memset(ts, 0, sizeof(*ts));
	return vsnl_request(q, dr_task_key(VS_CMD_TASK_GET, ns, name), read_task, ts, &e);
}

static int node_get(const char *name)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_NODE_GET, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_NODE);
	struct vsnl_err e = { 0 };

	nla_put_string(m, VS_NODE_A_NAME, name);
	nla_nest_end(m, n);
	return vsnl_request(q, m, NULL, NULL, &e);
}

#define NODE(name, cpu)								\
	"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},"	\
	"\"status\":{\"allocatable\":{\"cpu\":\"" cpu "\",\"memory\":\"8Gi\","		\
	"\"pods\":\"110\"},\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}"

#define POD(name, sched, extra)							\
	"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\","	\
	"\"namespace\":\"default\"},\"spec\":{\"schedulerName\":\"" sched "\"" extra ","	\
	"\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}"

static void a_cluster(void)
{
	create("/apis/scheduling.volcano.sh/v1beta1/queues",
	       "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\","
	       "\"metadata\":{\"name\":\"default\"},\"spec\":{\"weight\":1}}");
	create("/api/v1/nodes", NODE("n1", "4"));
	create("/api/v1/nodes", NODE("n2", "eight"));
	/* admitted by an API server whose class "gone" has been deleted since */
	create("/api/v1/namespaces/default/pods",
	       POD("p1", "volcano", ",\"priorityClassName\":\"gone\",\"priority\":7"));
	create("/api/v1/namespaces/default/pods", POD("other", "default-scheduler", ""));
}

Test(ksync, the_api_servers_objects_are_loaded_as_it_holds_them)
{
	struct ksync_opts o = { .scheduler = "volcano" };
	struct vsnl_err e = { 0 };
	struct task_seen ts;

	a_cluster();
	s = ksync_new(c, nl, &o, &e);
	cr_assert_not_null(s, "%s", e.msg);
	cr_assert_eq(ksync_load(s, &e), 0, "%s", e.msg);
	run_until(synced);

	/* the pod as the API server holds it: not admitted again, its class gone */
	cr_assert_eq(task_get("default", "p1", &ts), 0);
	cr_assert_eq(ts.seen, 1);
	cr_assert_eq(ts.priority, 7);
	/* its PodGroup is the daemon's podgroup controller's */
	cr_assert_eq(strncmp(ts.podgroup, "podgroup-", 9), 0, "%s", ts.podgroup);
	/* another scheduler's pod on no node is left to it */
	cr_assert_eq(task_get("default", "other", &ts), -ENOENT);
	/* the node the reader refuses is left out, and only it */
	cr_assert_eq(node_get("n1"), 0);
	cr_assert_eq(node_get("n2"), -ENOENT);
	cr_assert_eq(ksync_stats(s)->refused_read, 1);
	cr_assert_eq(ksync_stats(s)->refused_core, 0);
}

static bool node_gone(void)
{
	return node_get("n1") == -ENOENT;
}

static bool pod_gone(void)
{
	struct task_seen ts;

	return task_get("default", "p1", &ts) == -ENOENT;
}

Test(ksync, deletions_are_sent_by_key)
{
	struct ksync_opts o = { .scheduler = "volcano" };
	struct vsnl_err e = { 0 };

	a_cluster();
	s = ksync_new(c, nl, &o, &e);
	cr_assert_not_null(s, "%s", e.msg);
	cr_assert_eq(ksync_load(s, &e), 0, "%s", e.msg);
	run_until(synced);
	cr_assert_eq(node_get("n1"), 0);

	delete("/api/v1/namespaces/default/pods/p1");
	run_until(pod_gone);
	delete("/api/v1/nodes/n1");
	run_until(node_gone);
	cr_assert_eq(ksync_stats(s)->refused_core, 0);
}

/* ---- HyperNodes ---- */

#define HN_PATH		"/apis/topology.volcano.sh/v1alpha1/hypernodes"
#define HN(name, members)							\
	"{\"apiVersion\":\"topology.volcano.sh/v1alpha1\",\"kind\":\"HyperNode\","	\
	"\"metadata\":{\"name\":\"" name "\"},\"spec\":{\"tier\":1,\"members\":["	\
	members "]}}"
#define EXACT(node)	"{\"type\":\"Node\",\"selector\":{\"exactMatch\":{\"name\":\"" node "\"}}}"

struct hn_seen {
	char members[256];		/* the exact names, "n1,n3" */
	u32 nr_nodes;
};

static int read_hn(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct nlattr *a[VS_HN_A_MAX + 1], *m[VS_HN_MEMBER_A_MAX + 1], *pos;
	struct hn_seen *hs = arg;
	int rem;

	cr_assert_not_null(tb[VS_A_HYPERNODE]);
	vsnl_parse_nested(a, VS_HN_A_MAX, tb[VS_A_HYPERNODE]);
	hs->nr_nodes = a[VS_HN_A_NR_NODES] ? nla_get_u32(a[VS_HN_A_NR_NODES]) : 0;
	nla_for_each_nested(pos, tb[VS_A_HYPERNODE], rem) {
		size_t len = strlen(hs->members);

		if (nla_type(pos) != VS_HN_A_MEMBER)
			continue;
		vsnl_parse_nested(m, VS_HN_MEMBER_A_MAX, pos);
		snprintf(hs->members + len, sizeof(hs->members) - len, "%s%s", len ? "," : "",
			 m[VS_HN_MEMBER_A_EXACT_NAME] ?
			 nla_get_string(m[VS_HN_MEMBER_A_EXACT_NAME]) : "?");
	}
	return 0;
}

/* The HyperNode @name as the daemon has it: 0, or its error (-ENOENT). */
static int hn_get(const char *name, struct hn_seen *hs)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_HYPERNODE_GET, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_HYPERNODE);
	struct vsnl_err e = { 0 };

	memset(hs, 0, sizeof(*hs));
	nla_put_string(m, VS_HN_A_NAME, name);
	nla_nest_end(m, n);
	return vsnl_request(q, m, read_hn, hs, &e);
}

static const char *want_hn, *want_members;

static bool hn_is(void)
{
	struct hn_seen hs;

	if (!want_members)
		return hn_get(want_hn, &hs) == -ENOENT;
	return !hn_get(want_hn, &hs) && !strcmp(hs.members, want_members);
}

/* Run until the daemon's HyperNode @name has the exact members @members (NULL: is gone). */
static void until_hn(const char *name, const char *members)
{
	want_hn = name;
	want_members = members;
	run_until(hn_is);
}

static void hn_cluster(void)
{
	create("/api/v1/nodes", NODE("n1", "4"));
	create("/api/v1/nodes", NODE("n3", "4"));
	create(HN_PATH, HN("s0", EXACT("n1")));
}

static void load(void)
{
	struct ksync_opts o = { .scheduler = "volcano" };
	struct vsnl_err e = { 0 };

	s = ksync_new(c, nl, &o, &e);
	cr_assert_not_null(s, "%s", e.msg);
	cr_assert_eq(ksync_load(s, &e), 0, "%s", e.msg);
	run_until(synced);
}

Test(ksync, hypernodes_are_mirrored_replaced_and_deleted)
{
	struct vsnl_err e = { 0 };
	struct hn_seen hs;
	long status = 0;

	hn_cluster();
	load();
	cr_assert_eq(hn_get("s0", &hs), 0);
	cr_assert_str_eq(hs.members, "n1");
	cr_assert_eq(hs.nr_nodes, 1);

	/* an update replaces the members: the daemon's leaves are the new ones */
	cr_assert_eq(kcl_call(c, "PATCH", HN_PATH "/s0", "application/merge-patch+json",
			      "{\"spec\":{\"members\":[" EXACT("n1") "," EXACT("n3") "]}}",
			      &status, NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(status, 200);
	until_hn("s0", "n1,n3");
	cr_assert_eq(hn_get("s0", &hs), 0);
	cr_assert_eq(hs.nr_nodes, 2);

	/* a second one, then the first deleted */
	create(HN_PATH, HN("s1", EXACT("n3")));
	until_hn("s1", "n3");
	delete(HN_PATH "/s0");
	until_hn("s0", NULL);
	cr_assert_eq(hn_get("s1", &hs), 0);
	cr_assert_eq(ksync_stats(s)->refused_core, 0);
	cr_assert_eq(ksync_stats(s)->refused_read, 0);
}

Test(ksync, hypernodes_are_relisted_after_410_and_watched_again)
{
	struct vsnl_err e = { 0 };
	struct kinf *inf;
	long status = 0;
	u32 i;

	hn_cluster();
	load();
	until_hn("s0", "n1");
	for (i = 0; (inf = ksync_informer(s, i)); i++)
		if (!strcmp(kinf_path(inf), HN_PATH))
			break;
	cr_assert_not_null(inf, "no informer of %s", HN_PATH);
	cr_assert_eq(kinf_stats(inf)->lists, 1);

	/* while the watches are cut, s0 goes and s1 comes; the history is lost */
	cr_assert_eq(kcl_call(c, "POST", "/__test/drop-watches", NULL, NULL, &status, NULL, NULL,
			      &e), 0, "%s", e.msg);
	delete(HN_PATH "/s0");
	create(HN_PATH, HN("s1", EXACT("n3")));
	cr_assert_eq(kcl_call(c, "POST", "/__test/compact", NULL, NULL, &status, NULL, NULL, &e),
		     0, "%s", e.msg);
	until_hn("s1", "n3");
	until_hn("s0", NULL);
	cr_assert_geq(kinf_stats(inf)->gone, 1);
	cr_assert_eq(kinf_stats(inf)->lists, 2);

	/* and after the relist, a watch event */
	create(HN_PATH, HN("s2", EXACT("n1")));
	until_hn("s2", "n1");
	cr_assert_eq(kinf_stats(inf)->lists, 2);
	cr_assert_eq(ksync_stats(s)->refused_core, 0);
}

Test(ksync, a_bad_hypernode_is_logged_and_left_out)
{
	struct hn_seen hs;
	char *log = NULL;
	size_t len = 0;

	vsnl_log_file = open_memstream(&log, &len);
	cr_assert_not_null(vsnl_log_file);
	hn_cluster();
	/* the reader refuses a misspelled selector field; the daemon, a member without one */
	create(HN_PATH, HN("typo", "{\"type\":\"Node\",\"selector\":{\"exactMatch\":"
			   "{\"nmae\":\"n1\"}}}"));
	create(HN_PATH, HN("bare", "{\"type\":\"Node\"}"));
	create(HN_PATH, HN("s9", EXACT("n3")));
	load();
	fclose(vsnl_log_file);
	vsnl_log_file = NULL;

	cr_assert_eq(hn_get("s0", &hs), 0);
	cr_assert_eq(hn_get("s9", &hs), 0);
	cr_assert_eq(hn_get("typo", &hs), -ENOENT);
	cr_assert_eq(hn_get("bare", &hs), -ENOENT);
	cr_assert_eq(ksync_stats(s)->refused_read, 1);
	cr_assert_eq(ksync_stats(s)->refused_core, 1);
	cr_assert_not_null(strstr(log, "hypernodes typo: left out: hypernodes typo:1: "),
			   "%s", log);
	cr_assert_not_null(strstr(log, "spec.members[0].selector.exactMatch.nmae"), "%s", log);
	cr_assert_not_null(strstr(log, "hypernode.topology.volcano.sh bare: vschedd refused it: "),
			   "%s", log);
	cr_assert_not_null(strstr(log, "(VS_CMD_HYPERNODE_NEW hypernode bare) failed: member 0: "
				  "no selector"), "%s", log);
	free(log);
}

/* ---- a PodGroup's volcano.sh/preemptable ---- */

#define PG_PATH		"/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups"

/* The daemon's PodGroup default/@name's preemptable: 0, 1, -1 when unset, -2 when none. */
static int read_pg_preemptable(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct nlattr *a[VS_PG_A_MAX + 1];

	cr_assert_not_null(tb[VS_A_PODGROUP]);
	vsnl_parse_nested(a, VS_PG_A_MAX, tb[VS_A_PODGROUP]);
	*(int *)arg = a[VS_PG_A_PREEMPTABLE] ? nla_get_u8(a[VS_PG_A_PREEMPTABLE]) : -1;
	return 0;
}

static int pg_preemptable(const char *name)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_PODGROUP_GET, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_PODGROUP);
	struct vsnl_err e = { 0 };
	int v = -2;

	nla_put_string(m, VS_PG_A_NAMESPACE, "default");
	nla_put_string(m, VS_PG_A_NAME, name);
	nla_nest_end(m, n);
	if (vsnl_request(q, m, read_pg_preemptable, &v, &e))
		return -2;
	return v;
}

static int want_preemptable;

static bool pg_preemptable_is(void)
{
	return pg_preemptable("pg") == want_preemptable;
}

/* The informer's PodGroups carry it: the annotation, else the label, and their updates. */
Test(ksync, a_podgroups_preemptable_follows_its_annotation_and_label)
{
	struct vsnl_err e = { 0 };
	long status = 0;

	create("/apis/scheduling.volcano.sh/v1beta1/queues",
	       "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\","
	       "\"metadata\":{\"name\":\"default\"},\"spec\":{\"weight\":1}}");
	create(PG_PATH, "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\","
	       "\"metadata\":{\"name\":\"pg\",\"namespace\":\"default\","
	       "\"labels\":{\"volcano.sh/preemptable\":\"true\"},"
	       "\"annotations\":{\"volcano.sh/preemptable\":\"false\"}},"
	       "\"spec\":{\"minMember\":1,\"queue\":\"default\"}}");
	load();
	cr_assert_eq(pg_preemptable("pg"), 0, "the annotation wins over the label");

	/* the annotation gone: the label says it */
	cr_assert_eq(kcl_call(c, "PATCH", PG_PATH "/pg", "application/merge-patch+json",
			      "{\"metadata\":{\"annotations\":{\"volcano.sh/preemptable\":null}}}",
			      &status, NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(status, 200);
	want_preemptable = 1;
	run_until(pg_preemptable_is);

	/* neither: unset */
	cr_assert_eq(kcl_call(c, "PATCH", PG_PATH "/pg", "application/merge-patch+json",
			      "{\"metadata\":{\"labels\":{\"volcano.sh/preemptable\":null}}}",
			      &status, NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(status, 200);
	want_preemptable = -1;
	run_until(pg_preemptable_is);
	cr_assert_eq(ksync_stats(s)->refused_core, 0);
	cr_assert_eq(ksync_stats(s)->refused_read, 0);
}
