// SPDX-License-Identifier: Apache-2.0
/*
 * The API server's JSON as libvsnl's YAML tree (kj_to_ynode(),
 * userspace/vskube/kjson.h): JSON is YAML's flow style, so the same text
 * read by jansson and converted must be, node for node, the tree that
 * vsnl_yaml_parse() makes of it: types, texts, values, keys in order. What
 * YAML refuses is refused, and a failed allocation leaves nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/mem.h"
#include "lib/ytree.h"
#include "vskube/kjson.h"

TestSuite(kjson_ynode);

/* @a and @b the same tree; @where names the place in the failure's message. */
static void same_tree(const struct vsnl_ynode *a, const struct vsnl_ynode *b, const char *where)
{
	cr_assert_eq(a->type, b->type, "%s: type %d, YAML's %d", where, a->type, b->type);
	cr_assert_eq(a->line, b->line, "%s: line", where);
	if (a->text || b->text) {
		cr_assert(a->text && b->text, "%s: text %s, YAML's %s", where, a->text ?: "NULL",
			  b->text ?: "NULL");
		cr_assert_str_eq(a->text, b->text, "%s", where);
	}
	switch (a->type) {
	case VSNL_Y_BOOL:
		cr_assert_eq(a->b, b->b, "%s", where);
		break;
	case VSNL_Y_INT:
		cr_assert_eq(a->i, b->i, "%s", where);
		break;
	case VSNL_Y_FLOAT:
		cr_assert_eq(a->f, b->f, "%s", where);
		break;
	case VSNL_Y_MAP:
		cr_assert_eq(a->map.nr, b->map.nr, "%s: keys", where);
		for (u32 i = 0; i < a->map.nr; i++) {
			cr_assert_str_eq(a->map.pairs[i].key, b->map.pairs[i].key, "%s: key %u",
					 where, i);
			cr_assert_eq(a->map.pairs[i].line, b->map.pairs[i].line, "%s", where);
			same_tree(&a->map.pairs[i].val, &b->map.pairs[i].val, a->map.pairs[i].key);
		}
		break;
	case VSNL_Y_SEQ:
		cr_assert_eq(a->seq.nr, b->seq.nr, "%s: items", where);
		for (u32 i = 0; i < a->seq.nr; i++)
			same_tree(&a->seq.items[i], &b->seq.items[i], where);
		break;
	default:
		break;
	}
}

static const char *const objects[] = {
	/* a Pod, as the API server sends one */
	"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p1\",\"namespace\":"
	"\"team\",\"uid\":\"3f1e2d4c-aaaa-4bbb-8ccc-123456789abc\",\"resourceVersion\":\"7\","
	"\"creationTimestamp\":\"2026-11-23T10:00:00Z\",\"labels\":{\"app\":\"web\"},"
	"\"annotations\":{\"scheduling.k8s.io/group-name\":\"pg1\"},\"ownerReferences\":"
	"[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"web-7d9f\","
	"\"uid\":\"u2\",\"controller\":true,\"blockOwnerDeletion\":true}]},"
	"\"spec\":{\"schedulerName\":\"volcano\",\"nodeName\":\"\",\"priority\":1000,"
	"\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"args\":[\"sleep\",\"3600\"],"
	"\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},\"limits\":"
	"{\"cpu\":\"1\"}}}],\"tolerations\":[{\"key\":\"gpu\",\"operator\":\"Exists\","
	"\"effect\":\"NoSchedule\",\"tolerationSeconds\":300}],\"affinity\":{}},"
	"\"status\":{\"phase\":\"Pending\",\"conditions\":[],\"qosClass\":\"Burstable\"}}",
	/* a Node, its quantities as numbers and as strings */
	"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
	"\"status\":{\"allocatable\":{\"cpu\":8,\"memory\":\"32Gi\",\"pods\":110,"
	"\"nvidia.com/gpu\":0.5,\"example.com/big\":2.0,\"ephemeral-storage\":\"100G\"},"
	"\"capacity\":{\"cpu\":\"8\",\"memory\":34359738368},\"conditions\":[{\"type\":"
	"\"Ready\",\"status\":\"True\"}],\"unschedulable\":false,\"taints\":null}}",
	/* nested lists, empty maps and lists */
	"{\"a\":[[1,[2,[3,[]]]],{},[{}],[[]]],\"b\":{\"c\":{\"d\":{\"e\":[]}}},\"f\":[]}",
	/* unicode and escapes */
	"{\"u\":\"caf\u00e9 \u65e5\u672c\u8a9e \U0001F600\",\"e\":\"\\u00e9\\u4e2d\","
	"\"q\":\"a\\\"b\\\\c\\nd\\te\\r\\bf\\u000c\",\"s\":\"a/b\\/c\",\"k\\\"ey\":1,"
	"\"\":\"empty key\",\"space key\":\" lead and trail \",\"colon\":\"a: b\","
	"\"hash\":\"# not a comment\",\"yes\":\"yes\",\"num\":\"012\",\"nullish\":\"null\"}",
	/* large integers, floats */
	"{\"max\":9223372036854775807,\"min\":-9223372036854775808,\"zero\":0,\"neg\":-17,"
	"\"half\":0.5,\"neg_real\":-1.25,\"whole\":2.0,\"pi\":3.14159,\"tiny\":1e-07,"
	"\"huge\":1e+21,\"third\":0.3333333333333333}",
	/* scalars at the root */
	"[true,false,null,\"x\",-0.75]",
};

Test(kjson_ynode, json_is_the_tree_yaml_makes_of_the_same_text)
{
	for (u32 i = 0; i < ARRAY_SIZE(objects); i++) {
		struct vsnl_err err = { 0 };
		struct vsnl_ynode got, want;
		json_error_t jerr;
		json_t *j = json_loads(objects[i], 0, &jerr);

		cr_assert_not_null(j, "object %u: %s", i, jerr.text);
		cr_assert_eq(kj_to_ynode(j, "pods team/p1", &got), 0, "object %u", i);
		json_decref(j);
		cr_assert_eq(vsnl_yaml_parse(objects[i], strlen(objects[i]), "m.json", &want, &err),
			     0, "object %u: %s", i, err.msg);
		same_tree(&got, &want, "root");
		vsnl_ynode_free(&got);
		vsnl_ynode_free(&want);
	}
}

Test(kjson_ynode, numbers_keep_the_text_a_quantity_reads)
{
	json_t *j = json_loads("{\"a\":2,\"b\":0.5,\"c\":100000000000000000000}",
			       JSON_DECODE_INT_AS_REAL, NULL);
	struct vsnl_ynode n;

	cr_assert_not_null(j);
	cr_assert_eq(kj_to_ynode(j, "src", &n), 0);
	json_decref(j);
	cr_assert_str_eq(n.map.pairs[0].val.text, "2.0", "an integer decoded as a real");
	cr_assert_eq(n.map.pairs[0].val.type, VSNL_Y_FLOAT);
	cr_assert_str_eq(n.map.pairs[1].val.text, "0.5");
	/* past s64: a number, as no YAML integer can be */
	cr_assert_eq(n.map.pairs[2].val.type, VSNL_Y_FLOAT);
	cr_assert_str_eq(n.map.pairs[2].val.text, "1e+20");
	vsnl_ynode_free(&n);
}

/* @depth arrays one in another: "[[...]]". */
static json_t *nested(u32 depth)
{
	json_t *j = json_array();

	for (u32 i = 1; i < depth; i++) {
		json_t *outer = json_array();

		cr_assert_eq(json_array_append_new(outer, j), 0);
		j = outer;
	}
	return j;
}

Test(kjson_ynode, what_yaml_refuses_is_refused)
{
	json_t *j = json_loads("{\"a\":{\"b\":[\"x\",\"nul\\u0000byte\"]}}", JSON_ALLOW_NUL, NULL);
	struct vsnl_ynode n;

	cr_assert_not_null(j);
	cr_assert_eq(kj_to_ynode(j, "src", &n), -EINVAL);
	cr_assert_eq(n.type, VSNL_Y_NULL);
	cr_assert_null(n.map.pairs);
	json_decref(j);

	j = nested(VSNL_YAML_DEPTH_MAX);
	cr_assert_eq(kj_to_ynode(j, "src", &n), 0, "as deep as YAML reads");
	vsnl_ynode_free(&n);
	json_decref(j);
	j = nested(VSNL_YAML_DEPTH_MAX + 1);
	cr_assert_eq(kj_to_ynode(j, "src", &n), -EINVAL);
	cr_assert_eq(n.type, VSNL_Y_NULL);
	json_decref(j);
}

static u32 allocs_left;

/* calloc, until @allocs_left allocations are made. */
static void *failing_calloc(size_t nr, size_t size)
{
	if (!allocs_left)
		return NULL;
	allocs_left--;
	return calloc(nr, size);
}

Test(kjson_ynode, a_failed_allocation_leaves_nothing)
{
	json_t *j = json_loads(objects[0], 0, NULL);
	bool counted = vs_mem_counted(NULL);
	u64 before = vs_mem_allocated();
	struct vsnl_ynode n;
	u32 fails = 0;

	cr_assert_not_null(j);
	kj_calloc = failing_calloc;
	/* each allocation in turn fails; what was made before it is freed */
	for (u32 k = 0;; k++) {
		int ret;

		allocs_left = k;
		ret = kj_to_ynode(j, "src", &n);
		if (!ret)
			break;
		cr_assert_eq(ret, -ENOMEM, "allocation %u", k);
		cr_assert_eq(n.type, VSNL_Y_NULL, "allocation %u", k);
		cr_assert_null(n.text);
		cr_assert_null(n.map.pairs);
		fails++;
	}
	kj_calloc = calloc;
	cr_assert_gt(fails, 50, "every key, string and collection allocates");
	cr_assert_eq(n.type, VSNL_Y_MAP);
	vsnl_ynode_free(&n);
	/* the heap as it was (where the build counts it: jemalloc, ASan) */
	if (counted)
		cr_assert_eq(vs_mem_allocated(), before, "%lld bytes left behind",
			     (long long)(vs_mem_allocated() - before));
	json_decref(j);
}
