// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the digests kstatus compares a first status with
 * (userspace/vskube/kstatus.h): a status as the API server holds it and
 * the same status as kstatus writes it must agree, whatever the times and
 * transition ids, and any difference Volcano sees must show.
 */
#include <criterion/criterion.h>
#include <jansson.h>

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
}
