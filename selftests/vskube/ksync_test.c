// SPDX-License-Identifier: Apache-2.0
/*
 * vskube's way in (userspace/vskube/ksync.h) between the test API server
 * (selftests/kube/) and a real vschedd (a child process, as the daemon's
 * tests run one): objects read by the manifest reader without the core and
 * sent in batches; a pod sent as the API server holds it, admitted already
 * (its class may be gone since); what the reader refuses left out and the
 * rest loaded; another scheduler's pending pod skipped; deletions sent as
 * DEL by key, and as a pod's DELETED report.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "../daemon/dreq.h"
#include "../daemon/dtest.h"
#include "kapi.h"
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
