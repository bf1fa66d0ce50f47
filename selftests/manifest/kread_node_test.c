// SPDX-License-Identifier: Apache-2.0
/*
 * Nodes read by the manifest reader without the core (kread_node.c): the
 * request's labels, taints, allocatable resources, cordon and readiness,
 * and the same texts held to the old reader's answers (manifest.c's, kept
 * in the table), the requests' values and every refusal's message alike.
 */
#include "kread_kind.h"

TestSuite(kread_node, .fini = kt_fini);

#define N_HEAD	"apiVersion: v1\nkind: Node\n"

static const struct nlattr *node_obj;

static int put_node(const char *text, struct vsnl_node_tb *tb)
{
	int ret = kt_put(text, VS_CMD_NODE_NEW, VS_A_NODE, &node_obj);

	if (ret)
		return ret;
	cr_assert_eq(vsnl_node_parse(node_obj, tb, VSNL_CODEC_REQUEST, &kt_err), 0, "%s",
		     kt_err.msg);
	return 0;
}

/* The labels nest's pairs in the order put: "k=v,...". */
static void labels_in_order(const struct nlattr *nest, char *out, size_t size)
{
	const struct nlattr *a;
	size_t len = 0;

	out[0] = '\0';
	mnl_attr_for_each_nested(a, nest) {
		struct vsnl_kv_tb kv;

		cr_assert_eq(vsnl_kv_parse(a, &kv, VSNL_CODEC_REQUEST, &kt_err), 0);
		len += (size_t)snprintf(out + len, size - len, "%s%s=%s", len ? "," : "",
					vsnl_kv_get_key(&kv), vsnl_kv_get_value(&kv));
		cr_assert_lt(len, size);
	}
}

Test(kread_node, every_field_is_put)
{
	struct vsnl_node_tb tb;
	char text[KT_TEXT_MAX];
	uint8_t unsched = 9, ready = 9;

	cr_assert_eq(put_node(N_HEAD "metadata:\n  name: n1\n  uid: '1234'\n"
			      "  labels: {zone: a, kubernetes.io/hostname: n1}\n"
			      "spec:\n  unschedulable: true\n  podCIDR: 10.0.0.0/24\n"
			      "  taints:\n  - {key: k, value: v, effect: NoExecute, "
			      "timeAdded: '2024-01-01T00:00:00Z'}\n"
			      "  - {key: gpu, effect: PreferNoSchedule}\n"
			      "status:\n  capacity: {cpu: '8'}\n"
			      "  allocatable: {cpu: 3500m, memory: 4Gi, pods: 110,\n"
			      "    nvidia.com/gpu: 2}\n"
			      "  conditions:\n  - {type: DiskPressure, status: 'False'}\n"
			      "  - {type: Ready, status: 'False', reason: KubeletNotReady}\n",
			      &tb), 0, "%s", kt_err.msg);
	cr_assert_str_eq(vsnl_node_get_name(&tb), "n1");
	labels_in_order(vsnl_node_get_labels(&tb), text, sizeof(text));
	cr_assert_str_eq(text, "zone=a,kubernetes.io/hostname=n1");
	kt_taints(node_obj, VS_NODE_A_TAINT, text, sizeof(text));
	cr_assert_str_eq(text, "gpu=:PreferNoSchedule,k=v:NoExecute");
	kt_res(vsnl_node_get_allocatable(&tb), false, text, sizeof(text));
	cr_assert_str_eq(text, "cpu=3500,memory=4294967296,nvidia.com/gpu=2000,pods=110");
	cr_assert(vsnl_node_get_unschedulable(&tb, &unsched));
	cr_assert_eq(unsched, 1);
	cr_assert(vsnl_node_get_ready(&tb, &ready));
	cr_assert_eq(ready, 0);
}

/* status.images: each entry's names and size, in the order written. */
Test(kread_node, status_images_are_put_entry_by_entry)
{
	struct vsnl_node_tb tb;
	char text[256];
	size_t len = 0;
	const struct nlattr *a;

	cr_assert_eq(put_node(N_HEAD "metadata: {name: n1}\nstatus:\n  images:\n"
			      "  - {names: ['nginx@sha256:ab', 'nginx:1.25'], sizeBytes: 187000000}\n"
			      "  - {names: [pause]}\n", &tb), 0, "%s", kt_err.msg);
	text[0] = '\0';
	mnl_attr_for_each_nested(a, node_obj) {
		const struct nlattr *b;
		struct vsnl_node_image_tb im;
		uint64_t size = 0;

		if (mnl_attr_get_type(a) != VS_NODE_A_IMAGE)
			continue;
		cr_assert_eq(vsnl_node_image_parse(a, &im, VSNL_CODEC_REQUEST, &kt_err), 0, "%s",
			     kt_err.msg);
		vsnl_node_image_get_size(&im, &size);
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s[", len ? " " : "");
		mnl_attr_for_each_nested(b, a)
			if (mnl_attr_get_type(b) == VS_NIMG_A_NAME)
				len += (size_t)snprintf(text + len, sizeof(text) - len, "%s,",
							mnl_attr_get_str(b));
		len += (size_t)snprintf(text + len, sizeof(text) - len, "]=%llu",
					(unsigned long long)size);
		cr_assert_lt(len, sizeof(text));
	}
	cr_assert_str_eq(text, "[nginx@sha256:ab,nginx:1.25,]=187000000 [pause,]=0");
	cr_assert_eq(put_node(N_HEAD "metadata: {name: n1}\nstatus: {images: [{sizeBytes: 1}]}\n",
			      &tb), -EINVAL);
	cr_assert_str_eq(kt_err.msg, "m.yaml:4: document 1 (Node n1): status.images[0].names: "
			 "required");
	cr_assert_eq(put_node(N_HEAD "metadata: {name: n1}\n"
			      "status: {images: [{names: [a], sizeBytes: -1}]}\n", &tb), -EINVAL);
	cr_assert_str_eq(kt_err.msg, "m.yaml:4: document 1 (Node n1): status.images[0].sizeBytes "
			 "must be between 0 and 9223372036854775807");
}

Test(kread_node, capacity_is_taken_when_allocatable_is_not_given)
{
	struct vsnl_node_tb tb;
	char text[KT_TEXT_MAX];

	cr_assert_eq(put_node(N_HEAD "metadata: {name: n1}\n"
			      "status: {capacity: {cpu: 8, pods: 10}, allocatable: ~}\n", &tb), 0,
		     "%s", kt_err.msg);
	kt_res(vsnl_node_get_allocatable(&tb), false, text, sizeof(text));
	cr_assert_str_eq(text, "cpu=8000,memory=0,pods=10");
	cr_assert_eq(put_node(N_HEAD "metadata: {name: n1}\n"
			      "status: {capacity: {cpu: 8}, allocatable: {cpu: 7}}\n", &tb), 0);
	kt_res(vsnl_node_get_allocatable(&tb), false, text, sizeof(text));
	cr_assert_str_eq(text, "cpu=7000,memory=0");
}

/* Schedulable and ready: the daemon's defaults, Volcano's for a node without a Ready condition. */
Test(kread_node, a_bare_node_leaves_its_state_to_the_daemon)
{
	struct vsnl_node_tb tb;
	uint8_t v = 9;

	cr_assert_eq(put_node(N_HEAD "metadata: {name: n1}\nspec: {}\n"
			      "status: {conditions: [{type: MemoryPressure, status: 'True'}]}\n",
			      &tb), 0, "%s", kt_err.msg);
	cr_assert_not(vsnl_node_get_ready(&tb, &v));
	cr_assert_not(vsnl_node_get_unschedulable(&tb, &v));
	cr_assert_null(vsnl_node_get_allocatable(&tb));
	cr_assert_null(vsnl_node_get_labels(&tb));
	cr_assert_null(vsnl_node_get_taint(&tb));
}

/* Of several Ready conditions the last one counts, as in the old reader's node_ready(). */
Test(kread_node, the_last_ready_condition_counts)
{
	struct vsnl_node_tb tb;
	uint8_t v = 9;

	cr_assert_eq(put_node(N_HEAD "metadata: {name: n1}\nstatus:\n  conditions:\n"
			      "  - {type: Ready, status: 'False'}\n"
			      "  - {type: Ready, status: 'True'}\n", &tb), 0, "%s", kt_err.msg);
	cr_assert(vsnl_node_get_ready(&tb, &v));
	cr_assert_eq(v, 1);
	cr_assert_eq(put_node(N_HEAD "metadata: {name: n1}\nstatus:\n  conditions:\n"
			      "  - {type: Ready, status: Unknown}\n", &tb), 0);
	cr_assert(vsnl_node_get_ready(&tb, &v));
	cr_assert_eq(v, 0);
}

/*
 * A taint without an effect: the old reader made it NoSchedule; kread
 * sends it as written, and the daemon refuses it (a taint needs a key and
 * an effect), as Kubernetes' validation of a Node does.
 */
Test(kread_node, a_taint_without_an_effect_is_sent_without_one)
{
	const struct nlattr *top[VS_A_MAX + 1] = { 0 }, *a, *t;
	struct nlmsghdr *nlh = NULL;
	u32 nr = 0;

	cr_assert_eq(kt_read(N_HEAD "metadata: {name: n1}\nspec: {taints: [{key: k, value: v}]}\n"),
		     0);
	cr_assert_eq(kr_put_new(&kt_docs.v[0], kt_buf, sizeof(kt_buf), &nlh, &kt_err), 0, "%s",
		     kt_err.msg);
	/* the codec, checking the request as the daemon does, refuses it */
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top,
					  VSNL_CODEC_REQUEST, &kt_err), -EINVAL);
	cr_assert_not_null(strstr(kt_err.msg, "effect"), "%s", kt_err.msg);
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		cr_assert_eq(mnl_attr_get_type(a), VS_A_NODE);
		mnl_attr_for_each_nested(t, a) {
			const struct nlattr *f;

			if (mnl_attr_get_type(t) != VS_NODE_A_TAINT)
				continue;
			nr++;
			mnl_attr_for_each_nested(f, t)
				cr_assert_neq(mnl_attr_get_type(f), VS_TAINT_A_EFFECT);
		}
	}
	cr_assert_eq(nr, 1);
}

Test(kread_node, refusals_name_the_field)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ N_HEAD "metadata: {name: n1}\nstatus: {allocatable: {cpu: abc}}\n",
		  "m.yaml:4: document 1 (Node n1): status.allocatable.cpu: invalid quantity "
		  "\"abc\": no digits" },
		{ N_HEAD "metadata: {name: n1}\nspec: {taints: [{key: k, effect: NoScheduel}]}\n",
		  "m.yaml:4: document 1 (Node n1): spec.taints[0].effect: unknown taint effect "
		  "\"NoScheduel\" (NoSchedule, PreferNoSchedule or NoExecute)" },
		{ N_HEAD "metadata: {name: n1}\nspec: {taints: [{key: k, effect: \"\"}]}\n",
		  "m.yaml:4: document 1 (Node n1): spec.taints[0].effect: taint effect is required "
		  "(NoSchedule, PreferNoSchedule or NoExecute)" },
		{ N_HEAD "metadata: {name: n1}\nspec:\n  taints:\n"
		  "  - {key: k, effect: NoSchedule}\n"
		  "  - {key: k, effect: NoSchedule, operator: Exists}\n",
		  "m.yaml:7: document 1 (Node n1): spec.taints[1].operator: unknown field "
		  "(known: key, value, effect, timeAdded)" },
		{ N_HEAD "metadata: {name: n1, labels: {zone: a, rack: 7}}\n",
		  "m.yaml:3: document 1 (Node n1): metadata.labels.rack must be a string, "
		  "not an integer" },
		{ N_HEAD "metadata: {name: n1}\n"
		  "status: {conditions: [{type: Ready, status: Maybe}]}\n",
		  "m.yaml:1: document 1 (Node n1): status.conditions[0].status: \"Maybe\" is not "
		  "True, False or Unknown" },
		{ N_HEAD "metadata: {name: n1}\nspec: {unschedulable: 1}\n",
		  "m.yaml:4: document 1 (Node n1): spec.unschedulable must be true or false, "
		  "not an integer" },
		{ N_HEAD "metadata: {name: n1}\nspec: {taints: {key: k}}\n",
		  "m.yaml:4: document 1 (Node n1): spec.taints must be a list, not a mapping" },
	};

	for (u32 i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vsnl_node_tb tb;

		cr_assert_eq(put_node(cases[i].text, &tb), -EINVAL, "case %u", i);
		cr_assert_str_eq(kt_err.msg, cases[i].msg, "case %u: %s", i, kt_err.msg);
	}
}

/* ---- against the old reader's answers ---- */

/*
 * A node's request @obj (read into @tb) as one line. The old reader sent
 * the defaults, kread leaves them to the daemon's, which are the same:
 * schedulable, ready.
 */
static void n_show(const struct nlattr *obj, const struct vsnl_node_tb *tb, char *out,
		   size_t size)
{
	char taints[KT_TEXT_MAX], labels[KT_TEXT_MAX], alloc[KT_TEXT_MAX];
	uint8_t unsched = 0, ready = 1;

	kt_taints(obj, VS_NODE_A_TAINT, taints, sizeof(taints));
	kt_labels(vsnl_node_get_labels(tb), labels, sizeof(labels));
	kt_res(vsnl_node_get_allocatable(tb), true, alloc, sizeof(alloc));
	vsnl_node_get_unschedulable(tb, &unsched);
	vsnl_node_get_ready(tb, &ready);
	cr_assert_lt((size_t)snprintf(out, size, "%s taints{%s} labels{%s} allocatable{%s} "
				      "unschedulable=%u ready=%u", vsnl_node_get_name(tb), taints,
				      labels, alloc, unsched, ready), size);
}

static const struct {
	const char *text;
	const char *req;	/* the old reader's request (n_show()) */
	const char *msg;	/* or its refusal */
} n_cases[] = {
	{ N_HEAD "metadata: {name: n1}\n",
	  .req = "n1 taints{} labels{} allocatable{cpu=0,memory=0,pods=0} unschedulable=0 "
	  "ready=1" },
	{ N_HEAD "metadata: {name: n1, labels: {a: b, c: \"\"}}\nspec: {unschedulable: false}\n",
	  .req = "n1 taints{} labels{a=b,c=} allocatable{cpu=0,memory=0,pods=0} unschedulable=0 "
	  "ready=1" },
	{ N_HEAD "metadata: {name: n1, uid: x, annotations: {a: b},\n"
	         "  creationTimestamp: '2026-01-01T00:00:00Z'}\n",
	  .req = "n1 taints{} labels{} allocatable{cpu=0,memory=0,pods=0} unschedulable=0 "
	  "ready=1" },
	{ N_HEAD "metadata:\n  name: n1\n  labels: {kubernetes.io/hostname: n1}\nspec: {}\n"
	         "status:\n  capacity: {cpu: \"8\", memory: 16Gi, pods: \"110\"}\n"
	         "  allocatable: {cpu: \"8\", memory: 16Gi, pods: \"110\"}\n"
	         "  conditions:\n  - {type: Ready, status: \"True\"}\n",
	  .req = "n1 taints{} labels{kubernetes.io/hostname=n1} "
	  "allocatable{cpu=8000,memory=17179869184,pods=110} unschedulable=0 ready=1" },
	{ N_HEAD "metadata: {name: n1}\nspec:\n  unschedulable: true\n"
	         "  taints: [{key: k, value: v, effect: NoExecute, timeAdded: x}, {key: a, "
	         "effect: NoSchedule}, {key: b, value: c, effect: PreferNoSchedule}]\n"
	         "status:\n  capacity: {cpu: '8'}\n"
	         "  allocatable: {cpu: 3500m, memory: 4Gi, pods: 110, nvidia.com/gpu: 2}\n"
	         "  conditions:\n  - {type: DiskPressure, status: 'False'}\n"
	         "  - {type: Ready, status: 'False', reason: KubeletNotReady}\n",
	  .req = "n1 taints{a=:NoSchedule,b=c:PreferNoSchedule,k=v:NoExecute} labels{} "
	  "allocatable{cpu=3500,memory=4294967296,nvidia.com/gpu=2000,pods=110} unschedulable=1 "
	  "ready=0" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {capacity: {cpu: 2, memory: 1Gi}}\n",
	  .req = "n1 taints{} labels{} allocatable{cpu=2000,memory=1073741824,pods=0} "
	  "unschedulable=0 ready=1" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {conditions: [{type: Ready, status: Unknown}, "
	         "{type: Ready}]}\n",
	  .msg = "m.yaml:1: document 1 (Node n1): status.conditions[1].status: \"\" is not True, "
	  "False or Unknown" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {conditions: [{status: 'True'}, {type: ~}]}\n",
	  .req = "n1 taints{} labels{} allocatable{cpu=0,memory=0,pods=0} unschedulable=0 "
	  "ready=1" },
	{ N_HEAD "metadata: {name: n1}\nspec: {taints: []}\nstatus: {allocatable: {}}\n",
	  .req = "n1 taints{} labels{} allocatable{cpu=0,memory=0,pods=0} unschedulable=0 "
	  "ready=1" },
	/* refused, in the same words */
	{ N_HEAD "metadata: {name: n1}\nstatus: {allocatable: {cpu: abc}}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): status.allocatable.cpu: invalid quantity "
	  "\"abc\": no digits" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {capacity: {memory: -1}}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): status.capacity.memory: invalid quantity "
	  "\"-1\": negative values are not allowed" },
	{ N_HEAD "metadata: {name: n1}\nspec: {taints: [{key: k, effect: NoScheduel}]}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): spec.taints[0].effect: unknown taint effect "
	  "\"NoScheduel\" (NoSchedule, PreferNoSchedule or NoExecute)" },
	{ N_HEAD "metadata: {name: n1}\nspec: {taints: [{key: k, effect: \"\"}]}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): spec.taints[0].effect: taint effect is "
	  "required (NoSchedule, PreferNoSchedule or NoExecute)" },
	{ N_HEAD "metadata: {name: n1}\nspec: {taints: [{key: k, effect: [NoSchedule]}]}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): spec.taints[0].effect must be a string, not a "
	  "list" },
	{ N_HEAD "metadata: {name: n1}\nspec: {taints: [{key: k, effect: NoSchedule, op: x}]}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): spec.taints[0].op: unknown field (known: key, "
	  "value, effect, timeAdded)" },
	{ N_HEAD "metadata: {name: n1}\nspec: {taints: [{key: 1, effect: NoSchedule}]}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): spec.taints[0].key must be a string, not an "
	  "integer" },
	{ N_HEAD "metadata: {name: n1}\nspec: {taints: [key]}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): spec.taints[0] must be a mapping, not a string" },
	{ N_HEAD "metadata: {name: n1}\nspec: {taints: {key: k}}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): spec.taints must be a list, not a mapping" },
	{ N_HEAD "metadata: {name: n1, labels: {zone: a, rack: 7}}\n",
	  .msg = "m.yaml:3: document 1 (Node n1): metadata.labels.rack must be a string, not an "
	  "integer" },
	{ N_HEAD "metadata: {name: n1, labels: [zone]}\n",
	  .msg = "m.yaml:3: document 1 (Node n1): metadata.labels must be a mapping of strings, "
	  "not a list" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {conditions: [{type: Ready, status: Maybe}]}\n",
	  .msg = "m.yaml:1: document 1 (Node n1): status.conditions[0].status: \"Maybe\" is not "
	  "True, False or Unknown" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {conditions: [{type: Ready}, "
	         "{type: Ready, status: Maybe}]}\n",
	  .msg = "m.yaml:1: document 1 (Node n1): status.conditions[0].status: \"\" is not True, "
	  "False or Unknown" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {conditions: [{type: Ready, status: true}]}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): status.conditions[0].status must be a string, "
	  "not a boolean" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {conditions: {type: Ready}}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): status.conditions must be a list, not a "
	  "mapping" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {conditions: [Ready]}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): status.conditions[0] must be a mapping, not a "
	  "string" },
	{ N_HEAD "metadata: {name: n1}\nspec: {unschedulable: yes please}\n",
	  .msg = "m.yaml:4: document 1 (Node n1): spec.unschedulable must be true or false, not "
	  "a string" },
	{ N_HEAD "metadata: {name: n1}\nspec: 3\n",
	  .msg = "m.yaml:4: document 1 (Node n1): spec must be a mapping, not an integer" },
	{ N_HEAD "metadata: {labels: {a: b}}\n",
	  .msg = "m.yaml:1: document 1 (Node): metadata.name: required" },
	{ N_HEAD "metadata: {name: n1, annotations: {a: [b]}}\n",
	  .msg = "m.yaml:3: document 1 (Node n1): metadata.annotations.a must be a string, not a "
	  "list" },
	{ N_HEAD "metadata: {name: n1, creationTimestamp: now}\n",
	  .msg = "m.yaml:3: document 1 (Node n1): metadata.creationTimestamp: \"now\" is not a "
	  "time as Kubernetes writes one (RFC 3339: 2026-01-01T00:00:00Z)" },
	{ N_HEAD "metadata: {name: n1, uid: {a: b}}\n",
	  .msg = "m.yaml:3: document 1 (Node n1): metadata.uid must be a string, not a mapping" },
	{ N_HEAD "metadata: {name: [n1]}\n",
	  .msg = "m.yaml:3: document 1 (Node): metadata.name must be a string, not a list" },
	{ N_HEAD "metadata: {name: n1}\nstatus: {allocatable: {cpu: 1}}\nstatus2: {}\n",
	  .msg = "m.yaml:5: document 1 (Node n1): status2: unknown field (known: apiVersion, "
	  "kind, metadata, spec, status)" },
};

Test(kread_node, nodes_read_as_the_old_reader_reads_them)
{
	for (u32 i = 0; i < ARRAY_SIZE(n_cases); i++) {
		char line[4 * KT_TEXT_MAX];
		struct vsnl_node_tb got;
		int ret = put_node(n_cases[i].text, &got);

		if (n_cases[i].msg) {
			cr_assert_neq(ret, 0, "text %u: read, the old reader refused it", i);
			cr_assert_str_eq(kt_err.msg, n_cases[i].msg, "text %u", i);
			continue;
		}
		cr_assert_eq(ret, 0, "text %u: %s", i, kt_err.msg);
		n_show(node_obj, &got, line, sizeof(line));
		cr_assert_str_eq(line, n_cases[i].req, "text %u", i);
	}
}
