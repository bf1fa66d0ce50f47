// SPDX-License-Identifier: Apache-2.0
/*
 * PodGroups read by the manifest reader without the core
 * (userspace/kube/kread_podgroup.c): each request parsed back by the codec
 * as the daemon checks it and written out whole, the daemon's defaults
 * for what was not sent, so that the old reader's request (manifest.c's,
 * through its private cluster, kept in the table as describe() wrote it)
 * and the new one read the same, and the refusals of both alike, word for
 * word.
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
static char buf[1 << 17];

static void fini(void)
{
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
}

TestSuite(kread_podgroup, .fini = fini);

struct out {
	char s[4096];
	size_t len;
};

__printf(2, 3)
static void say(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->s + o->len, sizeof(o->s) - o->len, fmt, ap);
	va_end(ap);
	cr_assert(n >= 0 && (size_t)n < sizeof(o->s) - o->len, "the description is cut");
	o->len += (size_t)n;
}

static void say_res(struct out *o, const struct nlattr *nest)
{
	static const char *const dims[] = { [VS_RES_A_CPU] = "cpu", [VS_RES_A_MEMORY] = "memory",
					    [VS_RES_A_PODS] = "pods" };
	const struct nlattr *a;

	say(o, " minResources{");
	mnl_attr_for_each_nested(a, nest) {
		u16 type = mnl_attr_get_type(a);
		struct vsnl_scalar_tb stb;
		u64 v = 0;

		if (type != VS_RES_A_SCALAR) {
			v = mnl_attr_get_u64(a);
			if (v)		/* the old reader sends every dimension */
				say(o, "%s=%llu,", dims[type], (unsigned long long)v);
			continue;
		}
		cr_assert_eq(vsnl_scalar_parse(a, &stb, VSNL_CODEC_REQUEST, &err), 0, "%s",
			     err.msg);
		cr_assert(vsnl_scalar_get_value(&stb, &v));
		if (v)
			say(o, "%s=%llu,", vsnl_scalar_get_name(&stb), (unsigned long long)v);
	}
	say(o, "}");
}

static void say_cond(struct out *o, const struct nlattr *nest)
{
	struct vsnl_cond_tb tb;
	u32 type = 0;
	u8 status = 0;
	u64 time = 0;

	cr_assert_eq(vsnl_cond_parse(nest, &tb, VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	cr_assert(vsnl_cond_get_type(&tb, &type));
	vsnl_cond_get_status(&tb, &status);
	vsnl_cond_get_time(&tb, &time);
	say(o, " cond{%s %u reason=%s message=%zu:%.20s id=%s time=%llu}",
	    vsnl_pg_cond_names[type], status, vsnl_cond_get_reason(&tb) ?: "",
	    strlen(vsnl_cond_get_message(&tb) ?: ""), vsnl_cond_get_message(&tb) ?: "",
	    vsnl_cond_get_transition_id(&tb) ?: "", (unsigned long long)time);
}

/*
 * The PodGroup of the request @nlh, checked by the codec as the daemon
 * checks it, as one line; what was not sent is the daemon's default.
 */
static void describe(const struct nlmsghdr *nlh, struct out *o)
{
	struct vsnl_vsched_tb top;
	struct vsnl_podgroup_tb tb;
	const struct nlattr *nest, *a;
	u32 min = 0, phase = VS_PG_PHASE_PENDING;
	u64 created = 0;
	u8 preemptable;

	o->len = 0;
	o->s[0] = '\0';
	cr_assert_eq(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd, VS_CMD_PODGROUP_NEW);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr,
					  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	nest = vsnl_vsched_get_podgroup(&top);
	cr_assert_not_null(nest);
	cr_assert_eq(vsnl_podgroup_parse(nest, &tb, VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	cr_assert(vsnl_podgroup_get_min_member(&tb, &min), "minMember is always sent");
	vsnl_podgroup_get_phase(&tb, &phase);
	vsnl_podgroup_get_created(&tb, &created);
	say(o, "%s/%s queue=%s min=%u class=%s phase=%s created=%llu",
	    vsnl_podgroup_get_namespace(&tb), vsnl_podgroup_get_name(&tb),
	    vsnl_podgroup_get_queue(&tb) ?: "default", min,
	    vsnl_podgroup_get_priority_class(&tb) ?: "", vsnl_pg_phase_names[phase],
	    (unsigned long long)created);
	if (vsnl_podgroup_get_preemptable(&tb, &preemptable))
		say(o, " preemptable=%u", preemptable);
	mnl_attr_for_each_nested(a, nest) {
		struct vsnl_role_min_tb rtb;

		switch (mnl_attr_get_type(a)) {
		case VS_PG_A_MIN_TASK_MEMBER:
			cr_assert_eq(vsnl_role_min_parse(a, &rtb, VSNL_CODEC_REQUEST, &err), 0,
				     "%s", err.msg);
			cr_assert(vsnl_role_min_get_min(&rtb, &min));
			say(o, " role{%s=%u}", vsnl_role_min_get_role(&rtb) ?: "", min);
			break;
		case VS_PG_A_MIN_RESOURCES:
			say_res(o, a);
			break;
		case VS_PG_A_CONDITION:
			say_cond(o, a);
			break;
		}
	}
}

/* kread's request of the one document of @text, described; 0 or the error, in err. */
static int new_put(const char *text, struct out *o)
{
	struct nlmsghdr *nlh = NULL;
	int ret;

	fini();
	memset(&err, 0, sizeof(err));
	ret = vsnl_yaml_parse_docs(text, strlen(text), "m.yaml", &ydocs, &err) ?:
	      kr_docs_read("m.yaml", &ydocs, &docs, &err);
	if (ret)
		return ret;
	cr_assert_eq(docs.nr, 1);
	ret = kr_put_new(&docs.v[0], buf, sizeof(buf), &nlh, &err);
	if (!ret)
		describe(nlh, o);
	return ret;
}

#define PG_HEAD	"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"

Test(kread_podgroup, spec_status_and_creation_are_put)
{
	struct out o;

	cr_assert_eq(new_put(PG_HEAD "metadata: {name: pg1, namespace: ns,\n"
			     "  creationTimestamp: \"2026-01-02T03:04:05+01:00\"}\n"
			     "spec:\n  minMember: 3\n  minTaskMember: {ps: 1, worker: 2}\n"
			     "  minResources: {cpu: 1500m, memory: 1Gi, nvidia.com/gpu: 2}\n"
			     "  queue: q1\n  priorityClassName: high\n"
			     "status:\n  phase: Inqueue\n  running: 3\n  conditions:\n"
			     "  - {type: Unschedulable, status: \"True\", reason: NotEnough,\n"
			     "     message: gang, transitionID: t1,\n"
			     "     lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n"
			     "  - {type: Other, status: \"True\"}\n"
			     "  - {type: Scheduled}\n", &o), 0, "%s", err.msg);
	cr_assert_str_eq(o.s, "ns/pg1 queue=q1 min=3 class=high phase=Inqueue created=1767319445"
			 " role{ps=1} role{worker=2}"
			 " minResources{cpu=1500,memory=1073741824,nvidia.com/gpu=2000,}"
			 " cond{Unschedulable 1 reason=NotEnough message=4:gang id=t1"
			 " time=1767225600}"
			 " cond{Scheduled 0 reason= message=0: id= time=0}");
}

Test(kread_podgroup, a_manifest_without_status_sends_no_phase)
{
	struct vsnl_vsched_tb top;
	struct vsnl_podgroup_tb tb;
	struct nlmsghdr *nlh = NULL;
	u32 v = 9;

	cr_assert_eq(new_put(PG_HEAD "metadata: {name: pg}\n", &(struct out){ 0 }), 0);
	cr_assert_eq(kr_put_new(&docs.v[0], buf, sizeof(buf), &nlh, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr,
					  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_podgroup_parse(vsnl_vsched_get_podgroup(&top), &tb, VSNL_CODEC_REQUEST,
					 &err), 0, "%s", err.msg);
	cr_assert_str_eq(vsnl_podgroup_get_namespace(&tb), "default");
	cr_assert_not(vsnl_podgroup_get_phase(&tb, &v));
	cr_assert_null(vsnl_podgroup_get_queue(&tb));
	cr_assert_null(vsnl_podgroup_get_min_resources(&tb));
	cr_assert_null(vsnl_podgroup_get_condition(&tb));
	/* the CRD has no default: not the daemon's 1 */
	cr_assert(vsnl_podgroup_get_min_member(&tb, &v));
	cr_assert_eq(v, 0);
	cr_assert_not(vsnl_podgroup_get_created(&tb, (u64[]){ 0 }));
}

Test(kread_podgroup, a_long_condition_message_is_cut_at_a_character)
{
	static char text[VS_COND_MESSAGE_MAX + 1024];
	size_t len, start;
	struct out o;

	len = (size_t)snprintf(text, sizeof(text), PG_HEAD "metadata: {name: pg}\nstatus:\n"
			       "  conditions:\n  - type: Scheduled\n    message: \"");
	start = len;
	text[len++] = 'a';
	/* 'a' and then two-byte characters: byte VS_COND_MESSAGE_MAX - 1 is a second byte */
	while (len - start < VS_COND_MESSAGE_MAX + 100) {
		memcpy(text + len, "\xc3\xa9", 2);
		len += 2;
	}
	snprintf(text + len, sizeof(text) - len, "\"\n");
	cr_assert_eq(new_put(text, &o), 0, "%s", err.msg);
	cr_assert(strstr(o.s, " message=32767:a"), "%s", o.s);
}

Test(kread_podgroup, a_request_too_large_is_refused)
{
	struct nlmsghdr *nlh = NULL;

	cr_assert_eq(new_put(PG_HEAD "metadata: {name: pg}\nspec: {queue: q1}\n",
			     &(struct out){ 0 }), 0, "%s", err.msg);
	cr_assert_eq(kr_put_new(&docs.v[0], buf, 52, &nlh, &err), -EMSGSIZE, "%s", err.msg);
	cr_assert_null(nlh);
}

#define PG	PG_HEAD "metadata: {name: pg, namespace: ns}\n"

/* The old reader took it for the daemon to refuse; the codec's policy is the daemon's. */
Test(kread_podgroup, a_role_minimum_beyond_the_protocol_is_refused_by_its_field)
{
	cr_assert_eq(new_put(PG "spec:\n  minTaskMember: {a: 1, b: 4294967295}\n",
			     &(struct out){ 0 }), -EINVAL);
	cr_assert_str_eq(err.msg, "m.yaml:5: document 1 (PodGroup ns/pg): spec.minTaskMember.b: "
			 "role-min.min: 4294967295 out of 0..2147483647");
}

/*
 * volcano.sh/preemptable: the annotation, else the label, in
 * strconv.ParseBool's spellings; another value refused where it is.
 */
static const struct {
	const char *text;
	const char *req;
	const char *msg;
} preempt_cases[] = {
	{ PG_HEAD "metadata: {name: pg, namespace: ns,\n"
	  "  annotations: {volcano.sh/preemptable: \"false\"},\n"
	  "  labels: {volcano.sh/preemptable: \"true\"}}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0 preemptable=0" },
	{ PG_HEAD "metadata: {name: pg, namespace: ns, annotations: {other: x},\n"
	  "  labels: {volcano.sh/preemptable: \"true\"}}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0 preemptable=1" },
	{ PG_HEAD "metadata: {name: pg, namespace: ns, annotations: {volcano.sh/preemptable: T}}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0 preemptable=1" },
	{ PG_HEAD "metadata: {name: pg, namespace: ns, labels: {volcano.sh/preemptable: \"0\"}}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0 preemptable=0" },
	{ PG_HEAD "metadata: {name: pg, namespace: ns, labels: {app: x}, annotations: {}}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0" },
	{ PG_HEAD "metadata: {name: pg, namespace: ns,\n"
	  "  annotations: {volcano.sh/preemptable: maybe},\n"
	  "  labels: {volcano.sh/preemptable: \"true\"}}\n",
	  .msg = "m.yaml:1: document 1 (PodGroup ns/pg): "
	  "metadata.annotations[volcano.sh/preemptable]: \"maybe\" is not a boolean" },
	{ PG_HEAD "metadata: {name: pg, namespace: ns, labels: {volcano.sh/preemptable: \"yes\"}}\n",
	  .msg = "m.yaml:1: document 1 (PodGroup ns/pg): "
	  "metadata.labels[volcano.sh/preemptable]: \"yes\" is not a boolean" },
	{ PG_HEAD "metadata: {name: pg, namespace: ns, labels: {volcano.sh/preemptable: 1}}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup ns/pg): metadata.labels[volcano.sh/preemptable] "
	  "must be a string, not an integer" },
};

Test(kread_podgroup, preemptable_is_the_annotation_else_the_label)
{
	for (u32 i = 0; i < ARRAY_SIZE(preempt_cases); i++) {
		struct out got = { 0 };
		int ret = new_put(preempt_cases[i].text, &got);

		if (preempt_cases[i].msg) {
			cr_assert_eq(ret, -EINVAL, "text %u: read", i);
			cr_assert_str_eq(err.msg, preempt_cases[i].msg, "text %u: %s", i, err.msg);
			continue;
		}
		cr_assert_eq(ret, 0, "text %u: %s", i, err.msg);
		cr_assert_str_eq(got.s, preempt_cases[i].req, "text %u", i);
	}
}

/*
 * Texts and what the old reader made of them, offline (the PodGroup's
 * queue and class need not exist).
 */
static const struct {
	const char *text;
	const char *req;	/* the old reader's request (describe()) */
	const char *msg;	/* or its refusal */
} pg_cases[] = {
	{ PG,
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0" },
	{ PG_HEAD "metadata: {name: pg}\nspec: {minMember: 0}\nstatus: {}\n",
	  .req = "default/pg queue=default min=0 class= phase=Pending created=0" },
	{ PG "spec: {minMember: 2147483647, queue: q1, priorityClassName: \"\"}\n",
	  .req = "ns/pg queue=q1 min=2147483647 class= phase=Pending created=0" },
	{ PG "spec: {minTaskMember: {\"\": 1, a: 2147483647}, minMember: 1}\n",
	  .req = "ns/pg queue=default min=1 class= phase=Pending created=0 role{=1} "
	  "role{a=2147483647}" },
	{ PG "spec: {minResources: {}}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0 minResources{}" },
	{ PG "spec: {minResources: {cpu: 2, memory: 0.5Gi, pods: 3, example.com/foo: 500m}}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0 "
	  "minResources{cpu=2000,memory=536870912,pods=3,example.com/foo=500,}" },
	{ PG "spec: {minResources: {cpu: 0, example.com/foo: 1}}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0 "
	  "minResources{example.com/foo=1000,}" },
	{ PG "spec: {queue: q1, other: [x], subGroupPolicy: ~}\n",
	  .req = "ns/pg queue=q1 min=0 class= phase=Pending created=0" },
	{ PG "status: {phase: Running}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Running created=0" },
	{ PG "status: {phase: Completed, succeeded: 3}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Completed created=0" },
	{ PG "status: {phase: \"\"}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0" },
	{ PG "status: {phase: ~, conditions: ~}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0" },
	{ PG "status: {conditions: []}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0" },
	{ PG "status:\n  conditions:\n  - {type: Unschedulable, status: \"True\", reason: r,\n"
	     "     message: m, transitionID: x, lastTransitionTime: \"2024-05-01T10:00:00.25Z\"}\n"
	     "  - {type: Scheduled, status: Unknown, lastTransitionTime: \"2024-05-01T10:00:00-02:30\"}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0 cond{Unschedulable 1 "
	  "reason=r message=1:m id=x time=1714557600} cond{Scheduled 0 reason= message=0: id= "
	  "time=1714566600}" },
	{ PG "status:\n  conditions:\n  - {type: Scheduled, status: \"False\", reason: ~, extra: 1}\n"
	     "  - {type: Whatever}\n",
	  .req = "ns/pg queue=default min=0 class= phase=Pending created=0 cond{Scheduled 0 "
	  "reason= message=0: id= time=0}" },
	{ PG_HEAD "metadata: {name: pg, creationTimestamp: \"1970-01-01T00:00:00Z\"}\n",
	  .req = "default/pg queue=default min=0 class= phase=Pending created=0" },
	{ PG_HEAD "metadata: {name: pg, creationTimestamp: \"2030-12-31T23:59:59z\", labels: {a: b}}\n",
	  .req = "default/pg queue=default min=0 class= phase=Pending created=1924991999" },
	{ PG_HEAD "metadata:\n  name: pg\n  annotations: {a/b: c}\n  uid: u1\n  deletionTimestamp: x\n"
		  "  ownerReferences:\n  - {apiVersion: v1, kind: Job, name: j, uid: u0, controller: true,\n"
		  "     blockOwnerDeletion: false}\n  generation: 3\n",
	  .req = "default/pg queue=default min=0 class= phase=Pending created=0" },
	/* refused, in the same words */
	{ PG_HEAD "metadata: {namespace: ns}\n",
	  .msg = "m.yaml:1: document 1 (PodGroup): metadata.name: required" },
	{ PG_HEAD "metadata: {name: 5}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup): metadata.name must be a string, not an "
	  "integer" },
	{ PG_HEAD "metadata: {name: pg, namespace: [ns]}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.namespace must be a "
	  "string, not a list" },
	{ PG_HEAD "metadata: {name: pg, creationTimestamp: yesterday}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.creationTimestamp: "
	  "\"yesterday\" is not a time as Kubernetes writes one (RFC 3339: 2026-01-01T00:00:00Z)" },
	{ PG_HEAD "metadata: {name: pg, creationTimestamp: 1700000000}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.creationTimestamp must be "
	  "a time, not an integer" },
	{ PG_HEAD "metadata: {name: pg, creationTimestamp: \"2026-01-01 00:00:00Z\"}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.creationTimestamp: "
	  "\"2026-01-01 00:00:00Z\" is not a time as Kubernetes writes one (RFC 3339: "
	  "2026-01-01T00:00:00Z)" },
	{ PG_HEAD "metadata: {name: pg, creationTimestamp: \"2026-01-01T00:00:00+0100\"}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.creationTimestamp: "
	  "\"2026-01-01T00:00:00+0100\" is not a time as Kubernetes writes one (RFC 3339: "
	  "2026-01-01T00:00:00Z)" },
	{ PG "spec: {minMember: -1}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minMember must be between 0 and "
	  "2147483647" },
	{ PG "spec: {minMember: 2147483648}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minMember must be between 0 and "
	  "2147483647" },
	{ PG "spec: {minMember: \"2\"}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minMember must be an integer, not "
	  "a string" },
	{ PG "spec: {minMember: 1.5}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minMember must be an integer, not "
	  "a number" },
	{ PG "spec: {minTaskMember: [a]}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minTaskMember must be a mapping of "
	  "roles to numbers, not a list" },
	{ PG "spec: {minTaskMember: {a: -1}}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minTaskMember.a must be between 0 "
	  "and 4294967295" },
	{ PG "spec: {minTaskMember: {a: 4294967296}}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minTaskMember.a must be between 0 "
	  "and 4294967295" },
	{ PG "spec: {minTaskMember: {a: x}}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minTaskMember.a must be an "
	  "integer, not a string" },
	{ PG "spec: {minResources: {cpu: abc}}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minResources.cpu: invalid quantity "
	  "\"abc\": no digits" },
	{ PG "spec: {minResources: {cpu: [1]}}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minResources.cpu must be a "
	  "quantity, not a list" },
	{ PG "spec: {minResources: 3}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.minResources must be a mapping of "
	  "quantities, not an integer" },
	{ PG "spec: {queue: 3}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.queue must be a string, not an "
	  "integer" },
	{ PG "spec: {priorityClassName: {a: b}}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec.priorityClassName must be a "
	  "string, not a mapping" },
	{ PG "spec: [a]\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec must be a mapping, not a list" },
	{ PG "spec: x\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): spec must be a mapping, not a string" },
	{ PG "status: x\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): status must be a mapping, not a string" },
	{ PG "status: {phase: Sleeping}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): status.phase: unknown podgroup phase "
	  "\"Sleeping\" (one of: Pending, Running, Unknown, Inqueue, Completed)" },
	{ PG "status: {phase: 1}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): status.phase must be a string, not an "
	  "integer" },
	{ PG "status: {conditions: {type: Scheduled}}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): status.conditions must be a list, not a "
	  "mapping" },
	{ PG "status: {conditions: [Scheduled]}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): status.conditions[0] must be a mapping, "
	  "not a string" },
	{ PG "status: {conditions: [{status: \"True\"}]}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): status.conditions[0]: a condition needs "
	  "its type" },
	{ PG "status: {conditions: [{type: Scheduled, status: \"yes\"}]}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): status.conditions[0]: status \"yes\" is "
	  "not True, False or Unknown" },
	{ PG "status: {conditions: [{type: Scheduled, status: true}]}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): status.conditions[0].status must be a "
	  "string, not a boolean" },
	{ PG "status: {conditions: [{type: Scheduled, lastTransitionTime: now}]}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): "
	  "status.conditions[0].lastTransitionTime: \"now\" is not a time as Kubernetes writes "
	  "one (RFC 3339: 2026-01-01T00:00:00Z)" },
	{ PG "status: {conditions: [{type: Scheduled}, {type: 1}]}\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): status.conditions[1].type must be a "
	  "string, not an integer" },
	{ PG "colour: red\n",
	  .msg = "m.yaml:4: document 1 (PodGroup ns/pg): colour: unknown field (known: "
	  "apiVersion, kind, metadata, spec, status)" },
	{ PG_HEAD "metadata: {name: pg, labels: [a]}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.labels must be a mapping "
	  "of strings, not a list" },
	{ PG_HEAD "metadata: {name: pg, labels: {a: 1}}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.labels.a must be a "
	  "string, not an integer" },
	{ PG_HEAD "metadata: {name: pg, annotations: {example.com/x: true}}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): "
	  "metadata.annotations[example.com/x] must be a string, not a boolean" },
	{ PG_HEAD "metadata: {name: pg, uid: 7}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.uid must be a string, not "
	  "an integer" },
	{ PG_HEAD "metadata: {name: pg, ownerReferences: {uid: x}}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.ownerReferences must be a "
	  "list, not a mapping" },
	{ PG_HEAD "metadata: {name: pg, ownerReferences: [x]}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): metadata.ownerReferences[0] must "
	  "be a mapping, not a string" },
	{ PG_HEAD "metadata: {name: pg, ownerReferences: [{uid: x, colour: red}]}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): "
	  "metadata.ownerReferences[0].colour: unknown field (known: apiVersion, kind, name, "
	  "uid, controller, blockOwnerDeletion)" },
	{ PG_HEAD "metadata: {name: pg, ownerReferences: [{uid: x, controller: \"yes\"}]}\n",
	  .msg = "m.yaml:3: document 1 (PodGroup default/pg): "
	  "metadata.ownerReferences[0].controller must be true or false, not a string" },
};

Test(kread_podgroup, podgroups_read_as_the_old_reader_reads_them)
{
	for (u32 i = 0; i < ARRAY_SIZE(pg_cases); i++) {
		struct out got = { 0 };
		int ret = new_put(pg_cases[i].text, &got);

		if (pg_cases[i].msg) {
			cr_assert_neq(ret, 0, "text %u: read, the old reader refused it", i);
			cr_assert_str_eq(err.msg, pg_cases[i].msg, "text %u", i);
			continue;
		}
		cr_assert_eq(ret, 0, "text %u: %s", i, err.msg);
		cr_assert_str_eq(got.s, pg_cases[i].req, "text %u", i);
	}
}
