// SPDX-License-Identifier: Apache-2.0
/*
 * Topology requests read by the manifest reader (userspace/kube/kread_topo.c):
 * a PodGroup's networkTopology and subGroupPolicy, a VolcanoJob's
 * networkTopology and a task's partitionPolicy, each request checked by the
 * codec as the daemon checks it and written out in the order put; and what
 * the reader or the codec refuses, named by its path.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "vsched/vsched.h"
#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"

static struct vsnl_ydocs ydocs;
static struct kr_docs docs;
static struct vsnl_err err;
static char buf[16384];
static char shown[8192];

static void fini(void)
{
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
}

TestSuite(kread_topo, .fini = fini);

__printf(1, 2)
static void show(const char *fmt, ...)
{
	size_t len = strlen(shown);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(shown + len, sizeof(shown) - len, fmt, ap);
	va_end(ap);
}

/* The nests of interest only: the topology request's attributes, by the spec's names. */
static void render(const struct nlattr *nest, const struct vsnl_codec_set *set)
{
	const struct nlattr *a;
	bool first = true;

	show("{");
	mnl_attr_for_each_nested(a, nest) {
		const struct vsnl_codec_attr *p = &set->attrs[mnl_attr_get_type(a)];

		show("%s%s", first ? "" : " ", p->name);
		first = false;
		if (p->type == VSNL_CODEC_NESTED)
			render(a, p->nested);
		else if (p->type == VSNL_CODEC_STRING)
			show("=%s", mnl_attr_get_str(a));
		else if (p->type != VSNL_CODEC_U64)
			show("=%u", mnl_attr_get_u32(a));
	}
	show("}");
}

/*
 * The one document of @text put by kr_put_new(): 0 and its object's
 * attributes @types (up to 3, 0 ends) rendered in shown[]; 1 when the codec
 * refuses it as the daemon would; or the reader's refusal; err says why.
 */
static int put(const char *text, u16 type, const struct vsnl_codec_set *set, const u16 *types)
{
	const struct nlattr *top[VS_A_MAX + 1], *a;
	struct nlmsghdr *nlh = NULL;
	int ret;

	fini();
	memset(&err, 0, sizeof(err));
	shown[0] = '\0';
	cr_assert_eq(vsnl_yaml_parse_docs(text, strlen(text), "m.yaml", &ydocs, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(kr_docs_read("m.yaml", &ydocs, &docs, &err), 0, "%s", err.msg);
	ret = kr_put_new(&docs.v[0], buf, sizeof(buf), &nlh, &err);
	if (ret)
		return ret;
	if (vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top, VSNL_CODEC_REQUEST,
				 &err))
		return 1;
	cr_assert_not_null(top[type]);
	mnl_attr_for_each_nested(a, top[type]) {
		u16 t = mnl_attr_get_type(a);

		for (const u16 *w = types; *w; w++) {
			if (*w != t)
				continue;
			show("%s", set->attrs[t].name);
			if (set->attrs[t].type == VSNL_CODEC_NESTED)
				render(a, set->attrs[t].nested);
			else
				show("=%u", mnl_attr_get_u32(a));
			show(" ");
		}
	}
	return 0;
}

static const u16 pg_types[] = { VS_PG_A_NETWORK_TOPOLOGY, VS_PG_A_SUBGROUP_POLICY, 0 };

static int put_pg(const char *text)
{
	return put(text, VS_A_PODGROUP, &vsnl_codec_podgroup, pg_types);
}

#define PG	"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n" \
		"metadata: {name: pg, namespace: ns}\n"
#define AT4	"m.yaml:4: document 1 (PodGroup ns/pg): spec"

Test(kread_topo, a_podgroups_topology_request_is_put)
{
	cr_assert_eq(put_pg(PG "spec:\n"
			    "  minMember: 4\n"
			    "  networkTopology: {mode: soft, highestTierName: spine}\n"
			    "  subGroupPolicy:\n"
			    "  - name: workers\n"
			    "    networkTopology: {highestTierAllowed: 1}\n"
			    "    subGroupSize: 2\n"
			    "    minSubGroups: 1\n"
			    "    labelSelector:\n"
			    "      matchLabels: {role: worker}\n"
			    "      matchExpressions: [{key: zone, operator: Exists}]\n"
			    "    matchLabelKeys: [rack, volcano.sh/partition-id]\n"
			    "  - {}\n"), 0, "%s", err.msg);
	cr_assert_str_eq(shown,
		"networkTopology{mode=1 highestTierName=spine} "
		"subGroupPolicy{name=workers networkTopology{highestTierAllowed=1} subGroupSize=2 "
		"minSubGroups=1 labelSelector{matchLabels{item{key=role value=worker}} "
		"matchExpressions{key=zone operator=2}} matchLabelKeys=rack "
		"matchLabelKeys=volcano.sh/partition-id} subGroupPolicy{} ");
	cr_assert_eq(put_pg(PG "spec: {networkTopology: {mode: hard}, subGroupPolicy: []}\n"), 0,
		     "%s", err.msg);
	cr_assert_str_eq(shown, "networkTopology{mode=0} ");
	cr_assert_eq(put_pg(PG "spec: {networkTopology: {mode: ''}}\n"), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "networkTopology{} ", "an empty mode is the daemon's default");
}

Test(kread_topo, what_the_reader_or_the_codec_refuses_is_named_by_its_path)
{
	cr_assert_eq(put_pg(PG "spec: {networkTopology: {mode: strict}}\n"), -EINVAL);
	cr_assert(strstr(err.msg, AT4 ".networkTopology.mode") &&
		  strstr(err.msg, "strict") && strstr(err.msg, "hard"), "%s", err.msg);
	cr_assert_eq(put_pg(PG "spec: {networkTopology: {highestTierAllowed: -1}}\n"), -EINVAL);
	cr_assert_str_eq(err.msg, AT4 ".networkTopology.highestTierAllowed: "
			 "net-topology.highestTierAllowed: -1 is negative");
	cr_assert_eq(put_pg(PG "spec: {networkTopology: {tier: 1}}\n"), -EINVAL);
	cr_assert(strstr(err.msg, AT4 ".networkTopology") && strstr(err.msg, "tier"), "%s",
		  err.msg);
	cr_assert_eq(put_pg(PG "spec: {subGroupPolicy: [{subGroupSize: 0}]}\n"), -EINVAL);
	cr_assert_str_eq(err.msg, AT4 ".subGroupPolicy[0].subGroupSize: "
			 "subgroup-policy.subGroupSize: 0 out of 1..2147483647");
	cr_assert_eq(put_pg(PG "spec: {subGroupPolicy: [{}, {matchLabelKeys: [1]}]}\n"), -EINVAL);
	cr_assert(strstr(err.msg, AT4 ".subGroupPolicy[1].matchLabelKeys[0] must be a string"),
		  "%s", err.msg);
	cr_assert_eq(put_pg(PG "spec: {subGroupPolicy: {name: x}}\n"), -EINVAL);
	cr_assert(strstr(err.msg, AT4 ".subGroupPolicy must be a list"), "%s", err.msg);
	cr_assert_eq(put_pg(PG "spec: {subGroupPolicy: [{labelSelector: {matchLabels: x}}]}\n"),
		     -EINVAL);
	cr_assert(strstr(err.msg, AT4 ".subGroupPolicy[0].labelSelector.matchLabels"), "%s",
		  err.msg);
}

static const u16 vjob_types[] = { VS_VJOB_A_NETWORK_TOPOLOGY, VS_VJOB_A_TASK, 0 };

#define VJ	"apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j, namespace: ns}\n"

Test(kread_topo, a_volcano_jobs_network_topology_and_partitions_are_put)
{
	cr_assert_eq(put(VJ "spec:\n"
			 "  networkTopology: {mode: hard, highestTierAllowed: 2}\n"
			 "  tasks:\n"
			 "  - name: w\n    replicas: 4\n"
			 "    partitionPolicy:\n"
			 "      totalPartitions: 2\n      partitionSize: 2\n      minPartitions: 1\n"
			 "      networkTopology: {mode: soft, highestTierName: rack}\n",
			 VS_A_VJOB, &vsnl_codec_vjob, vjob_types), 0, "%s", err.msg);
	cr_assert_str_eq(shown,
		"networkTopology{mode=0 highestTierAllowed=2} "
		"tasks{partitionPolicy{totalPartitions=2 partitionSize=2 minPartitions=1 "
		"networkTopology{mode=1 highestTierName=rack}} name=w replicas=4 request{}} ");
	cr_assert_eq(put(VJ "spec: {tasks: [{name: w, replicas: 4, "
			 "partitionPolicy: {totalPartitions: 0, partitionSize: 2}}]}\n",
			 VS_A_VJOB, &vsnl_codec_vjob, vjob_types), -EINVAL);
	cr_assert_str_eq(err.msg, "m.yaml:4: document 1 (Job ns/j): spec.tasks[0].partitionPolicy"
			 ".totalPartitions: partition-policy.totalPartitions: 0 out of "
			 "1..2147483647");
	cr_assert_eq(put(VJ "spec: {tasks: [{name: w, replicas: 4, "
			 "partitionPolicy: {totalPartitions: 2}}]}\n",
			 VS_A_VJOB, &vsnl_codec_vjob, vjob_types), 1, "the daemon's refusal");
	cr_assert(strstr(err.msg, "partitionSize: required but missing"), "%s", err.msg);
}
