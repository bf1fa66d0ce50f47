// SPDX-License-Identifier: Apache-2.0
/*
 * VolcanoJobs read without the core (userspace/kube/kread_vjob.c): the
 * VS_CMD_VJOB_NEW request put from a manifest, checked by the codec as the
 * daemon checks it and rendered back attribute by attribute, and every
 * refusal of the reader in the old reader's words (manifest.c's
 * build_vjob(), whose own refusals the new reader keeps).
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

TestSuite(kread_vjob, .fini = fini);

__printf(1, 2)
static void show(const char *fmt, ...)
{
	size_t len = strlen(shown);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(shown + len, sizeof(shown) - len, fmt, ap);
	va_end(ap);
}

/* @nest of @set into shown[], in the order put: "name=value" and "name{...}", by the spec's names. */
static void render(const struct nlattr *nest, const struct vsnl_codec_set *set)
{
	const struct nlattr *a;
	bool first = true;

	show("{");
	mnl_attr_for_each_nested(a, nest) {
		const struct vsnl_codec_attr *p = &set->attrs[mnl_attr_get_type(a)];

		show("%s%s", first ? "" : " ", p->name);
		first = false;
		switch (p->type) {
		case VSNL_CODEC_NESTED:
			render(a, p->nested);
			break;
		case VSNL_CODEC_STRING:
			show("=%s", mnl_attr_get_str(a));
			break;
		case VSNL_CODEC_S32:
			show("=%d", (s32)mnl_attr_get_u32(a));
			break;
		case VSNL_CODEC_U64:
			show("=%llu", (unsigned long long)mnl_attr_get_u64(a));
			break;
		default:
			show("=%u", mnl_attr_get_u32(a));
		}
	}
	show("}");
}

/*
 * The one document of @text (as "m.yaml") put by kr_put_new(): 0 and its
 * vjob nest, checked as the daemon checks a request, rendered in shown[];
 * 1 when the codec refuses it as the daemon would (err); or the reader's
 * refusal (err).
 */
static int put_vjob(const char *text)
{
	struct nlmsghdr *nlh = NULL;
	struct vsnl_vsched_tb top;
	struct vsnl_vjob_tb tb;
	int ret;

	fini();
	memset(&err, 0, sizeof(err));
	shown[0] = '\0';
	cr_assert_eq(vsnl_yaml_parse_docs(text, strlen(text), "m.yaml", &ydocs, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(kr_docs_read("m.yaml", &ydocs, &docs, &err), 0, "%s", err.msg);
	cr_assert_eq(docs.nr, 1);
	ret = kr_put_new(&docs.v[0], buf, sizeof(buf), &nlh, &err);
	if (ret)
		return ret;
	cr_assert_eq(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd, VS_CMD_VJOB_NEW);
	if (vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr,
				 VSNL_CODEC_REQUEST, &err))
		return 1;
	cr_assert_not_null(vsnl_vsched_get_vjob(&top));
	cr_assert_eq(vsnl_vjob_parse(vsnl_vsched_get_vjob(&top), &tb, VSNL_CODEC_REQUEST, &err),
		     0, "%s", err.msg);
	render(vsnl_vsched_get_vjob(&top), &vsnl_codec_vjob);
	return 0;
}

#define HEAD	"apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j, namespace: ns}\n"
#define SPEC(x)	HEAD "spec: " x "\n"
#define TASK(x)	SPEC("{tasks: [{name: t, replicas: 2, " x "}]}")
#define TMPL(x)	TASK("template: {spec: " x "}")
#define AT4	"m.yaml:4: document 1 (Job ns/j): spec"
#define T0	AT4 ".tasks[0]"

Test(kread_vjob, a_job_is_put_with_its_tasks_templates_and_policies)
{
	cr_assert_eq(put_vjob(HEAD "spec:\n"
			      "  minAvailable: 3\n  queue: q1\n  priorityClassName: high\n"
			      "  maxRetry: 5\n  schedulerName: volcano\n"
			      "  policies:\n  - {event: PodEvicted, action: RestartJob}\n"
			      "  - {exitCode: 3, action: AbortJob}\n"
			      "  tasks:\n"
			      "  - name: ps\n    replicas: 1\n    minAvailable: 1\n"
			      "    policies: [{events: [PodFailed, Unknown], event: TaskCompleted, "
			      "action: CompleteJob}]\n"
			      "    template:\n"
			      "      metadata: {labels: {role: ps}, annotations: {a: b}}\n"
			      "      spec:\n"
			      "        nodeSelector: {zone: a}\n"
			      "        tolerations: [{key: k, operator: Exists}]\n"
			      "        overhead: {cpu: 100m}\n"
			      "        initContainers:\n"
			      "        - resources: {requests: {cpu: \"3\", memory: 1Gi}}\n"
			      "        containers:\n"
			      "        - {name: a, image: x, resources: {requests: {cpu: 1, memory: 2Gi}}}\n"
			      "        - resources: {limits: {cpu: 500m, nvidia.com/gpu: 1}}\n"
			      "  - {name: worker, replicas: 4}\n"), 0, "%s", err.msg);
	cr_assert_str_eq(shown,
		"{policies{event=PodEvicted action=RestartJob} policies{exitCode=3 action=AbortJob} "
		"tasks{policies{event=PodFailed action=CompleteJob} "
		"policies{event=Unknown action=CompleteJob} "
		"policies{event=TaskCompleted action=CompleteJob} "
		"labels{item{key=role value=ps}} nodeSelector{item{key=zone value=a}} "
		"tolerations{key=k operator=1} name=ps replicas=1 minAvailable=1 "
		"request{cpu=3000 memory=2147483648 scalar{name=nvidia.com/gpu value=1000}} "
		"images=x} "
		"tasks{name=worker replicas=4 request{}} "
		"queue=q1 priorityClassName=high minAvailable=3 maxRetry=5 namespace=ns name=j}");
}

Test(kread_vjob, what_is_not_written_is_left_to_the_daemon)
{
	cr_assert_eq(put_vjob(SPEC("{tasks: [{name: t, replicas: 1, minAvailable: null, "
				   "template: {metadata: {}, spec: {containers: []}}}], "
				   "queue: null, policies: [], maxRetry: ~}")), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "{tasks{name=t replicas=1 request{}} namespace=ns name=j}");
	cr_assert_eq(put_vjob(HEAD "status: {state: {phase: Running}}\n"), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "{namespace=ns name=j}");
	cr_assert_eq(put_vjob("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n"
			      "metadata: {name: j}\nspec: {}\n"), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "{namespace=default name=j}");
	cr_assert_eq(put_vjob("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n"
			      "metadata: {name: j, namespace: ns, labels: {a: b}, annotations: {c: d},\n"
			      "  uid: u1, creationTimestamp: '2026-01-01T00:00:00Z', resourceVersion: 3,\n"
			      "  deletionTimestamp: x, ownerReferences: [{uid: o1}]}\n"), 0, "%s",
		     err.msg);
	cr_assert_str_eq(shown, "{namespace=ns name=j}");
}

/* The request: the containers' sum and the overhead, at least each init container's. */
Test(kread_vjob, a_tasks_request_is_the_old_readers)
{
	cr_assert_eq(put_vjob(TMPL("{containers: [{resources: {requests: {cpu: 1}}}, "
				   "{resources: {requests: {cpu: 2, memory: 1Gi}}}], "
				   "initContainers: [{resources: {requests: {cpu: 2500m}}}, "
				   "{resources: {requests: {memory: 3Gi, pods: 1}}}], "
				   "overhead: {cpu: 250m}}")), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "{tasks{name=t replicas=2 request{cpu=3250 memory=3221225472 "
			 "pods=1}} namespace=ns name=j}");
	cr_assert_eq(put_vjob(TMPL("{initContainers: [{resources: {limits: {cpu: 4}}}]}")), 0,
		     "%s", err.msg);
	cr_assert_str_eq(shown, "{tasks{name=t replicas=2 request{cpu=4000}} namespace=ns name=j}");
}

/* A template's host ports, a host-network one's defaulted, as a pod's. */
Test(kread_vjob, a_templates_host_ports_are_put_as_a_pods)
{
	cr_assert_eq(put_vjob(TMPL("{hostNetwork: true, containers: [{ports: [{containerPort: 80}, "
				   "{containerPort: 53, hostPort: 5353, protocol: UDP, "
				   "hostIP: 10.0.0.1}]}]}")), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "{tasks{name=t replicas=2 request{} "
			 "hostPorts{hostPort=80 protocol=0} "
			 "hostPorts{hostPort=5353 protocol=1 hostIP=10.0.0.1}} "
			 "namespace=ns name=j}");
	cr_assert_eq(put_vjob(TMPL("{containers: [{ports: [{containerPort: 80}]}]}")), 0,
		     "%s", err.msg);
	cr_assert_str_eq(shown, "{tasks{name=t replicas=2 request{}} namespace=ns name=j}");
	cr_assert_eq(put_vjob(TMPL("{containers: [{ports: [{containerPort: 80, hostPort: 80}, "
				   "{containerPort: 81, hostPort: 80}]}]}")), -EINVAL);
	cr_assert_str_eq(err.msg, T0 ".template.spec.containers[0].ports[1].hostPort: "
			 "duplicate TCP//80");
}

/* A template's images, init containers' first, as a pod's. */
Test(kread_vjob, a_templates_images_are_put_as_a_pods)
{
	cr_assert_eq(put_vjob(TMPL("{containers: [{image: 'nginx:1.25'}, {image: ''}], "
				   "initContainers: [{image: busybox}]}")), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "{tasks{name=t replicas=2 request{} images=busybox "
			 "images=nginx:1.25} namespace=ns name=j}");
	cr_assert_eq(put_vjob(TMPL("{containers: [{image: 7}]}")), -EINVAL);
	cr_assert_str_eq(err.msg, T0 ".template.spec.containers[0].image must be a string, "
			 "not an integer");
}

/* A template's topology spread constraints, as a pod's. */
Test(kread_vjob, a_templates_spread_constraints_are_put_as_a_pods)
{
	cr_assert_eq(put_vjob(TMPL("{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, "
				   "whenUnsatisfiable: ScheduleAnyway, "
				   "labelSelector: {matchLabels: {app: w}}}]}")), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "{tasks{topologySpreadConstraints{maxSkew=1 topologyKey=zone "
			 "whenUnsatisfiable=1 labelSelector{matchLabels{item{key=app value=w}}}} "
			 "name=t replicas=2 request{}} namespace=ns name=j}");
	cr_assert_eq(put_vjob(TMPL("{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone}]}")),
		     -EINVAL);
	cr_assert_str_eq(err.msg, T0 ".template.spec.topologySpreadConstraints[0]."
			 "whenUnsatisfiable: required");
}

/* What the codec refuses as it is put, named by the field; what it checks as the daemon does. */
Test(kread_vjob, values_the_policy_refuses_are_named_by_their_field)
{
	cr_assert_eq(put_vjob(TASK("minAvailable: 3")), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "{tasks{name=t replicas=2 minAvailable=3 request{}} "
			 "namespace=ns name=j}");
	cr_assert_eq(put_vjob(SPEC("{tasks: [{name: t, replicas: 0}]}")), -EINVAL);
	cr_assert_str_eq(err.msg, T0 ".replicas: vtask.replicas: 0 out of 1..2147483647");
	cr_assert_eq(put_vjob(SPEC("{tasks: [{replicas: 1}]}")), 1);
	cr_assert_str_eq(err.msg, "vjob.tasks[0].name: required but missing");
}

/* Refused by the reader, in the old reader's words (its messages, kept). */
static const struct {
	const char *text, *msg;
} refused[] = {
	{ HEAD "spec: [a]\n", AT4 " must be a mapping, not a list" },
	{ HEAD "spec: {}\nextra: 1\n",
	  "m.yaml:5: document 1 (Job ns/j): extra: unknown field (known: apiVersion, kind, "
	  "metadata, spec, status)" },
	{ "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {namespace: ns}\n",
	  "m.yaml:1: document 1 (Job): metadata.name: required" },
	{ "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j, labels: {a: 1}}\n",
	  "m.yaml:3: document 1 (Job default/j): metadata.labels.a must be a string, not an "
	  "integer" },
	{ "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j, labels: [a]}\n",
	  "m.yaml:3: document 1 (Job default/j): metadata.labels must be a mapping of strings, "
	  "not a list" },
	{ "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n"
	  "metadata: {name: j, annotations: {a: [b]}}\n",
	  "m.yaml:3: document 1 (Job default/j): metadata.annotations.a must be a string, not a "
	  "list" },
	{ "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j, uid: 3}\n",
	  "m.yaml:3: document 1 (Job default/j): metadata.uid must be a string, not an integer" },
	{ "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n"
	  "metadata: {name: j, creationTimestamp: yesterday}\n",
	  "m.yaml:3: document 1 (Job default/j): metadata.creationTimestamp: \"yesterday\" is not "
	  "a time as Kubernetes writes one (RFC 3339: 2026-01-01T00:00:00Z)" },
	{ SPEC("{tasks: {}}"), AT4 ".tasks must be a list, not a mapping" },
	{ SPEC("{tasks: [x]}"), T0 " must be a mapping, not a string" },
	{ SPEC("{minAvailable: -1}"), AT4 ".minAvailable must be between 0 and 2147483647" },
	{ SPEC("{maxRetry: \"3\"}"), AT4 ".maxRetry must be an integer, not a string" },
	{ SPEC("{queue: [q]}"), AT4 ".queue must be a string, not a list" },
	{ SPEC("{priorityClassName: 1}"), AT4 ".priorityClassName must be a string, not an integer" },
	{ SPEC("{tasks: [{replicas: 2147483648}]}"), T0 ".replicas must be between 0 and 2147483647" },
	{ TASK("minAvailable: 1.5"), T0 ".minAvailable must be an integer, not a number" },
	{ SPEC("{tasks: [{name: 3}]}"), T0 ".name must be a string, not an integer" },
	{ TASK("template: []"), T0 ".template must be a mapping, not a list" },
	{ TASK("template: {meta: {}}"),
	  T0 ".template.meta: unknown field (known: metadata, spec)" },
	{ TASK("template: {metadata: {labels: [a]}}"),
	  T0 ".template.metadata.labels must be a mapping of strings, not a list" },
	{ TASK("template: {metadata: {labels: {a: 1}}}"),
	  T0 ".template.metadata.labels.a must be a string, not an integer" },
	{ TMPL("{affinity: {}}"), T0 ".template.spec.affinity: not supported by vsched" },
	{ TMPL("{priorityClassName: high}"),
	  T0 ".template.spec.priorityClassName: not supported by vsched" },
	{ TMPL("{nodeSelector: {zone: [a]}}"),
	  T0 ".template.spec.nodeSelector.zone must be a string, not a list" },
	{ TMPL("{tolerations: [{key: k, operator: Sometimes}]}"),
	  T0 ".template.spec.tolerations[0].operator: unknown toleration operator \"Sometimes\" "
	  "(Equal or Exists)" },
	{ TMPL("{overhead: {cpu: abc}}"),
	  T0 ".template.spec.overhead.cpu: invalid quantity \"abc\": no digits" },
	{ TMPL("{containers: [{resources: {requests: {memory: 1Qi}}}]}"),
	  T0 ".template.spec.containers[0].resources.requests.memory: invalid quantity \"1Qi\": "
	  "unknown suffix \"Qi\"" },
	{ TMPL("{initContainers: {}}"),
	  T0 ".template.spec.initContainers must be a list, not a mapping" },
	{ SPEC("{policies: {}}"), AT4 ".policies must be a list, not a mapping" },
	{ SPEC("{policies: [{event: PodFailed}]}"), AT4 ".policies[0].action: required" },
	{ SPEC("{policies: [{action: RestartJob}]}"),
	  AT4 ".policies[0]: a policy takes an event (or events) or an exitCode, one of the two" },
	{ SPEC("{policies: [{event: PodFailed, exitCode: 1, action: RestartJob}]}"),
	  AT4 ".policies[0]: a policy takes an event (or events) or an exitCode, one of the two" },
	{ SPEC("{policies: [{events: [], exitCode: 1, action: RestartJob}]}"),
	  AT4 ".policies[0]: a policy takes an event (or events) or an exitCode, one of the two" },
	{ SPEC("{policies: [{event: PodFailed, action: RestartJob, timeout: 10s}]}"),
	  AT4 ".policies[0].timeout: not supported by vsched" },
	{ SPEC("{policies: [{event: PodFailed, action: RestartJob, when: now}]}"),
	  AT4 ".policies[0].when: unknown field (known: event, events, action, exitCode, timeout)" },
	{ SPEC("{policies: [{events: PodFailed, action: RestartJob}]}"),
	  AT4 ".policies[0].events must be a list of strings, not a string" },
	{ SPEC("{policies: [{events: [PodFailed, 3], action: RestartJob}]}"),
	  AT4 ".policies[0].events[1] must be a string, not an integer" },
	{ SPEC("{policies: [{exitCode: 2147483648, action: RestartJob}]}"),
	  AT4 ".policies[0].exitCode must be between -2147483648 and 2147483647" },
	{ SPEC("{policies: [{exitCode: 1, action: [RestartJob]}]}"),
	  AT4 ".policies[0].action must be a string, not a list" },
	{ TASK("policies: [{exitCode: 1}]"), T0 ".policies[0].action: required" },
	{ TASK("policies: [x]"), T0 ".policies[0] must be a mapping, not a string" },
	/* lines */
	{ HEAD "spec:\n  tasks:\n  - name: t\n    template:\n      spec:\n"
	  "        containers:\n        - resources:\n            requests: {cpu: 1x}\n",
	  "m.yaml:11: document 1 (Job ns/j): spec.tasks[0].template.spec.containers[0]"
	  ".resources.requests.cpu: invalid quantity \"1x\": unknown suffix \"x\"" },
};

Test(kread_vjob, refusals_are_the_old_readers)
{
	for (u32 i = 0; i < ARRAY_SIZE(refused); i++) {
		cr_assert_eq(put_vjob(refused[i].text), -EINVAL, "text %u: %s", i, err.msg);
		cr_assert_str_eq(err.msg, refused[i].msg, "text %u: %s", i, err.msg);
	}
}
