// SPDX-License-Identifier: Apache-2.0
/*
 * Pods read without the core (userspace/kube/kread_pod.c): the TASK_NEW
 * request put by the codec and read back as the daemon checks it, what a
 * pod on its way in tells the daemon (ADMIT, OWNER_UID, SCHEDULER), the
 * pods skipped, and every refusal held to the old reader's words.
 */
#include <errno.h>
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

static void fini(void)
{
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
}

TestSuite(kread_pod, .fini = fini);

#define POD	"apiVersion: v1\nkind: Pod\n"

/*
 * The one pod of @text ("m.yaml") put for the scheduler @sched (NULL: the
 * default), its task nest read back into @tb: 0, KR_SKIPPED or the error.
 */
static const struct nlattr *task_obj;

static int put_pod(const char *text, const char *sched, struct vsnl_task_tb *tb)
{
	struct nlmsghdr *nlh = NULL;
	struct vsnl_vsched_tb top;
	int ret;

	fini();
	memset(&err, 0, sizeof(err));
	ret = vsnl_yaml_parse_docs(text, strlen(text), "m.yaml", &ydocs, &err) ?:
	      kr_docs_read("m.yaml", &ydocs, &docs, &err);
	if (ret)
		return ret;
	cr_assert_eq(docs.nr, 1);
	docs.v[0].scheduler = sched;
	ret = kr_put_new(&docs.v[0], buf, sizeof(buf), &nlh, &err);
	if (ret) {
		cr_assert_null(nlh);
		return ret;
	}
	cr_assert_eq(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd, VS_CMD_TASK_NEW);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr,
					  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	task_obj = vsnl_vsched_get_task(&top);
	cr_assert_eq(vsnl_task_spec_parse(task_obj, tb, VSNL_CODEC_REQUEST, &err), 0, "%s",
		     err.msg);
	return 0;
}

/* The strings @type of @nest in the order put, joined by ",". */
static void strs_of(const struct nlattr *nest, u16 type, char *out, size_t size)
{
	const struct nlattr *a;
	size_t len = 0;

	out[0] = '\0';
	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == type)
			len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s%s",
						len ? "," : "", mnl_attr_get_str(a));
	cr_assert_lt(len, size);
}

/* A resource of the nest @res, or -1 when absent. */
static s64 res_of(const struct nlattr *res, const char *name)
{
	struct vsnl_res_tb tb;
	const struct nlattr *a;
	uint64_t v;

	cr_assert_not_null(res);
	cr_assert_eq(vsnl_res_parse(res, &tb, VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	if (!strcmp(name, "cpu"))
		return vsnl_res_get_cpu(&tb, &v) ? (s64)v : -1;
	if (!strcmp(name, "memory"))
		return vsnl_res_get_memory(&tb, &v) ? (s64)v : -1;
	if (!strcmp(name, "pods"))
		return vsnl_res_get_pods(&tb, &v) ? (s64)v : -1;
	mnl_attr_for_each_nested(a, res) {
		struct vsnl_scalar_tb s;

		if (mnl_attr_get_type(a) != VS_RES_A_SCALAR)
			continue;
		cr_assert_eq(vsnl_scalar_parse(a, &s, VSNL_CODEC_REQUEST, &err), 0);
		if (!strcmp(vsnl_scalar_get_name(&s), name) && vsnl_scalar_get_value(&s, &v))
			return (s64)v;
	}
	return -1;
}

/* The value of @key in the labels nest @nest, or NULL. */
static const char *label_of(const struct nlattr *nest, const char *key)
{
	const struct nlattr *a;

	cr_assert_not_null(nest);
	mnl_attr_for_each_nested(a, nest) {
		struct vsnl_kv_tb kv;

		cr_assert_eq(vsnl_kv_parse(a, &kv, VSNL_CODEC_REQUEST, &err), 0);
		if (!strcmp(vsnl_kv_get_key(&kv), key))
			return vsnl_kv_get_value(&kv);
	}
	return NULL;
}

static u32 nr_tolerations(void)
{
	struct vsnl_vsched_tb top;
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	const struct nlattr *a;
	u32 nr = 0;

	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr, 0, &err),
		     0);
	mnl_attr_for_each_nested(a, vsnl_vsched_get_task(&top))
		nr += mnl_attr_get_type(a) == VS_TASK_A_TOLERATION;
	return nr;
}

Test(kread_pod, a_pod_is_put_field_for_field)
{
	struct vsnl_task_tb tb;
	uint32_t status = 99, policy = 99;
	uint64_t created = 0;
	uint8_t preemptable = 0;
	int32_t prio = 0;

	cr_assert_eq(put_pod(POD "metadata:\n  name: p1\n  namespace: ns\n"
			     "  uid: u-self\n  creationTimestamp: \"2026-01-02T03:04:05Z\"\n"
			     "  labels: {app: web, volcano.sh/preemptable: \"false\"}\n"
			     "  annotations:\n    volcano.sh/task-spec: worker\n"
			     "    scheduling.k8s.io/group-name: g1\n"
			     "    scheduling.volcano.sh/queue-name: q1\n"
			     "    volcano.sh/preemptable: \"true\"\n"
			     "  ownerReferences:\n"
			     "  - {apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: u-other}\n"
			     "  - {apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: u-rs, "
			     "controller: true, blockOwnerDeletion: true}\n"
			     "spec:\n  schedulerName: volcano\n  nodeName: n1\n"
			     "  priority: 7\n  priorityClassName: high\n  preemptionPolicy: Never\n"
			     "  nodeSelector: {zone: a}\n"
			     "  tolerations: [{operator: Exists}, {key: k, value: v}]\n"
			     "  affinity:\n    podAntiAffinity:\n"
			     "      requiredDuringSchedulingIgnoredDuringExecution:\n"
			     "      - {topologyKey: zone, labelSelector: {matchLabels: {app: web}}}\n"
			     "  overhead: {cpu: 100m}\n"
			     "  containers:\n  - image: x\n    resources: {requests: {cpu: 1}}\n"
			     "  initContainers:\n  - resources: {limits: {cpu: 3}}\n"
			     "status: {phase: Running, hostIP: 10.0.0.1}\n", NULL, &tb), 0,
		     "%s", err.msg);
	cr_assert_str_eq(vsnl_task_get_namespace(&tb), "ns");
	cr_assert_str_eq(vsnl_task_get_name(&tb), "p1");
	cr_assert_str_eq(vsnl_task_get_role(&tb), "worker");
	cr_assert_str_eq(vsnl_task_get_podgroup(&tb), "g1");
	cr_assert_str_eq(vsnl_task_get_queue(&tb), "q1");
	cr_assert(vsnl_task_get_status(&tb, &status));
	cr_assert_eq(status, VS_TASK_STATUS_RUNNING);
	cr_assert_str_eq(vsnl_task_get_node(&tb), "n1");
	/* the containers' sum and the overhead; the init containers' own */
	cr_assert_eq(res_of(vsnl_task_get_request(&tb), "cpu"), 1100);
	cr_assert_eq(res_of(vsnl_task_get_init_request(&tb), "cpu"), 3000);
	cr_assert(vsnl_task_get_priority(&tb, &prio));
	cr_assert_eq(prio, 7);
	cr_assert_str_eq(vsnl_task_get_priority_class(&tb), "high");
	cr_assert(vsnl_task_get_preemption_policy(&tb, &policy));
	cr_assert_eq(policy, VS_PREEMPTION_NEVER);
	/* the annotation before the label */
	cr_assert(vsnl_task_get_preemptable(&tb, &preemptable));
	cr_assert_eq(preemptable, 1);
	cr_assert_str_eq(label_of(vsnl_task_get_labels(&tb), "app"), "web");
	cr_assert_str_eq(label_of(vsnl_task_get_node_selector(&tb), "zone"), "a");
	cr_assert_eq(nr_tolerations(), 2);
	cr_assert_not_null(vsnl_task_get_affinity(&tb));
	cr_assert(vsnl_task_get_created(&tb, &created));
	cr_assert_eq(created, 1767323045);
	/* the controller's UID, not the first owner's nor the pod's */
	cr_assert_str_eq(vsnl_task_get_owner_uid(&tb), "u-rs");
	cr_assert_str_eq(vsnl_task_get_scheduler(&tb), "volcano");
	cr_assert(vsnl_task_get_admit(&tb));
}

Test(kread_pod, a_bare_pod_leaves_the_rest_to_the_daemon)
{
	struct vsnl_task_tb tb;
	uint32_t v;
	int32_t prio;
	uint8_t b;
	uint64_t t;

	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec:\n  containers: [{name: c}]\n",
			     NULL, &tb), 0, "%s", err.msg);
	cr_assert_str_eq(vsnl_task_get_namespace(&tb), "default");
	cr_assert_str_eq(vsnl_task_get_name(&tb), "p");
	cr_assert(vsnl_task_get_admit(&tb), "apply creates pods: the daemon admits them");
	cr_assert_not_null(vsnl_task_get_request(&tb));
	cr_assert_eq(res_of(vsnl_task_get_request(&tb), "cpu"), -1);
	cr_assert_null(vsnl_task_get_init_request(&tb));
	cr_assert_not(vsnl_task_get_status(&tb, &v));
	cr_assert_null(vsnl_task_get_node(&tb));
	cr_assert_not(vsnl_task_get_priority(&tb, &prio));
	cr_assert_not(vsnl_task_get_preemption_policy(&tb, &v));
	cr_assert_null(vsnl_task_get_priority_class(&tb));
	cr_assert_not(vsnl_task_get_preemptable(&tb, &b));
	cr_assert_null(vsnl_task_get_podgroup(&tb));
	cr_assert_null(vsnl_task_get_queue(&tb));
	cr_assert_null(vsnl_task_get_role(&tb));
	cr_assert_null(vsnl_task_get_owner_uid(&tb));
	cr_assert_null(vsnl_task_get_scheduler(&tb));
	cr_assert_null(vsnl_task_get_labels(&tb));
	cr_assert_null(vsnl_task_get_node_selector(&tb));
	cr_assert_null(vsnl_task_get_toleration(&tb));
	cr_assert_null(vsnl_task_get_affinity(&tb));
	cr_assert_not(vsnl_task_get_created(&tb, &t));
}

Test(kread_pod, the_owner_uid_is_the_pods_own_without_a_controller)
{
	struct vsnl_task_tb tb;

	cr_assert_eq(put_pod(POD "metadata:\n  name: p\n  uid: u-self\n  ownerReferences:\n"
			     "  - {kind: ReplicaSet, uid: u-rs, controller: false}\n"
			     "  - {kind: Job, uid: \"\", controller: true}\n", NULL, &tb), 0,
		     "%s", err.msg);
	cr_assert_str_eq(vsnl_task_get_owner_uid(&tb), "u-self");
}

/* The status and node of the pod that @status and @extra make. */
static void status_is(const char *meta, const char *spec, const char *status, bool has,
		      u32 want, const char *node)
{
	char text[512];
	struct vsnl_task_tb tb;
	uint32_t v = 99;

	snprintf(text, sizeof(text), POD "metadata: {name: p%s}\nspec: {%s}\n%s", meta, spec,
		 status);
	cr_assert_eq(put_pod(text, NULL, &tb), 0, "%s: %s", text, err.msg);
	cr_assert_eq(vsnl_task_get_status(&tb, &v), has, "%s", text);
	if (has)
		cr_assert_eq(v, want, "%s", text);
	if (node)
		cr_assert_str_eq(vsnl_task_get_node(&tb) ?: "(none)", node, "%s", text);
	else
		cr_assert_null(vsnl_task_get_node(&tb), "%s", text);
}

Test(kread_pod, the_status_is_volcanos_from_phase_node_and_deletion)
{
	status_is("", "", "", false, 0, NULL);
	status_is("", "", "status: {}\n", false, 0, NULL);
	status_is("", "", "status: {phase: Pending}\n", true, VS_TASK_STATUS_PENDING, NULL);
	status_is("", "nodeName: n1", "", true, VS_TASK_STATUS_BOUND, "n1");
	status_is("", "nodeName: n1", "status: {phase: Pending}\n", true, VS_TASK_STATUS_BOUND,
		  "n1");
	status_is("", "nodeName: n1", "status: {phase: Running}\n", true, VS_TASK_STATUS_RUNNING,
		  "n1");
	status_is(", deletionTimestamp: \"2026-01-01T00:00:00Z\"", "nodeName: n1",
		  "status: {phase: Running}\n", true, VS_TASK_STATUS_RELEASING, "n1");
	status_is(", deletionTimestamp: \"2026-01-01T00:00:00Z\"", "", "", true,
		  VS_TASK_STATUS_RELEASING, NULL);
	/* finished and unknown pods hold nothing on their node */
	status_is("", "nodeName: n1", "status: {phase: Succeeded}\n", true,
		  VS_TASK_STATUS_SUCCEEDED, NULL);
	status_is("", "nodeName: n1", "status: {phase: Failed}\n", true, VS_TASK_STATUS_FAILED,
		  NULL);
	status_is("", "nodeName: n1", "status: {phase: Unknown}\n", true, VS_TASK_STATUS_UNKNOWN,
		  NULL);
	status_is("", "nodeName: \"\"", "status: {phase: Succeeded}\n", true,
		  VS_TASK_STATUS_SUCCEEDED, NULL);
}

Test(kread_pod, scheduling_gates_make_a_gated_task)
{
	struct vsnl_task_tb tb;

	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec:\n  schedulingGates:\n"
			     "  - {name: example.com/a}\n  - name: example.com/b\n", NULL, &tb),
		     0, "%s", err.msg);
	cr_assert(vsnl_task_get_gated(&tb));
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec: {schedulingGates: []}\n", NULL, &tb),
		     0, "%s", err.msg);
	cr_assert_not(vsnl_task_get_gated(&tb), "no gate left: none");
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec: {schedulingGates: [{}]}\n", NULL,
			     &tb), -EINVAL);
	cr_assert_str_eq(err.msg, "m.yaml:4: document 1 (Pod default/p): "
			 "spec.schedulingGates[0].name: required");
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec: {schedulingGates: [{nam: x}]}\n",
			     NULL, &tb), -EINVAL);
	cr_assert_str_eq(err.msg, "m.yaml:4: document 1 (Pod default/p): "
			 "spec.schedulingGates[0].nam: unknown field (known: name)");
}

/* status.nominatedNodeName, as given; none when empty. */
Test(kread_pod, the_nominated_node_is_put_from_the_status)
{
	struct vsnl_task_tb tb;

	cr_assert_eq(put_pod(POD "metadata: {name: p}\nstatus: {phase: Pending, "
			     "nominatedNodeName: n2}\n", NULL, &tb), 0, "%s", err.msg);
	cr_assert_str_eq(vsnl_task_get_nominated_node(&tb), "n2");
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nstatus: {nominatedNodeName: \"\"}\n",
			     NULL, &tb), 0, "%s", err.msg);
	cr_assert_null(vsnl_task_get_nominated_node(&tb));
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nstatus: {nominatedNodeName: [n2]}\n",
			     NULL, &tb), -EINVAL);
	cr_assert_str_eq(err.msg, "m.yaml:4: document 1 (Pod default/p): "
			 "status.nominatedNodeName must be a string, not a list");
}

/* ImageLocality's images: the init containers', then the containers', none empty. */
Test(kread_pod, images_are_the_init_containers_then_the_containers)
{
	struct vsnl_task_tb tb;
	char text[256];

	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec:\n"
			     "  containers:\n  - {name: a, image: 'nginx:1.25'}\n  - {name: b}\n"
			     "  - {name: c, image: ''}\n  - {name: d, image: registry:5000/x}\n"
			     "  initContainers: [{name: i, image: busybox}]\n", NULL, &tb),
		     0, "%s", err.msg);
	strs_of(task_obj, VS_TASK_A_IMAGE, text, sizeof(text));
	cr_assert_str_eq(text, "busybox,nginx:1.25,registry:5000/x");
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec: {containers: [{name: a}]}\n", NULL,
			     &tb), 0, "%s", err.msg);
	cr_assert_null(vsnl_task_get_image(&tb));
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec: {containers: [{image: [x]}]}\n",
			     NULL, &tb), -EINVAL);
	cr_assert_str_eq(err.msg, "m.yaml:4: document 1 (Pod default/p): "
			 "spec.containers[0].image must be a string, not a list");
}

/* spec.topologySpreadConstraints: each a nest of what is written, the enums by name. */
Test(kread_pod, topology_spread_constraints_are_put_as_written)
{
	struct vsnl_task_tb tb;
	struct vsnl_spread_tb sp;
	const struct nlattr *a;
	uint32_t v;
	int32_t i;
	u32 n = 0;

	cr_assert_eq(put_pod(POD "metadata: {name: p, labels: {app: web}}\nspec:\n"
			     "  topologySpreadConstraints:\n"
			     "  - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,\n"
			     "     labelSelector: {matchLabels: {app: web}}, minDomains: 3,\n"
			     "     nodeTaintsPolicy: Honor, matchLabelKeys: [pod-template-hash]}\n"
			     "  - {maxSkew: 1, topologyKey: kubernetes.io/hostname,\n"
			     "     whenUnsatisfiable: ScheduleAnyway}\n", NULL, &tb),
		     0, "%s", err.msg);
	mnl_attr_for_each_nested(a, task_obj) {
		if (mnl_attr_get_type(a) != VS_TASK_A_SPREAD)
			continue;
		cr_assert_eq(vsnl_spread_parse(a, &sp, VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
		cr_assert(vsnl_spread_get_when(&sp, &v));
		if (n++ == 0) {
			cr_assert_str_eq(vsnl_spread_get_topology_key(&sp), "zone");
			cr_assert_eq(v, VS_SPREAD_ACTION_DO_NOT_SCHEDULE);
			cr_assert(vsnl_spread_get_min_domains(&sp, &i));
			cr_assert_eq(i, 3);
			cr_assert(vsnl_spread_get_node_taints_policy(&sp, &v));
			cr_assert_eq(v, VS_SPREAD_INCLUSION_HONOR);
			cr_assert_not(vsnl_spread_get_node_affinity_policy(&sp, &v));
			cr_assert_not_null(vsnl_spread_get_selector(&sp));
			cr_assert_str_eq(vsnl_spread_get_match_label_key(&sp), "pod-template-hash");
		} else {
			cr_assert_eq(v, VS_SPREAD_ACTION_SCHEDULE_ANYWAY);
			cr_assert(vsnl_spread_get_max_skew(&sp, &i));
			cr_assert_eq(i, 1);
			cr_assert_null(vsnl_spread_get_selector(&sp), "none written: none sent");
		}
	}
	cr_assert_eq(n, 2);
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec:\n  topologySpreadConstraints:\n"
			     "  - {maxSkew: 1, topologyKey: zone}\n", NULL, &tb), -EINVAL);
	cr_assert_str_eq(err.msg, "m.yaml:6: document 1 (Pod default/p): "
			 "spec.topologySpreadConstraints[0].whenUnsatisfiable: required");
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec:\n  topologySpreadConstraints:\n"
			     "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Never}\n",
			     NULL, &tb), -EINVAL);
	cr_assert(strstr(err.msg, "spec.topologySpreadConstraints[0].whenUnsatisfiable"), "%s",
		  err.msg);
	cr_assert(strstr(err.msg, "DoNotSchedule"), "%s", err.msg);
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec:\n  topologySpreadConstraints:\n"
			     "  - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n",
			     NULL, &tb), -EINVAL);
	cr_assert(strstr(err.msg, "spec.topologySpreadConstraints[0].maxSkew"), "%s", err.msg);
}

Test(kread_pod, a_pending_pod_of_another_scheduler_is_skipped)
{
	struct vsnl_task_tb tb;

	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec: {schedulerName: default-scheduler}\n",
			     NULL, &tb), KR_SKIPPED);
	cr_assert_str_eq(err.msg, "another scheduler's, without a node");
	cr_assert_eq(err.err, 0);
	/* skipped before its preemptable flag is read, as the old reader did */
	cr_assert_eq(put_pod(POD "metadata: {name: p, labels: {volcano.sh/preemptable: maybe}}\n"
			     "spec: {schedulerName: default-scheduler, nodeName: \"\"}\n", NULL,
			     &tb), KR_SKIPPED);
	/* on a node it is accounted for */
	cr_assert_eq(put_pod(POD "metadata: {name: p}\n"
			     "spec: {schedulerName: default-scheduler, nodeName: n1}\n", NULL, &tb),
		     0, "%s", err.msg);
	cr_assert_str_eq(vsnl_task_get_scheduler(&tb), "default-scheduler");
	cr_assert_str_eq(vsnl_task_get_node(&tb), "n1");
	/* whose pods are vsched's is the caller's to say */
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec: {schedulerName: batch}\n", "batch",
			     &tb), 0, "%s", err.msg);
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec: {schedulerName: volcano}\n", "batch",
			     &tb), KR_SKIPPED);
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec: {schedulerName: \"\"}\n", "batch",
			     &tb), 0, "%s", err.msg);
	cr_assert_null(vsnl_task_get_scheduler(&tb));
}

Test(kread_pod, no_init_container_is_no_init_request)
{
	struct vsnl_task_tb tb;

	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec:\n  initContainers: []\n"
			     "  overhead: {memory: 1Ki}\n", NULL, &tb), 0, "%s", err.msg);
	cr_assert_null(vsnl_task_get_init_request(&tb));
	cr_assert_eq(res_of(vsnl_task_get_request(&tb), "memory"), 1024);
	cr_assert_eq(put_pod(POD "metadata: {name: p}\nspec:\n  initContainers: [{}]\n", NULL,
			     &tb), 0, "%s", err.msg);
	cr_assert_not_null(vsnl_task_get_init_request(&tb));
}

/* ---- against the old reader's answers, kept in the table ---- */

static const struct {
	const char *text;
	const char *msg;	/* the old reader's refusal; NULL: it took the pod */
} pod_cases[] = {
	{ POD "metadata: {name: p}\n", .msg = NULL },
	{ POD "metadata: {name: p, namespace: ns, uid: u1, resourceVersion: \"3\"}\n"
	      "spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 1}}}]}\n"
	      "status: {phase: Pending, conditions: []}\n", .msg = NULL },
	{ POD "metadata:\n  name: p\n  ownerReferences: [{uid: u, controller: true}]\n"
	      "  creationTimestamp: \"2026-01-01T00:00:00.5+01:00\"\n", .msg = NULL },
	{ POD "metadata: {name: p}\nspec: {tolerations: [{key: k, operator: Exists, "
	      "effect: \"\", tolerationSeconds: 5}], nodeSelector: {a: b}}\n", .msg = NULL },
	{ POD "metadata: {name: p, annotations: {volcano.sh/preemptable: \"1\"}}\n", .msg = NULL },
	/* refused, in the same words */
	{ POD "spec: {}\n",
	  .msg = "m.yaml:1: document 1 (Pod): metadata.name: required" },
	{ POD "metadata: {name: 3}\n",
	  .msg = "m.yaml:3: document 1 (Pod): metadata.name must be a string, not an integer" },
	{ POD "metadata: {name: p}\ncolour: red\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): colour: unknown field (known: "
	  "apiVersion, kind, metadata, spec, status)" },
	{ POD "metadata: {name: p}\nspec: []\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec must be a mapping, not a list" },
	{ POD "metadata: {name: p, labels: {a: 1}}\n",
	  .msg = "m.yaml:3: document 1 (Pod default/p): metadata.labels.a must be a string, "
	  "not an integer" },
	{ POD "metadata: {name: p, labels: [a]}\n",
	  .msg = "m.yaml:3: document 1 (Pod default/p): metadata.labels must be a mapping of "
	  "strings, not a list" },
	{ POD "metadata: {name: p, annotations: {volcano.sh/preemptable: maybe}}\n",
	  .msg = "m.yaml:1: document 1 (Pod default/p): "
	  "metadata.annotations[volcano.sh/preemptable]: \"maybe\" is not a boolean" },
	{ POD "metadata: {name: p, labels: {volcano.sh/preemptable: \"yes\"}}\n",
	  .msg = "m.yaml:1: document 1 (Pod default/p): "
	  "metadata.labels[volcano.sh/preemptable]: \"yes\" is not a boolean" },
	{ POD "metadata: {name: p, ownerReferences: {uid: u}}\n",
	  .msg = "m.yaml:3: document 1 (Pod default/p): metadata.ownerReferences must be a "
	  "list, not a mapping" },
	{ POD "metadata: {name: p, ownerReferences: [{uid: u, controller: \"true\"}]}\n",
	  .msg = "m.yaml:3: document 1 (Pod default/p): "
	  "metadata.ownerReferences[0].controller must be true or false, not a string" },
	{ POD "metadata: {name: p, ownerReferences: [{uid: u, owner: true}]}\n",
	  .msg = "m.yaml:3: document 1 (Pod default/p): metadata.ownerReferences[0].owner: "
	  "unknown field (known: apiVersion, kind, name, uid, controller, blockOwnerDeletion)" },
	{ POD "metadata: {name: p, ownerReferences: [{uid: 7}]}\n",
	  .msg = "m.yaml:3: document 1 (Pod default/p): metadata.ownerReferences[0].uid must "
	  "be a string, not an integer" },
	{ POD "metadata: {name: p, creationTimestamp: yesterday}\n",
	  .msg = "m.yaml:3: document 1 (Pod default/p): metadata.creationTimestamp: "
	  "\"yesterday\" is not a time as Kubernetes writes one (RFC 3339: "
	  "2026-01-01T00:00:00Z)" },
	{ POD "metadata: {name: p, creationTimestamp: 2026-01-01}\n",
	  .msg = "m.yaml:3: document 1 (Pod default/p): metadata.creationTimestamp: "
	  "\"2026-01-01\" is not a time as Kubernetes writes one (RFC 3339: "
	  "2026-01-01T00:00:00Z)" },
	{ POD "metadata: {name: p}\nstatus: {phase: Running}\n",
	  .msg = "m.yaml:1: document 1 (Pod default/p): status.phase: a Running pod needs "
	  "spec.nodeName" },
	{ POD "metadata: {name: p}\nstatus: {phase: Lost}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): status.phase: unknown pod phase "
	  "\"Lost\" (known: Pending, Running, Succeeded, Failed, Unknown)" },
	{ POD "metadata: {name: p}\nstatus: {phase: 1}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): status.phase must be a string, not an "
	  "integer" },
	{ POD "metadata: {name: p}\nstatus: [Running]\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): status must be a mapping, not a list" },
	{ POD "metadata: {name: p}\nspec: {priority: high}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.priority must be an integer, not "
	  "a string" },
	{ POD "metadata: {name: p}\nspec: {priority: 2147483648}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.priority must be between "
	  "-2147483648 and 2147483647" },
	{ POD "metadata: {name: p}\nspec: {priorityClassName: [a]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.priorityClassName must be a "
	  "string, not a list" },
	{ POD "metadata: {name: p}\nspec: {preemptionPolicy: Always}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.preemptionPolicy: unknown "
	  "preemption policy \"Always\" (one of: PreemptLowerPriority, Never)" },
	{ POD "metadata: {name: p}\nspec: {nodeName: 5}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.nodeName must be a string, not "
	  "an integer" },
	{ POD "metadata: {name: p}\nspec: {schedulerName: {a: b}}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.schedulerName must be a string, "
	  "not a mapping" },
	{ POD "metadata: {name: p}\nspec: {nodeSelector: {zone: [a]}}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.nodeSelector.zone must be a "
	  "string, not a list" },
	{ POD "metadata: {name: p}\nspec: {overhead: {cpu: lots}}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.overhead.cpu: invalid quantity "
	  "\"lots\": no digits" },
	{ POD "metadata: {name: p}\nspec: {containers: [{resources: {requests: {cpu: -x}}}]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): "
	  "spec.containers[0].resources.requests.cpu: invalid quantity \"-x\": no digits" },
	{ POD "metadata: {name: p}\nspec: {containers: [{resources: {limits: {memory: 1Qi}}}]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): "
	  "spec.containers[0].resources.limits.memory: invalid quantity \"1Qi\": unknown "
	  "suffix \"Qi\"" },
	{ POD "metadata: {name: p}\nspec: {initContainers: {a: b}}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.initContainers must be a list, "
	  "not a mapping" },
	{ POD "metadata: {name: p}\nspec: {containers: [{resources: {requests: [1]}}]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.containers[0].resources.requests "
	  "must be a mapping of quantities, not a list" },
	{ POD "metadata: {name: p}\nspec: {containers: [{resources: {claims: [], extra: 1}}]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.containers[0].resources.extra: "
	  "unknown field (known: requests, limits, claims)" },
	{ POD "metadata: {name: p}\nspec: {tolerations: [{operator: Maybe}]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.tolerations[0].operator: unknown "
	  "toleration operator \"Maybe\" (Equal or Exists)" },
	{ POD "metadata: {name: p}\nspec: {tolerations: [{effect: NoWay}]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.tolerations[0].effect: unknown "
	  "taint effect \"NoWay\" (NoSchedule, PreferNoSchedule or NoExecute)" },
	{ POD "metadata: {name: p}\nspec: {tolerations: [{key: k, seconds: 3}]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.tolerations[0].seconds: unknown "
	  "field (known: key, operator, value, effect, tolerationSeconds)" },
	{ POD "metadata: {name: p}\nspec: {tolerations: [{tolerationSeconds: 1.5}]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.tolerations[0].tolerationSeconds "
	  "must be an integer, not a number" },
	{ POD "metadata: {name: p}\nspec: {tolerations: [{value: [v]}]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.tolerations[0].value must be a "
	  "string, not a list" },
	{ POD "metadata: {name: p}\nspec: {tolerations: a}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.tolerations must be a list, not "
	  "a string" },
	{ POD "metadata: {name: p}\nspec: {affinity: {nodeAffinity: {required: []}}}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.affinity.nodeAffinity.required: "
	  "unknown field (known: requiredDuringSchedulingIgnoredDuringExecution, "
	  "preferredDuringSchedulingIgnoredDuringExecution)" },
	{ POD "metadata: {name: p}\nspec: {affinity: [a]}\n",
	  .msg = "m.yaml:4: document 1 (Pod default/p): spec.affinity must be a mapping, not "
	  "a list" },
};

Test(kread_pod, pods_are_refused_as_the_old_reader_refused_them)
{
	for (u32 i = 0; i < ARRAY_SIZE(pod_cases); i++) {
		struct vsnl_task_tb tb;
		int ret = put_pod(pod_cases[i].text, NULL, &tb);

		cr_assert_eq(!ret, !pod_cases[i].msg, "text %u: %d (%s), the old reader's %s", i,
			     ret, err.msg, pod_cases[i].msg ?: "taken");
		if (ret)
			cr_assert_str_eq(err.msg, pod_cases[i].msg, "text %u", i);
	}
}

/*
 * A pod mirrored from the API server (vskube) was admitted there when it
 * was created: it goes as it is, without ADMIT, its priority as given.
 */
Test(kread_pod, a_mirrored_pod_is_not_admitted_again)
{
	static const char text[] = POD "metadata: {name: p}\nspec:\n  priorityClassName: gone\n"
				   "  priority: 7\n  containers: [{name: c}]\n";
	struct nlmsghdr *nlh = NULL;
	struct vsnl_vsched_tb top;
	struct vsnl_task_tb tb;
	int32_t prio = 0;

	cr_assert_eq(put_pod(text, NULL, &tb), 0, "%s", err.msg);
	cr_assert(vsnl_task_get_admit(&tb), "created: admitted by the daemon");
	docs.v[0].mirror = true;
	cr_assert_eq(kr_put_new(&docs.v[0], buf, sizeof(buf), &nlh, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr,
					  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_task_spec_parse(vsnl_vsched_get_task(&top), &tb, VSNL_CODEC_REQUEST,
					  &err), 0, "%s", err.msg);
	cr_assert_not(vsnl_task_get_admit(&tb), "mirrored: admitted by the API server already");
	cr_assert(vsnl_task_get_priority(&tb, &prio));
	cr_assert_eq(prio, 7);
	cr_assert_str_eq(vsnl_task_get_priority_class(&tb), "gone");
}
