// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the digests kstatus compares a first status with
 * (userspace/vskube/kstatus.h): a status as the API server holds it and
 * the same status as kstatus writes it must agree, whatever the times and
 * transition ids, and any difference Volcano sees must show. And what it
 * writes of a PodGroup's conditions, against the test API server.
 */
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>
#include <jansson.h>

#include "kapi.h"
#include "lib/vsnl.h"
#include "vskube/informer.h"
#include "vskube/kstatus.h"

static u64 pg(const char *json)
{
	json_t *status = json_loads(json, 0, NULL);
	u64 d;

	cr_assert_not_null(status, "%s", json);
	d = kstatus_podgroup_digest(status);
	json_decref(status);
	cr_assert_neq(d, 0);
	cr_assert_eq(d & KSTATUS_DIGEST_FREE_BIT, 0);
	return d;
}

static u64 pod(const char *json)
{
	json_t *status = json_loads(json, 0, NULL);
	u64 d;

	cr_assert_not_null(status, "%s", json);
	d = kstatus_pod_digest(status);
	json_decref(status);
	cr_assert_eq(d & KSTATUS_DIGEST_FREE_BIT, 0);
	return d;
}

#define SCHEDULED(id, time) \
	"{\"type\":\"Scheduled\",\"status\":\"True\",\"transitionID\":\"" id "\"," \
	"\"lastTransitionTime\":\"" time "\",\"reason\":\"tasks in gang are ready to be scheduled\"}"

Test(kstatus, a_podgroup_status_is_the_same_whatever_its_times)
{
	/* as the API server has it (no message, counts it omits as zero) ... */
	u64 api = pg("{\"phase\":\"Running\",\"running\":3,\"minMember\":3,\"conditions\":["
		     SCHEDULED("abc", "2026-01-01T00:00:00Z") "]}");

	/* ... and as kstatus writes it */
	cr_assert_eq(api, pg("{\"phase\":\"Running\",\"running\":3,\"succeeded\":0,\"failed\":0,"
			     "\"conditions\":[" SCHEDULED("42", "2026-11-23T10:00:00Z") "]}"));
	cr_assert_eq(pg("{}"), pg("{\"phase\":\"\",\"conditions\":[]}"));
}

Test(kstatus, what_volcano_compares_of_a_podgroup_shows)
{
	const char *base = "{\"phase\":\"Running\",\"running\":3,\"conditions\":["
			   SCHEDULED("1", "t") "]}";
	const char *other[] = {
		"{\"phase\":\"Inqueue\",\"running\":3,\"conditions\":[" SCHEDULED("1", "t") "]}",
		"{\"phase\":\"Running\",\"running\":2,\"conditions\":[" SCHEDULED("1", "t") "]}",
		"{\"phase\":\"Running\",\"running\":3,\"failed\":1,\"conditions\":["
			SCHEDULED("1", "t") "]}",
		"{\"phase\":\"Running\",\"running\":3,\"succeeded\":1,\"conditions\":["
			SCHEDULED("1", "t") "]}",
		"{\"phase\":\"Running\",\"running\":3}",
		"{\"phase\":\"Running\",\"running\":3,\"conditions\":[{\"type\":\"Scheduled\","
			"\"status\":\"False\",\"reason\":\"tasks in gang are ready to be scheduled\"}]}",
		"{\"phase\":\"Running\",\"running\":3,\"conditions\":[" SCHEDULED("1", "t") ","
			"{\"type\":\"Unschedulable\",\"status\":\"True\",\"reason\":\"x\"}]}",
		/* the list's order is the status's */
		"{\"phase\":\"Running\",\"running\":3,\"conditions\":[{\"type\":\"Unschedulable\","
			"\"status\":\"True\",\"reason\":\"x\"}," SCHEDULED("1", "t") "]}",
	};
	u64 d = pg(base);

	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		cr_assert_neq(pg(other[i]), d, "%s", other[i]);
	/* a message, even empty against absent, is the same; a different one is not */
	cr_assert_eq(pg("{\"conditions\":[{\"type\":\"Unschedulable\",\"message\":\"\"}]}"),
		     pg("{\"conditions\":[{\"type\":\"Unschedulable\"}]}"));
	cr_assert_neq(pg("{\"conditions\":[{\"type\":\"Unschedulable\",\"message\":\"a\"}]}"),
		      pg("{\"conditions\":[{\"type\":\"Unschedulable\",\"message\":\"b\"}]}"));
}

Test(kstatus, only_a_false_pod_scheduled_condition_counts)
{
	const char *cond = "{\"type\":\"PodScheduled\",\"status\":\"False\",\"reason\":"
			   "\"Unschedulable\",\"message\":\"0/3 nodes are unavailable: 3 "
			   "Insufficient cpu.\"";
	char a[512], b[512], c[512];

	snprintf(a, sizeof(a), "{\"phase\":\"Pending\",\"conditions\":[{\"type\":\"Ready\","
		 "\"status\":\"False\"},%s,\"lastProbeTime\":null,\"lastTransitionTime\":"
		 "\"2026-01-01T00:00:00Z\"}]}", cond);
	snprintf(b, sizeof(b), "{\"conditions\":[%s}]}", cond);
	cr_assert_neq(pod(a), 0);
	cr_assert_eq(pod(a), pod(b), "the times and other conditions aside");
	snprintf(c, sizeof(c), "{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"False\","
		 "\"reason\":\"Unschedulable\",\"message\":\"0/3 nodes are unavailable.\"}]}");
	cr_assert_neq(pod(c), pod(b));
	cr_assert_eq(pod("{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\"}]}"), 0);
	cr_assert_eq(pod("{\"phase\":\"Pending\"}"), 0);
	cr_assert_eq(pod("{}"), 0);
	/* the nominated node is written with the condition: another one is another status */
	snprintf(c, sizeof(c), "{\"nominatedNodeName\":\"n1\",\"conditions\":[%s}]}", cond);
	cr_assert_neq(pod(c), pod(b));
	snprintf(a, sizeof(a), "{\"conditions\":[%s}],\"nominatedNodeName\":\"n1\"}", cond);
	cr_assert_eq(pod(a), pod(c));
	snprintf(a, sizeof(a), "{\"conditions\":[%s}],\"nominatedNodeName\":\"n2\"}", cond);
	cr_assert_neq(pod(a), pod(c));
}

/* ---- what kstatus writes, against the test API server ---- */

static void put_cond(struct nlmsghdr *nlh, u32 type, u64 cycle, const char *reason,
		     const char *id, u64 time)
{
	struct nlattr *c = mnl_attr_nest_start(nlh, VS_PG_A_CONDITION);

	mnl_attr_put_u32(nlh, VS_COND_A_TYPE, type);
	mnl_attr_put_u8(nlh, VS_COND_A_STATUS, 1);
	mnl_attr_put_strz(nlh, VS_COND_A_REASON, reason);
	mnl_attr_put_strz(nlh, VS_COND_A_MESSAGE, "");
	mnl_attr_put_u64(nlh, VS_COND_A_TRANSITION, cycle);
	if (id)
		mnl_attr_put_strz(nlh, VS_COND_A_TRANSITION_ID, id);
	if (time)
		mnl_attr_put_u64(nlh, VS_COND_A_TIME, time);
	mnl_attr_nest_end(nlh, c);
}

/*
 * A condition vschedd kept from the API server goes back with its own
 * transitionID and lastTransitionTime; a cycle's own gets the cycle's
 * number and the time of the write.
 */
Test(kstatus, a_kept_condition_is_written_with_its_own_id_and_time, .timeout = 60)
{
	static unsigned char buf[4096] __attribute__((aligned(8)));
	struct kc_config cfg = { 0 };
	struct vsnl_err e = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *pg;
	struct kstatus *ks;
	struct kapi api;
	struct kcl *c;
	json_t *obj, *conds;
	char *body = NULL;
	long status = 0;
	u64 end;

	kapi_init(&api, "kstatus-test");
	kapi_start(&api, 100, &cfg.server);
	c = kcl_new(&cfg, &e);
	cr_assert_not_null(c, "%s", e.msg);
	cr_assert_eq(kcl_call(c, "POST", "/apis/scheduling.volcano.sh/v1beta1/namespaces/default/"
			      "podgroups", "application/json",
			      "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\","
			      "\"metadata\":{\"name\":\"g\",\"namespace\":\"default\"},"
			      "\"spec\":{\"minMember\":1}}", &status, NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(status, 201);

	nlh = vsnl_msg_put(buf, sizeof(buf), VS_CMD_STATUS, 0);
	cr_assert_not_null(nlh);
	pg = mnl_attr_nest_start(nlh, VS_A_PODGROUP);
	mnl_attr_put_strz(nlh, VS_PG_A_NAMESPACE, "default");
	mnl_attr_put_strz(nlh, VS_PG_A_NAME, "g");
	mnl_attr_put_u32(nlh, VS_PG_A_PHASE, VS_PG_PHASE_RUNNING);
	put_cond(nlh, VS_PG_COND_TYPE_UNSCHEDULABLE, 0, "NotEnoughResources", "6b1e-uuid",
		 1767225600);
	put_cond(nlh, VS_PG_COND_TYPE_SCHEDULED, 42, "tasks in gang are ready to be scheduled",
		 NULL, 0);
	mnl_attr_nest_end(nlh, pg);

	ks = kstatus_new(c, "volcano", 0);
	cr_assert_not_null(ks);
	cr_assert_eq(kstatus_note(ks, nlh), 0);
	end = kinf_clock_ms() + 20000;
	while (kstatus_pending(ks)) {
		cr_assert_lt(kinf_clock_ms(), end, "the status was not written");
		cr_assert_eq(kcl_poll(c, NULL, 0, 50, &e), 0, "%s", e.msg);
	}
	cr_assert_eq(kstatus_stats(ks)->podgroups, 1);
	cr_assert_eq(kcl_call(c, "GET", "/apis/scheduling.volcano.sh/v1beta1/namespaces/default/"
			      "podgroups/g", NULL, NULL, &status, &body, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(status, 200);
	obj = json_loads(body, 0, NULL);
	cr_assert_not_null(obj);
	conds = json_object_get(json_object_get(obj, "status"), "conditions");
	cr_assert_eq(json_array_size(conds), 2, "%s", body);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(conds, 0),
							   "transitionID")), "6b1e-uuid");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(conds, 0),
							   "lastTransitionTime")),
			 "2026-01-01T00:00:00Z");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(conds, 1),
							   "transitionID")), "42");
	cr_assert_str_neq(json_string_value(json_object_get(json_array_get(conds, 1),
							    "lastTransitionTime")),
			  "2026-01-01T00:00:00Z", "a cycle's own: the time of the write");
	json_decref(obj);
	free(body);
	kstatus_free(ks);
	kcl_free(c);
	kapi_fini(&api);
	kc_config_free(&cfg);
}

/* A VS_CMD_STATUS of one PodGroup (@ns set) or one Queue (@ns NULL) named @name. */
static struct nlmsghdr *status_msg(void *buf, size_t cap, const char *ns, const char *name)
{
	struct nlmsghdr *nlh = vsnl_msg_put(buf, cap, VS_CMD_STATUS, 0);
	struct nlattr *nest;

	cr_assert_not_null(nlh);
	if (ns) {
		nest = mnl_attr_nest_start(nlh, VS_A_PODGROUP);
		mnl_attr_put_strz(nlh, VS_PG_A_NAMESPACE, ns);
		mnl_attr_put_strz(nlh, VS_PG_A_NAME, name);
		mnl_attr_put_u32(nlh, VS_PG_A_PHASE, VS_PG_PHASE_RUNNING);
	} else {
		nest = mnl_attr_nest_start(nlh, VS_A_QUEUE);
		mnl_attr_put_strz(nlh, VS_QUEUE_A_NAME, name);
	}
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

/*
 * kstatus keeps one piece of work per object, found by kind, namespace and
 * name: a newer status of an object still waiting replaces the older one,
 * one of an object being written waits for that write; objects of the same
 * name in another namespace or of another kind are other objects.
 */
Test(kstatus, a_waiting_status_is_replaced_by_its_objects_next_and_by_no_other, .timeout = 60)
{
	static unsigned char buf[1024] __attribute__((aligned(8)));
	static const struct {
		const char *ns, *name;
		u64 coalesced;
		u32 pending;
	} notes[] = {
		{ "a", "g", 0, 1 },	/* written at once: inflight is 1 */
		{ "b", "g", 0, 2 },	/* another namespace: waits */
		{ NULL, "g", 0, 3 },	/* a Queue g: waits */
		{ "a", "h", 0, 4 },
		{ "b", "g", 1, 4 },	/* replaces b/g's waiting status */
		{ NULL, "g", 2, 4 },	/* replaces the Queue's */
		{ "a", "g", 2, 4 },	/* a/g is being written: next after it */
		{ "a", "g", 3, 4 },	/* replaces that next */
	};
	struct kc_config cfg = { 0 };
	struct vsnl_err e = { 0 };
	struct kstatus *ks;
	struct kapi api;
	struct kcl *c;

	kapi_init(&api, "kstatus-test");
	kapi_start(&api, 100, &cfg.server);
	c = kcl_new(&cfg, &e);
	cr_assert_not_null(c, "%s", e.msg);
	ks = kstatus_new(c, "volcano", 1);
	cr_assert_not_null(ks);
	for (size_t i = 0; i < ARRAY_SIZE(notes); i++) {
		cr_assert_eq(kstatus_note(ks, status_msg(buf, sizeof(buf), notes[i].ns,
							 notes[i].name)), 0, "note %zu", i);
		cr_assert_eq(kstatus_stats(ks)->coalesced, notes[i].coalesced, "note %zu", i);
		cr_assert_eq(kstatus_pending(ks), notes[i].pending, "note %zu", i);
	}
	kstatus_free(ks);
	kcl_free(c);
	kapi_fini(&api);
	kc_config_free(&cfg);
}
