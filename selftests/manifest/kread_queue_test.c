// SPDX-License-Identifier: Apache-2.0
/*
 * Queues read by the manifest reader without the core (kread_queue.c):
 * what the request says, what it leaves to the daemon's defaults (which
 * are Volcano's), and the same texts through the old reader (manifest.c),
 * the requests' values and every refusal's message alike.
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

/* ---- against the old reader ---- */

static const char *const q_texts[] = {
	Q_HEAD "metadata: {name: q1}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {weight: 0}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {weight: 2147483647, reclaimable: true}\n",
	Q_HEAD "metadata: {name: q1}\nspec:\n  weight: 3\n  capability: {cpu: 10, memory: 4Gi}\n"
	       "  guarantee: {resource: {cpu: 1}}\n  deserved: {cpu: 5, pods: 3}\n"
	       "  reclaimable: false\n  priority: 7\n  parent: root\n  extendClusters: []\n"
	       "status: {state: Closed, running: 3}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {capability: {}, deserved: {}, guarantee: {}}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {capability: {nvidia.com/gpu: 1.5}}\n"
	       "status: {state: Unknown}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {priority: -2147483648}\nstatus: {state: \"\"}\n",
	Q_HEAD "metadata: {name: q1}\nspec: ~\nstatus: ~\n",
	Q_HEAD "metadata: {name: q1, creationTimestamp: '2026-03-01T09:00:00.5-02:30'}\n",
	Q_HEAD "metadata: {name: q1, creationTimestamp: ~, uid: abc, labels: {a: b},\n"
	       "  annotations: {c: d}, deletionTimestamp: x, resourceVersion: 7}\n",
	/* refused, in the same words */
	Q_HEAD "metadata: {name: q1}\nspec: {weight: 2147483648}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {weight: 1.5}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {priority: \"1\"}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {parent: [root]}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {capability: [cpu]}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {capability: {cpu: [1]}}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {deserved: {memory: 1Qi}}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {guarantee: [cpu]}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {guarantee: {resource: {cpu: x}}}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {guarantee: {cpu: 1}}\n",
	Q_HEAD "metadata: {name: q1}\nstatus: {state: open}\n",
	Q_HEAD "metadata: {name: q1}\nstatus: {state: 1}\n",
	Q_HEAD "metadata: {name: q1}\nstatus: [Open]\n",
	Q_HEAD "metadata: {namespace: x}\n",
	Q_HEAD "metadata: {name: q1, creationTimestamp: 2026-03-01}\n",
	Q_HEAD "metadata: {name: q1, labels: {a: b, c: 1}}\n",
	Q_HEAD "metadata: {name: q1, labels: [a]}\n",
	Q_HEAD "metadata: {name: q1, annotations: {a: true}}\n",
	Q_HEAD "metadata: {name: q1, uid: 12}\n",
	Q_HEAD "metadata: {name: 12}\n",
	Q_HEAD "metadata: {name: q1, namespace: {a: b}}\n",
	Q_HEAD "metadata: {name: q1, creationTimestamp: 1}\n",
	Q_HEAD "metadata: {name: q1}\nspec: {}\nextra: 1\n",
	Q_HEAD "metadata: {name: q1}\nspec: {weight: 2, reclaimable: 1}\n",
};

Test(kread_queue, queues_read_as_the_old_reader_reads_them)
{
	for (u32 i = 0; i < ARRAY_SIZE(q_texts); i++) {
		const struct nlattr *old_obj = NULL;
		struct vsnl_queue_tb want, got;
		char msg[MF_ERR_MAX], a[KT_TEXT_MAX], b[KT_TEXT_MAX];
		uint32_t wa = 0, wb = 0, sa = 0, sb = 0;
		uint64_t ca = 0, cb = 0;
		uint8_t ra = 0, rb = 0;
		int32_t pa = 0, pb = 0;
		int ret_old = kt_old(q_texts[i], VS_CMD_QUEUE_NEW, VS_A_QUEUE, &old_obj, msg,
				     sizeof(msg));
		int ret_new;

		if (!ret_old)
			cr_assert_eq(vsnl_queue_parse(old_obj, &want, VSNL_CODEC_REQUEST,
						      &kt_err), 0);
		ret_new = put_queue(q_texts[i], &got);
		if (ret_old || ret_new) {
			cr_assert(ret_old && ret_new, "text %u: old %d (%s), new %d (%s)", i,
				  ret_old, msg, ret_new, kt_err.msg);
			cr_assert_str_eq(kt_err.msg, msg, "text %u", i);
			continue;
		}
		cr_assert_str_eq(vsnl_queue_get_name(&got), vsnl_queue_get_name(&want));
		/* the old reader sends every default; kread leaves them to the daemon's */
		cr_assert(vsnl_queue_get_weight(&want, &wa));
		if (!vsnl_queue_get_weight(&got, &wb))
			wb = 1;
		cr_assert_eq(wb, wa, "text %u", i);
		cr_assert(vsnl_queue_get_reclaimable(&want, &ra));
		if (!vsnl_queue_get_reclaimable(&got, &rb))
			rb = 1;
		cr_assert_eq(rb, ra, "text %u", i);
		cr_assert(vsnl_queue_get_state(&want, &sa));
		if (!vsnl_queue_get_state(&got, &sb))
			sb = VS_QUEUE_STATE_OPEN;
		cr_assert_eq(sb, sa, "text %u", i);
		cr_assert(vsnl_queue_get_priority(&want, &pa));
		vsnl_queue_get_priority(&got, &pb);
		cr_assert_eq(pb, pa, "text %u", i);
		cr_assert_eq(vsnl_queue_get_created(&got, &cb), vsnl_queue_get_created(&want, &ca),
			     "text %u", i);
		cr_assert_eq(cb, ca, "text %u", i);
		cr_assert_eq(!vsnl_queue_get_parent(&got), !vsnl_queue_get_parent(&want), "text %u",
			     i);
		if (vsnl_queue_get_parent(&want))
			cr_assert_str_eq(vsnl_queue_get_parent(&got), vsnl_queue_get_parent(&want));
		/* capability and deserved: whether given matters; guarantee: absent is none */
		cr_assert_eq(!vsnl_queue_get_capability(&got), !vsnl_queue_get_capability(&want),
			     "text %u", i);
		cr_assert_eq(!vsnl_queue_get_deserved(&got), !vsnl_queue_get_deserved(&want),
			     "text %u", i);
		kt_res(vsnl_queue_get_capability(&want), false, a, sizeof(a));
		kt_res(vsnl_queue_get_capability(&got), false, b, sizeof(b));
		cr_assert_str_eq(b, a, "text %u: new %s, old %s", i, b, a);
		kt_res(vsnl_queue_get_guarantee(&want), false, a, sizeof(a));
		kt_res(vsnl_queue_get_guarantee(&got), false, b, sizeof(b));
		cr_assert_str_eq(b, a, "text %u: new %s, old %s", i, b, a);
		kt_res(vsnl_queue_get_deserved(&want), false, a, sizeof(a));
		kt_res(vsnl_queue_get_deserved(&got), false, b, sizeof(b));
		cr_assert_str_eq(b, a, "text %u: new %s, old %s", i, b, a);
	}
}
