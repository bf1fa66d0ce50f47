// SPDX-License-Identifier: Apache-2.0
/*
 * Queues read by the manifest reader without the core (kread_queue.c):
 * what the request says, what it leaves to the daemon's defaults (which
 * are Volcano's), and the same texts held to the old reader's answers
 * (manifest.c's, kept in the table), the requests' values and every
 * refusal's message alike.
 */
#include "kread_kind.h"

TestSuite(kread_queue, .fini = kt_fini);

#define Q_HEAD	"apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"

static int put_queue(const char *text, struct vsnl_queue_tb *tb)
{
	const struct nlattr *obj = NULL;
	int ret = kt_put(text, VS_CMD_QUEUE_NEW, VS_A_QUEUE, &obj);

	if (ret)
		return ret;
	cr_assert_eq(vsnl_queue_parse(obj, tb, VSNL_CODEC_REQUEST, &kt_err), 0, "%s", kt_err.msg);
	return 0;
}

Test(kread_queue, every_field_is_put)
{
	struct vsnl_queue_tb tb;
	char res[KT_TEXT_MAX];
	uint32_t weight = 0, state = 9;
	uint64_t created = 0;
	uint8_t reclaimable = 9;
	int32_t prio = 0;

	cr_assert_eq(put_queue(Q_HEAD "metadata: {name: q1, labels: {a: b},\n"
			       "  creationTimestamp: '2026-01-01T00:01:00+00:01'}\n"
			       "spec:\n  weight: 3\n  capability: {cpu: 10, nvidia.com/gpu: 2}\n"
			       "  guarantee: {resource: {memory: 1Gi}}\n  deserved: {cpu: 500m}\n"
			       "  reclaimable: false\n  priority: -7\n  parent: root\n"
			       "  extendClusters: []\n"
			       "status: {state: Closing, running: 3}\n", &tb), 0, "%s", kt_err.msg);
	cr_assert_str_eq(vsnl_queue_get_name(&tb), "q1");
	cr_assert(vsnl_queue_get_weight(&tb, &weight));
	cr_assert_eq(weight, 3);
	kt_res(vsnl_queue_get_capability(&tb), false, res, sizeof(res));
	cr_assert_str_eq(res, "cpu=10000,memory=0,nvidia.com/gpu=2000");
	kt_res(vsnl_queue_get_guarantee(&tb), false, res, sizeof(res));
	cr_assert_str_eq(res, "cpu=0,memory=1073741824");
	kt_res(vsnl_queue_get_deserved(&tb), false, res, sizeof(res));
	cr_assert_str_eq(res, "cpu=500,memory=0");
	cr_assert(vsnl_queue_get_reclaimable(&tb, &reclaimable));
	cr_assert_eq(reclaimable, 0);
	cr_assert(vsnl_queue_get_priority(&tb, &prio));
	cr_assert_eq(prio, -7);
	cr_assert_str_eq(vsnl_queue_get_parent(&tb), "root");
	cr_assert(vsnl_queue_get_state(&tb, &state));
	cr_assert_eq(state, VS_QUEUE_STATE_CLOSING);
	cr_assert(vsnl_queue_get_created(&tb, &created));
	cr_assert_eq(created, 1767225600);	/* 2026-01-01T00:00:00Z */
}

/*
 * Volcano's webhook makes weight 0 (or none) 1 and reclaimable true, and
 * its queue controller an empty state Open: the daemon's defaults, so
 * none of them is sent.
 */
Test(kread_queue, what_volcano_defaults_is_left_to_the_daemon)
{
	static const char *const texts[] = {
		Q_HEAD "metadata: {name: q}\n",
		Q_HEAD "metadata: {name: q}\nspec: {weight: 0}\nstatus: {state: \"\"}\n",
		Q_HEAD "metadata: {name: q}\nspec: {weight: ~, reclaimable: ~, capability: ~}\n"
		       "status: ~\n",
	};

	for (u32 i = 0; i < ARRAY_SIZE(texts); i++) {
		struct vsnl_queue_tb tb;
		uint64_t c = 0;
		uint32_t u = 0;
		uint8_t b = 0;
		int32_t s = 0;

		cr_assert_eq(put_queue(texts[i], &tb), 0, "text %u: %s", i, kt_err.msg);
		cr_assert_str_eq(vsnl_queue_get_name(&tb), "q");
		cr_assert_not(vsnl_queue_get_weight(&tb, &u), "text %u", i);
		cr_assert_not(vsnl_queue_get_reclaimable(&tb, &b), "text %u", i);
		cr_assert_not(vsnl_queue_get_state(&tb, &u), "text %u", i);
		cr_assert_not(vsnl_queue_get_priority(&tb, &s), "text %u", i);
		cr_assert_null(vsnl_queue_get_capability(&tb), "text %u", i);
		cr_assert_null(vsnl_queue_get_guarantee(&tb), "text %u", i);
		cr_assert_null(vsnl_queue_get_deserved(&tb), "text %u", i);
		cr_assert_null(vsnl_queue_get_parent(&tb), "text %u", i);
		cr_assert_not(vsnl_queue_get_created(&tb, &c),
			       "text %u", i);
	}
}

Test(kread_queue, refusals_name_the_field)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ Q_HEAD "metadata: {name: q}\nspec:\n  capability: {cpu: abc}\n",
		  "m.yaml:5: document 1 (Queue q): spec.capability.cpu: invalid quantity \"abc\": "
		  "no digits" },
		{ Q_HEAD "metadata: {name: q}\nspec: {guarantee: {resources: {cpu: 1}}}\n",
		  "m.yaml:4: document 1 (Queue q): spec.guarantee.resources: unknown field "
		  "(known: resource)" },
		{ Q_HEAD "metadata: {name: q}\nspec: {weight: -1}\n",
		  "m.yaml:4: document 1 (Queue q): spec.weight must be between 0 and 2147483647" },
		{ Q_HEAD "metadata: {name: q}\nspec: {reclaimable: \"no\"}\n",
		  "m.yaml:4: document 1 (Queue q): spec.reclaimable must be true or false, "
		  "not a string" },
		{ Q_HEAD "metadata: {name: q}\nstatus: {state: Shut}\n",
		  "m.yaml:4: document 1 (Queue q): status.state: unknown queue state \"Shut\" "
		  "(one of: Open, Closing, Closed, Unknown)" },
		{ Q_HEAD "metadata: {name: q}\nspec: [weight]\n",
		  "m.yaml:4: document 1 (Queue q): spec must be a mapping, not a list" },
		{ Q_HEAD "metadata: {name: q, creationTimestamp: yesterday}\n",
		  "m.yaml:3: document 1 (Queue q): metadata.creationTimestamp: \"yesterday\" is "
		  "not a time as Kubernetes writes one (RFC 3339: 2026-01-01T00:00:00Z)" },
		{ Q_HEAD "spec: {weight: 2}\n",
		  "m.yaml:1: document 1 (Queue): metadata.name: required" },
		{ Q_HEAD "metadata: {name: q}\nspec: {weight: 2}\ncolour: red\n",
		  "m.yaml:5: document 1 (Queue q): colour: unknown field "
		  "(known: apiVersion, kind, metadata, spec, status)" },
	};

	for (u32 i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vsnl_queue_tb tb;

		cr_assert_eq(put_queue(cases[i].text, &tb), -EINVAL, "case %u", i);
		cr_assert_str_eq(kt_err.msg, cases[i].msg, "case %u: %s", i, kt_err.msg);
	}
}

/* ---- against the old reader's answers ---- */

/*
 * A queue's request as one line. The old reader sent every default,
 * kread leaves them to the daemon's, which are the same: weight 1,
 * reclaimable, Open, priority 0. capability and deserved: whether given
 * matters; guarantee: absent is none.
 */
static void q_show(const struct vsnl_queue_tb *tb, char *out, size_t size)
{
	char cap[KT_TEXT_MAX], des[KT_TEXT_MAX], gua[KT_TEXT_MAX], when[32] = "-";
	uint32_t weight = 1, state = VS_QUEUE_STATE_OPEN;
	uint8_t reclaimable = 1;
	uint64_t created = 0;
	int32_t prio = 0;

	vsnl_queue_get_weight(tb, &weight);
	vsnl_queue_get_reclaimable(tb, &reclaimable);
	vsnl_queue_get_state(tb, &state);
	vsnl_queue_get_priority(tb, &prio);
	if (vsnl_queue_get_created(tb, &created))
		snprintf(when, sizeof(when), "%llu", (unsigned long long)created);
	kt_res(vsnl_queue_get_capability(tb), false, cap, sizeof(cap));
	kt_res(vsnl_queue_get_deserved(tb), false, des, sizeof(des));
	kt_res(vsnl_queue_get_guarantee(tb), false, gua, sizeof(gua));
	cr_assert_lt((size_t)snprintf(out, size, "%s weight=%u reclaimable=%u state=%s priority=%d "
				      "created=%s parent=%s capability=%s deserved=%s "
				      "guarantee{%s}", vsnl_queue_get_name(tb), weight,
				      reclaimable, vsnl_queue_state_names[state], prio, when,
				      vsnl_queue_get_parent(tb) ?: "-",
				      vsnl_queue_get_capability(tb) ? cap : "-",
				      vsnl_queue_get_deserved(tb) ? des : "-", gua), size);
}

static const struct {
	const char *text;
	const char *req;	/* the old reader's request (q_show()) */
	const char *msg;	/* or its refusal */
} q_cases[] = {
	{ Q_HEAD "metadata: {name: q1}\n",
	  .req = "q1 weight=1 reclaimable=1 state=Open priority=0 created=- parent=- "
	  "capability=- deserved=- guarantee{cpu=0,memory=0}" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {weight: 0}\n",
	  .req = "q1 weight=1 reclaimable=1 state=Open priority=0 created=- parent=- "
	  "capability=- deserved=- guarantee{cpu=0,memory=0}" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {weight: 2147483647, reclaimable: true}\n",
	  .req = "q1 weight=2147483647 reclaimable=1 state=Open priority=0 created=- parent=- "
	  "capability=- deserved=- guarantee{cpu=0,memory=0}" },
	{ Q_HEAD "metadata: {name: q1}\nspec:\n  weight: 3\n  capability: {cpu: 10, memory: 4Gi}\n"
	         "  guarantee: {resource: {cpu: 1}}\n  deserved: {cpu: 5, pods: 3}\n"
	         "  reclaimable: false\n  priority: 7\n  parent: root\n  extendClusters: []\n"
	         "status: {state: Closed, running: 3}\n",
	  .req = "q1 weight=3 reclaimable=0 state=Closed priority=7 created=- parent=root "
	  "capability=cpu=10000,memory=4294967296 deserved=cpu=5000,memory=0,pods=3 "
	  "guarantee{cpu=1000,memory=0}" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {capability: {}, deserved: {}, guarantee: {}}\n",
	  .req = "q1 weight=1 reclaimable=1 state=Open priority=0 created=- parent=- "
	  "capability=cpu=0,memory=0 deserved=cpu=0,memory=0 guarantee{cpu=0,memory=0}" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {capability: {nvidia.com/gpu: 1.5}}\n"
	         "status: {state: Unknown}\n",
	  .req = "q1 weight=1 reclaimable=1 state=Unknown priority=0 created=- parent=- "
	  "capability=cpu=0,memory=0,nvidia.com/gpu=1500 deserved=- guarantee{cpu=0,memory=0}" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {priority: -2147483648}\nstatus: {state: \"\"}\n",
	  .req = "q1 weight=1 reclaimable=1 state=Open priority=-2147483648 created=- parent=- "
	  "capability=- deserved=- guarantee{cpu=0,memory=0}" },
	{ Q_HEAD "metadata: {name: q1}\nspec: ~\nstatus: ~\n",
	  .req = "q1 weight=1 reclaimable=1 state=Open priority=0 created=- parent=- "
	  "capability=- deserved=- guarantee{cpu=0,memory=0}" },
	{ Q_HEAD "metadata: {name: q1, creationTimestamp: '2026-03-01T09:00:00.5-02:30'}\n",
	  .req = "q1 weight=1 reclaimable=1 state=Open priority=0 created=1772364600 parent=- "
	  "capability=- deserved=- guarantee{cpu=0,memory=0}" },
	{ Q_HEAD "metadata: {name: q1, creationTimestamp: ~, uid: abc, labels: {a: b},\n"
	         "  annotations: {c: d}, deletionTimestamp: x, resourceVersion: 7}\n",
	  .req = "q1 weight=1 reclaimable=1 state=Open priority=0 created=- parent=- "
	  "capability=- deserved=- guarantee{cpu=0,memory=0}" },
	/* refused, in the same words */
	{ Q_HEAD "metadata: {name: q1}\nspec: {weight: 2147483648}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.weight must be between 0 and 2147483647" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {weight: 1.5}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.weight must be an integer, not a number" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {priority: \"1\"}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.priority must be an integer, not a "
	  "string" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {parent: [root]}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.parent must be a string, not a list" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {capability: [cpu]}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.capability must be a mapping of "
	  "quantities, not a list" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {capability: {cpu: [1]}}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.capability.cpu must be a quantity, not a "
	  "list" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {deserved: {memory: 1Qi}}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.deserved.memory: invalid quantity "
	  "\"1Qi\": unknown suffix \"Qi\"" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {guarantee: [cpu]}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.guarantee must be a mapping, not a list" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {guarantee: {resource: {cpu: x}}}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.guarantee.resource.cpu: invalid quantity "
	  "\"x\": no digits" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {guarantee: {cpu: 1}}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.guarantee.cpu: unknown field (known: "
	  "resource)" },
	{ Q_HEAD "metadata: {name: q1}\nstatus: {state: open}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): status.state: unknown queue state \"open\" "
	  "(one of: Open, Closing, Closed, Unknown)" },
	{ Q_HEAD "metadata: {name: q1}\nstatus: {state: 1}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): status.state must be a string, not an integer" },
	{ Q_HEAD "metadata: {name: q1}\nstatus: [Open]\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): status must be a mapping, not a list" },
	{ Q_HEAD "metadata: {namespace: x}\n",
	  .msg = "m.yaml:1: document 1 (Queue): metadata.name: required" },
	{ Q_HEAD "metadata: {name: q1, creationTimestamp: 2026-03-01}\n",
	  .msg = "m.yaml:3: document 1 (Queue q1): metadata.creationTimestamp: \"2026-03-01\" is "
	  "not a time as Kubernetes writes one (RFC 3339: 2026-01-01T00:00:00Z)" },
	{ Q_HEAD "metadata: {name: q1, labels: {a: b, c: 1}}\n",
	  .msg = "m.yaml:3: document 1 (Queue q1): metadata.labels.c must be a string, not an "
	  "integer" },
	{ Q_HEAD "metadata: {name: q1, labels: [a]}\n",
	  .msg = "m.yaml:3: document 1 (Queue q1): metadata.labels must be a mapping of strings, "
	  "not a list" },
	{ Q_HEAD "metadata: {name: q1, annotations: {a: true}}\n",
	  .msg = "m.yaml:3: document 1 (Queue q1): metadata.annotations.a must be a string, not "
	  "a boolean" },
	{ Q_HEAD "metadata: {name: q1, uid: 12}\n",
	  .msg = "m.yaml:3: document 1 (Queue q1): metadata.uid must be a string, not an integer" },
	{ Q_HEAD "metadata: {name: 12}\n",
	  .msg = "m.yaml:3: document 1 (Queue): metadata.name must be a string, not an integer" },
	{ Q_HEAD "metadata: {name: q1, namespace: {a: b}}\n",
	  .msg = "m.yaml:3: document 1 (Queue q1): metadata.namespace must be a string, not a "
	  "mapping" },
	{ Q_HEAD "metadata: {name: q1, creationTimestamp: 1}\n",
	  .msg = "m.yaml:3: document 1 (Queue q1): metadata.creationTimestamp must be a time, "
	  "not an integer" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {}\nextra: 1\n",
	  .msg = "m.yaml:5: document 1 (Queue q1): extra: unknown field (known: apiVersion, "
	  "kind, metadata, spec, status)" },
	{ Q_HEAD "metadata: {name: q1}\nspec: {weight: 2, reclaimable: 1}\n",
	  .msg = "m.yaml:4: document 1 (Queue q1): spec.reclaimable must be true or false, not "
	  "an integer" },
};

Test(kread_queue, queues_read_as_the_old_reader_reads_them)
{
	for (u32 i = 0; i < ARRAY_SIZE(q_cases); i++) {
		char line[4 * KT_TEXT_MAX];
		struct vsnl_queue_tb got;
		int ret = put_queue(q_cases[i].text, &got);

		if (q_cases[i].msg) {
			cr_assert_neq(ret, 0, "text %u: read, the old reader refused it", i);
			cr_assert_str_eq(kt_err.msg, q_cases[i].msg, "text %u", i);
			continue;
		}
		cr_assert_eq(ret, 0, "text %u: %s", i, kt_err.msg);
		q_show(&got, line, sizeof(line));
		cr_assert_str_eq(line, q_cases[i].req, "text %u", i);
	}
}
