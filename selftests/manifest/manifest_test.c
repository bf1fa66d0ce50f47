// SPDX-License-Identifier: Apache-2.0
/*
 * Kubernetes manifests translated into the core's objects
 * (userspace/kube/manifest.c): every kind with the fields it reads and
 * Volcano's rules, the pod request rule, the order objects are sent in,
 * and every refusal with its exact message. The test binary links
 * manifest.o and kfields.o (the Makefile's test-client-objs).
 */
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "vsched/vsched.h"
#include "kube/manifest.h"

static struct mf_set set;
static struct mf_err err;

static void fini(void)
{
	mf_set_free(&set);
}

TestSuite(manifest, .fini = fini);

/* Parse and build @text as the file "m.yaml"; 0 or the error, in err. */
static int load_online(const char *text, bool offline)
{
	int ret;

	cr_assert_eq(mf_set_init(&set), 0);
	set.offline = offline;
	memset(&err, 0, sizeof(err));
	ret = mf_set_parse(&set, "m.yaml", text, strlen(text), &err);
	return ret ?: mf_set_build(&set, &err);
}

static int load(const char *text)
{
	return load_online(text, true);
}

static void ok(const char *text)
{
	cr_assert_eq(load(text), 0, "%s", err.msg);
}

static void refused(const char *text, const char *msg)
{
	cr_assert_neq(load(text), 0, "accepted, expected: %s", msg);
	cr_assert_str_eq(err.msg, msg);
}

static struct vs_task *task(const char *ns, const char *name)
{
	struct vs_task *t = vs_task_find(&set.cl, ns, name);

	cr_assert_not_null(t, "no task %s/%s", ns, name);
	return t;
}

static s64 res(const struct vs_res *r, const char *dim)
{
	int d = vs_res_dim_lookup(&set.cl.dims, dim, strlen(dim));

	cr_assert_geq(d, 0, "no dimension %s", dim);
	return vs_res_get(r, (unsigned int)d);
}

static const char *label(const struct vs_labels *l, const char *key)
{
	for (u32 i = 0; l && i < l->nr; i++)
		if (!strcmp(l->kv[i].key, key))
			return l->kv[i].value;
	return NULL;
}

/* A pod: lines 1-5; @rest goes on with more of its metadata or its spec, from line 6. */
#define POD(ns, name, rest)							\
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: " name "\n  namespace: " ns "\n" rest

/* ---- every kind ---- */

Test(manifest, node_reads_allocatable_labels_taints_cordon_and_ready)
{
	struct vs_node *n;

	ok("apiVersion: v1\n"
	   "kind: Node\n"
	   "metadata:\n"
	   "  name: n1\n"
	   "  uid: '1234'\n"
	   "  labels: {zone: a}\n"
	   "spec:\n"
	   "  unschedulable: true\n"
	   "  podCIDR: 10.0.0.0/24\n"
	   "  taints: [{key: k, value: v, effect: NoExecute, timeAdded: '2024-01-01T00:00:00Z'}]\n"
	   "status:\n"
	   "  capacity: {cpu: '8'}\n"
	   "  allocatable: {cpu: 3500m, memory: 4Gi, pods: 110, nvidia.com/gpu: 2}\n"
	   "  conditions:\n"
	   "  - {type: DiskPressure, status: 'False'}\n"
	   "  - {type: Ready, status: 'False', reason: KubeletNotReady}\n");
	n = vs_node_find(&set.cl, "n1");
	cr_assert_not_null(n);
	cr_assert_eq(res(&n->allocatable, "cpu"), 3500);
	cr_assert_eq(res(&n->allocatable, "memory"), 4LL << 30);
	cr_assert_eq(res(&n->allocatable, "pods"), 110);
	cr_assert_eq(res(&n->allocatable, "nvidia.com/gpu"), 2000);
	cr_assert_str_eq(label(n->labels, "zone"), "a");
	cr_assert_eq(n->taints->nr, 1);
	cr_assert_eq(n->taints->t[0].effect, VS_TAINT_NO_EXECUTE);
	cr_assert(n->unschedulable);
	cr_assert_not(n->ready);
	cr_assert_eq(set.nr_objs, 1);
	cr_assert_eq(set.objs[0].kind, MF_NODE);
}

Test(manifest, node_without_allocatable_takes_its_capacity_and_is_ready)
{
	struct vs_node *n;

	ok("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {capacity: {cpu: 2}}\n");
	n = vs_node_find(&set.cl, "n1");
	cr_assert_eq(res(&n->allocatable, "cpu"), 2000);
	cr_assert(n->ready);
	cr_assert_not(n->unschedulable);
}

Test(manifest, documents_split_right_after_non_ascii_text_and_cr_line_breaks)
{
	/* libyaml counts characters: an "é" before the second document once shifted its text. */
	ok("# équipe de calcul\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
	   "status: {capacity: {cpu: 2}}\n---\napiVersion: v1\nkind: Node\n"
	   "metadata: {name: n2, annotations: {note: \"ça\"}}\nstatus: {capacity: {cpu: 4}}\n");
	cr_assert_eq(res(&vs_node_find(&set.cl, "n2")->allocatable, "cpu"), 4000);
	mf_set_free(&set);
	/* Old Mac line breaks (\r alone) are line breaks to libyaml, and so to the split. */
	ok("apiVersion: v1\rkind: Node\rmetadata: {name: n1}\r---\rapiVersion: v1\r"
	   "kind: Node\rmetadata: {name: n2}\r");
	cr_assert_not_null(vs_node_find(&set.cl, "n2"));
}

Test(manifest, queue_reads_its_spec_with_the_webhook_defaults)
{
	struct vs_queue *q;

	ok("apiVersion: scheduling.volcano.sh/v1beta1\n"
	   "kind: Queue\n"
	   "metadata: {name: q1}\n"
	   "spec:\n"
	   "  weight: 3\n"
	   "  capability: {cpu: 10}\n"
	   "  guarantee: {resource: {cpu: 1}}\n"
	   "  deserved: {cpu: 5}\n"
	   "  reclaimable: false\n"
	   "  priority: 7\n"
	   "  parent: root\n"
	   "  extendClusters: []\n"
	   "status: {state: Closed, running: 3}\n"
	   "---\n"
	   "apiVersion: scheduling.volcano.sh/v1beta1\n"
	   "kind: Queue\n"
	   "metadata: {name: q2}\n"
	   "spec: {weight: 0}\n");
	q = vs_queue_find(&set.cl, "q1");
	cr_assert_eq(q->weight, 3);
	cr_assert(q->has_capability);
	cr_assert_eq(res(&q->capability, "cpu"), 10000);
	cr_assert_eq(res(&q->guarantee, "cpu"), 1000);
	cr_assert(q->has_deserved);
	cr_assert_eq(res(&q->deserved, "cpu"), 5000);
	cr_assert_not(q->reclaimable);
	cr_assert_eq(q->priority, 7);
	cr_assert_str_eq(q->parent, "root");
	cr_assert_eq(q->state, VS_QUEUE_CLOSED);
	cr_assert(set.objs[0].has_status);
	q = vs_queue_find(&set.cl, "q2");
	cr_assert_eq(q->weight, 1, "weight 0 is Volcano's webhook's 1");
	cr_assert(q->reclaimable);
	cr_assert_not(q->has_capability);
	cr_assert_eq(q->state, VS_QUEUE_OPEN);
	cr_assert_not(set.objs[1].has_status);
}

Test(manifest, podgroup_reads_its_spec_and_phase)
{
	struct vs_job *pg;

	ok("apiVersion: scheduling.volcano.sh/v1beta1\n"
	   "kind: PodGroup\n"
	   "metadata: {name: pg1, namespace: ns}\n"
	   "spec:\n"
	   "  minMember: 3\n"
	   "  minTaskMember: {ps: 1, worker: 2}\n"
	   "  minResources: {cpu: 6, memory: 1Gi}\n"
	   "  queue: q1\n"
	   "  priorityClassName: high\n"
	   "status: {phase: Running, running: 3}\n"
	   "---\n"
	   "apiVersion: scheduling.volcano.sh/v1beta1\n"
	   "kind: PodGroup\n"
	   "metadata: {name: pg2}\n");
	pg = vs_job_find(&set.cl, "ns", "pg1");
	cr_assert_not_null(pg);
	cr_assert_eq(pg->min_member, 3);
	cr_assert_eq(pg->nr_min_task_member, 2);
	cr_assert(pg->has_min_resources);
	cr_assert_eq(res(&pg->min_resources, "cpu"), 6000);
	cr_assert_str_eq(pg->queue_name, "q1");
	cr_assert_str_eq(pg->priority_class, "high");
	cr_assert_eq(pg->phase, VS_PG_RUNNING);
	pg = vs_job_find(&set.cl, "default", "pg2");
	cr_assert_not_null(pg, "the namespace is \"default\" when none is written");
	cr_assert_eq(pg->min_member, 0, "the CRD has no default minMember");
	cr_assert_str_eq(pg->queue_name, "default");
	cr_assert_not(pg->has_min_resources);
	cr_assert_eq(pg->phase, VS_PG_PENDING);
}

Test(manifest, priority_class_reads_value_default_and_policy)
{
	struct vs_prioclass *pc;

	ok("apiVersion: scheduling.k8s.io/v1\n"
	   "kind: PriorityClass\n"
	   "metadata: {name: high}\n"
	   "value: 1000\n"
	   "globalDefault: true\n"
	   "preemptionPolicy: Never\n"
	   "description: the important ones\n");
	pc = vs_prioclass_find(&set.cl, "high");
	cr_assert_eq(pc->value, 1000);
	cr_assert(pc->global_default);
	cr_assert_eq(pc->preemption_policy, VS_PREEMPT_NEVER);
}

Test(manifest, volcano_job_reads_tasks_templates_and_policies)
{
	struct vs_vjob *v;

	ok("apiVersion: batch.volcano.sh/v1alpha1\n"
	   "kind: Job\n"
	   "metadata: {name: j1, namespace: ns}\n"
	   "spec:\n"
	   "  minAvailable: 3\n"
	   "  queue: q1\n"
	   "  priorityClassName: high\n"
	   "  maxRetry: 5\n"
	   "  schedulerName: volcano\n"
	   "  plugins: {ssh: []}\n"
	   "  policies:\n"
	   "  - {events: [PodEvicted, PodFailed], action: RestartJob}\n"
	   "  tasks:\n"
	   "  - name: ps\n"
	   "    replicas: 1\n"
	   "    template:\n"
	   "      metadata: {labels: {role: ps}, annotations: {a: b}}\n"
	   "      spec:\n"
	   "        nodeSelector: {zone: a}\n"
	   "        tolerations: [{operator: Exists}]\n"
	   "        containers:\n"
	   "        - {name: c, image: x, resources: {requests: {cpu: 1}}}\n"
	   "        - {name: d, resources: {requests: {cpu: 500m}}}\n"
	   "  - name: worker\n"
	   "    replicas: 4\n"
	   "    minAvailable: 2\n"
	   "    template: {spec: {containers: [{name: c, resources: {limits: {cpu: 2}}}]}}\n"
	   "    policies:\n"
	   "    - {exitCode: 3, action: AbortJob}\n"
	   "    - {event: TaskCompleted, action: CompleteJob}\n");
	v = vs_vjob_find(&set.cl, "ns", "j1");
	cr_assert_not_null(v);
	cr_assert_eq(v->min_available, 3);
	cr_assert_str_eq(v->queue_name, "q1");
	cr_assert_str_eq(v->priority_class, "high");
	cr_assert_eq(v->max_retry, 5);
	cr_assert_eq(v->nr_policies, 2, "one policy per event");
	cr_assert_eq(v->policies[0].event, VS_EV_POD_EVICTED);
	cr_assert_eq(v->policies[1].event, VS_EV_POD_FAILED);
	cr_assert_eq(v->policies[1].action, VS_ACT_RESTART_JOB);
	cr_assert_eq(v->nr_tasks, 2);
	cr_assert_str_eq(v->tasks[0].name, "ps");
	cr_assert_eq(v->tasks[0].replicas, 1);
	cr_assert_eq(res(&v->tasks[0].req, "cpu"), 1500);
	cr_assert_str_eq(label(v->tasks[0].labels, "role"), "ps");
	cr_assert_str_eq(label(v->tasks[0].node_selector, "zone"), "a");
	cr_assert_eq(v->tasks[0].tolerations->nr, 1);
	cr_assert_eq(v->tasks[1].min_available, 2);
	cr_assert_eq(res(&v->tasks[1].req, "cpu"), 2000, "requests default to limits");
	cr_assert_eq(v->tasks[1].nr_policies, 2);
	cr_assert(v->tasks[1].policies[0].has_exit_code);
	cr_assert_eq(v->tasks[1].policies[0].exit_code, 3);
	cr_assert_eq(v->tasks[1].policies[0].action, VS_ACT_ABORT_JOB);
	cr_assert_eq(v->tasks[1].policies[1].event, VS_EV_TASK_COMPLETED);
}

Test(manifest, pod_reads_group_role_selectors_and_affinity)
{
	struct vs_task *t;

	ok("apiVersion: scheduling.volcano.sh/v1beta1\n"
	   "kind: PodGroup\n"
	   "metadata: {name: pg1, namespace: ns}\n"
	   "---\n"
	   POD("ns", "p1",
	       "  labels: {app: x, volcano.sh/preemptable: 'true'}\n"
	       "  annotations:\n"
	       "    scheduling.k8s.io/group-name: pg1\n"
	       "    volcano.sh/task-spec: worker\n"
	       "    volcano.sh/preemptable: 'false'\n"
	       "spec:\n"
	       "  containers: [{name: c, image: busybox, ports: [{containerPort: 80}]}]\n"
	       "  nodeSelector: {zone: a}\n"
	       "  tolerations: [{key: k, operator: Exists, effect: NoSchedule}]\n"
	       "  preemptionPolicy: Never\n"
	       "  volumes: [{name: v, emptyDir: {}}]\n"
	       "  affinity:\n"
	       "    nodeAffinity:\n"
	       "      requiredDuringSchedulingIgnoredDuringExecution:\n"
	       "        nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, "
	       "values: [a, b]}]}]\n"
	       "    podAntiAffinity:\n"
	       "      preferredDuringSchedulingIgnoredDuringExecution:\n"
	       "      - weight: 10\n"
	       "        podAffinityTerm: {topologyKey: zone, labelSelector: "
	       "{matchLabels: {app: x}}}\n"));
	t = task("ns", "p1");
	cr_assert_str_eq(t->job->name, "pg1");
	cr_assert_str_eq(t->role, "worker");
	cr_assert_not(t->preemptable, "the annotation wins over the label");
	cr_assert_str_eq(label(t->labels, "app"), "x");
	cr_assert_str_eq(label(t->node_selector, "zone"), "a");
	cr_assert_eq(t->tolerations->nr, 1);
	cr_assert_eq(t->preemption_policy, VS_PREEMPT_NEVER);
	cr_assert_not_null(t->affinity);
	cr_assert_eq(t->status, VS_TASK_PENDING);
	cr_assert_eq(t->priority, 0, "Kubernetes' priority admission: 0 without a class");
}

Test(manifest, pod_preemptable_label_counts_without_the_annotation)
{
	ok(POD("ns", "p1", "  labels: {volcano.sh/preemptable: 'false'}\n"));
	cr_assert_not(task("ns", "p1")->preemptable);
	mf_set_free(&set);
	ok(POD("ns", "p1", ""));
	cr_assert(task("ns", "p1")->preemptable, "Volcano's default");
}

Test(manifest, pod_priority_comes_from_its_class_or_the_default_class)
{
	ok("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\n"
	   "value: 100\npreemptionPolicy: Never\n"
	   "---\n"
	   "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: base}\n"
	   "value: 5\nglobalDefault: true\n"
	   "---\n"
	   POD("ns", "classy", "spec: {priorityClassName: high}\n")
	   "---\n"
	   POD("ns", "plain", "")
	   "---\n"
	   POD("ns", "explicit", "spec: {priorityClassName: high, priority: 7, "
	       "preemptionPolicy: PreemptLowerPriority}\n"));
	cr_assert_eq(task("ns", "classy")->priority, 100);
	cr_assert_eq(task("ns", "classy")->preemption_policy, VS_PREEMPT_NEVER);
	cr_assert_eq(task("ns", "plain")->priority, 5);
	cr_assert_str_eq(task("ns", "plain")->priority_class, "base");
	cr_assert_eq(task("ns", "explicit")->priority, 7);
	cr_assert_eq(task("ns", "explicit")->preemption_policy, VS_PREEMPT_LOWER_PRIORITY);
}

Test(manifest, pod_priority_class_of_the_daemon_is_looked_up)
{
	struct vs_prioclass_spec pc = { .name = "remote", .value = 42 };
	const char *text = POD("ns", "p", "spec: {priorityClassName: remote}\n");

	cr_assert_eq(mf_set_init(&set), 0);
	cr_assert_eq(mf_set_add_prioclass(&set, &pc, &err), 0, "%s", err.msg);
	cr_assert_eq(mf_set_parse(&set, "m.yaml", text, strlen(text), &err), 0, "%s", err.msg);
	cr_assert_eq(mf_set_build(&set, &err), 0, "%s", err.msg);
	cr_assert_eq(task("ns", "p")->priority, 42);
	cr_assert_eq(set.nr_objs, 2, "the daemon's class is not sent (a pod, its PodGroup)");
}

/* Volcano's getTaskStatus. */
Test(manifest, pod_status_follows_phase_node_and_deletion)
{
	ok("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: 8}}\n"
	   "---\n" POD("ns", "bound", "spec: {nodeName: n1}\n")
	   "---\n" POD("ns", "running", "spec: {nodeName: n1}\nstatus: {phase: Running}\n")
	   "---\n" POD("ns", "done", "spec: {nodeName: n1}\nstatus: {phase: Succeeded}\n")
	   "---\n" POD("ns", "failed", "status: {phase: Failed}\n")
	   "---\n" POD("ns", "unknown", "spec: {nodeName: n1}\nstatus: {phase: Unknown}\n")
	   "---\n"
	   "apiVersion: v1\nkind: Pod\n"
	   "metadata: {name: going, namespace: ns, deletionTimestamp: '2024-05-01T10:00:00Z'}\n"
	   "spec: {nodeName: n1}\nstatus: {phase: Running}\n");
	cr_assert_eq(task("ns", "bound")->status, VS_TASK_BOUND);
	cr_assert_str_eq(task("ns", "bound")->node->name, "n1");
	cr_assert_eq(task("ns", "running")->status, VS_TASK_RUNNING);
	cr_assert_eq(task("ns", "done")->status, VS_TASK_SUCCEEDED);
	cr_assert_null(task("ns", "done")->node);
	cr_assert_eq(task("ns", "failed")->status, VS_TASK_FAILED);
	cr_assert_eq(task("ns", "unknown")->status, VS_TASK_UNKNOWN);
	cr_assert_null(task("ns", "unknown")->node);
	cr_assert_eq(task("ns", "going")->status, VS_TASK_RELEASING);
	cr_assert_str_eq(task("ns", "going")->node->name, "n1");
}

/* ---- the pod request ---- */

Test(manifest, pod_request_sums_containers_adds_overhead_and_maxes_init_containers)
{
	struct vs_task *t;

	ok(POD("ns", "p",
	       "spec:\n"
	       "  overhead: {cpu: 250m, memory: 100Mi}\n"
	       "  initContainers:\n"
	       "  - {name: i1, resources: {requests: {cpu: 2, memory: 64Mi}}}\n"
	       "  - {name: i2, resources: {requests: {memory: 3Gi}}}\n"
	       "  containers:\n"
	       "  - {name: c1, resources: {requests: {cpu: 500m, memory: 1Gi, "
	       "nvidia.com/gpu: 1}}}\n"
	       "  - {name: c2, resources: {requests: {cpu: 250m}, limits: {cpu: 1, memory: 512Mi}}}\n"));
	t = task("ns", "p");
	/* containers: cpu 750m, memory 1.5Gi (c2's from its limit), gpu 1; + overhead */
	cr_assert_eq(res(t->req, "cpu"), 2000, "cpu: max(1000m, init 2)");
	cr_assert_eq(res(t->req, "memory"), 3LL << 30, "memory: max(1.5Gi + 100Mi, init 3Gi)");
	cr_assert_eq(res(t->req, "nvidia.com/gpu"), 1000);
	cr_assert_eq(res(t->req, "pods"), 1, "and the pod itself");
}

Test(manifest, pod_request_without_init_containers_is_containers_and_overhead)
{
	struct vs_task *t;

	ok(POD("ns", "p",
	       "spec:\n"
	       "  overhead: {cpu: 100m}\n"
	       "  containers:\n"
	       "  - {name: c1, resources: {requests: {cpu: 1}}}\n"
	       "  - {name: c2, resources: {requests: {cpu: 1, memory: 1Gi}}}\n"));
	t = task("ns", "p");
	cr_assert_eq(res(t->req, "cpu"), 2100);
	cr_assert_eq(res(t->req, "memory"), 1LL << 30);
}

Test(manifest, pod_request_takes_limits_where_requests_are_missing)
{
	struct vs_task *t;

	ok(POD("ns", "p",
	       "spec:\n"
	       "  containers:\n"
	       "  - {name: c1, resources: {limits: {cpu: 2, memory: 1Gi}, requests: {cpu: 0}}}\n"));
	t = task("ns", "p");
	cr_assert_eq(res(t->req, "cpu"), 0, "a request written stays, 0 too");
	cr_assert_eq(res(t->req, "memory"), 1LL << 30);
}

/* ---- pods without a PodGroup ---- */

Test(manifest, pod_without_group_gets_its_own_podgroup_as_volcano_names_it)
{
	struct vs_job *pg;

	ok("apiVersion: v1\nkind: Pod\n"
	   "metadata:\n"
	   "  name: p1\n"
	   "  namespace: ns\n"
	   "  uid: 11111111-2222-3333-4444-555555555555\n"
	   "  annotations: {scheduling.volcano.sh/queue-name: q1}\n"
	   "spec:\n"
	   "  priorityClassName: high\n"
	   "  containers: [{name: c, resources: {requests: {cpu: 1}}}]\n"
	   "---\n"
	   "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\n"
	   "value: 10\n");
	pg = vs_job_find(&set.cl, "ns", "podgroup-11111111-2222-3333-4444-555555555555");
	cr_assert_not_null(pg);
	cr_assert_eq(pg->min_member, 1);
	cr_assert_str_eq(pg->queue_name, "q1");
	cr_assert_str_eq(pg->priority_class, "high");
	cr_assert(pg->has_min_resources);
	cr_assert_eq(res(&pg->min_resources, "cpu"), 1000);
	cr_assert_eq(res(&pg->min_resources, "pods"), 1);
	/* sent in dependency order: the class, the PodGroup, the pod */
	cr_assert_eq(set.nr_objs, 3);
	cr_assert_eq(set.objs[0].kind, MF_PRIOCLASS);
	cr_assert_eq(set.objs[1].kind, MF_PODGROUP);
	cr_assert(set.objs[1].implicit);
	cr_assert_eq(set.objs[1].doc, set.objs[2].doc, "made for the pod's document");
	cr_assert_eq(set.objs[2].kind, MF_POD);
}

struct refusals {
	u32 nr;
	char msg[2][MF_ERR_MAX];
	const struct mf_doc *doc[2];
};

static void note_refused(void *arg, const struct mf_doc *doc, const char *msg)
{
	struct refusals *r = arg;

	cr_assert_lt(r->nr, 2, "a third refusal: %s", msg);
	snprintf(r->msg[r->nr], sizeof(r->msg[0]), "%s", msg);
	r->doc[r->nr++] = doc;
}

Test(manifest, keep_going_leaves_out_what_a_refused_document_made)
{
	struct refusals r = { 0 };
	static const char text[] =
		"apiVersion: v1\nkind: Node\nmetadata: {name: bad}\n"
		"status: {allocatable: {cpu: abc}}\n"
		"---\n"
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
		"status: {allocatable: {cpu: 4}}\n"
		"---\n"
		/* refused by the core after its PodGroup was made: a role no label takes */
		"apiVersion: v1\nkind: Pod\n"
		"metadata:\n"
		"  name: p1\n"
		"  namespace: ns\n"
		"  annotations: {volcano.sh/task-spec: 'not a label!'}\n"
		"  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: u-1, "
		"controller: true}]\n"
		"spec: {containers: [{name: c}]}\n"
		"---\n"
		"apiVersion: v1\nkind: Pod\n"
		"metadata:\n"
		"  name: p2\n"
		"  namespace: ns\n"
		"  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: u-1, "
		"controller: true}]\n"
		"spec: {containers: [{name: c}]}\n";

	cr_assert_eq(mf_set_init(&set), 0);
	set.offline = true;
	set.keep_going = true;
	set.refused = note_refused;
	set.warn_arg = &r;
	cr_assert_eq(mf_set_parse(&set, "m.yaml", text, strlen(text), &err), 0, "%s", err.msg);
	cr_assert_eq(mf_set_build(&set, &err), 0, "%s", err.msg);
	cr_assert_eq(r.nr, 2);
	cr_assert_str_eq(r.doc[0]->label, "document 1 (Node bad)");
	cr_assert(strstr(r.msg[0], "status.allocatable.cpu: invalid quantity \"abc\""), "%s",
		  r.msg[0]);
	cr_assert_str_eq(r.doc[1]->label, "document 3 (Pod ns/p1)");
	cr_assert(strstr(r.msg[1], "not a label!"), "%s", r.msg[1]);
	cr_assert_str_empty(err.msg, "the refusals were told, not kept");
	/* n1, then p2's PodGroup (made again for it, not the refused pod's), then p2 */
	cr_assert_eq(set.nr_objs, 3);
	cr_assert_str_eq(set.objs[0].name, "n1");
	cr_assert_eq(set.objs[1].kind, MF_PODGROUP);
	cr_assert_str_eq(set.objs[1].name, "podgroup-u-1");
	cr_assert_str_eq(set.objs[1].doc->label, "document 4 (Pod ns/p2)");
	cr_assert_str_eq(set.objs[2].name, "p2");
	cr_assert_null(vs_node_find(&set.cl, "bad"));
}

Test(manifest, pods_of_one_controller_share_a_podgroup)
{
	ok("apiVersion: v1\nkind: Pod\n"
	   "metadata:\n"
	   "  name: p1\n"
	   "  uid: aaa\n"
	   "  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: rs-uid, "
	   "controller: true}]\n"
	   "---\n"
	   "apiVersion: v1\nkind: Pod\n"
	   "metadata:\n"
	   "  name: p2\n"
	   "  uid: bbb\n"
	   "  ownerReferences: [{apiVersion: v1, kind: Other, name: o, uid: not-it}, "
	   "{kind: ReplicaSet, name: rs, uid: rs-uid, controller: true}]\n"
	   "---\n"
	   POD("default", "nameless-uid", ""));
	cr_assert_str_eq(task("default", "p1")->job->name, "podgroup-rs-uid");
	cr_assert_eq(task("default", "p2")->job, task("default", "p1")->job);
	cr_assert_eq(task("default", "p1")->job->nr_tasks, 2);
	/* without a UID, the core's podgroup controller's name */
	cr_assert_str_eq(task("default", "nameless-uid")->job->name, "podgroup-nameless-uid");
}

Test(manifest, pods_of_other_schedulers_count_only_on_their_node)
{
	ok("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
	   "---\n" POD("kube-system", "placed",
		       "  uid: u1\n"
		       "spec: {schedulerName: default-scheduler, nodeName: n1, "
		       "containers: [{name: c, resources: {requests: {cpu: 1}}}]}\n"
		       "status: {phase: Running}\n")
	   "---\n" POD("kube-system", "waiting", "spec: {schedulerName: default-scheduler}\n")
	   "---\n" POD("ns", "mine", "spec: {schedulerName: volcano}\n"));
	cr_assert_eq(task("kube-system", "placed")->status, VS_TASK_RUNNING);
	cr_assert_not(task("kube-system", "placed")->job->has_min_resources,
		      "a shadow PodGroup has no minResources");
	cr_assert_null(vs_task_find(&set.cl, "kube-system", "waiting"));
	for (u32 i = 0; i < set.nr_objs; i++) {
		if (set.objs[i].kind != MF_POD || strcmp(set.objs[i].name, "waiting"))
			continue;
		cr_assert_str_eq(set.objs[i].skipped, "another scheduler's, without a node");
		return;
	}
	cr_assert_fail("the skipped pod is not listed");
}

Test(manifest, pod_may_name_objects_the_daemon_has)
{
	ok(POD("ns", "p", "  annotations: {scheduling.k8s.io/group-name: remote-pg}\n"
	       "spec: {nodeName: remote-node}\nstatus: {phase: Running}\n"));
	cr_assert_str_eq(task("ns", "p")->job->name, "remote-pg");
	cr_assert_str_eq(task("ns", "p")->node->name, "remote-node");
	cr_assert_eq(set.nr_objs, 1, "only the pod is sent");
}

/* ---- documents, order, lists ---- */

Test(manifest, objects_go_in_dependency_order_whatever_the_file_order)
{
	static const enum mf_kind want[] = {
		MF_PRIOCLASS, MF_QUEUE, MF_NODE, MF_PODGROUP, MF_VJOB, MF_POD,
	};

	ok(POD("ns", "p", "  annotations: {scheduling.k8s.io/group-name: pg}\n")
	   "---\n"
	   "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\n"
	   "spec: {tasks: [{name: t, replicas: 1}]}\n"
	   "---\n"
	   "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
	   "metadata: {name: pg, namespace: ns}\n"
	   "---\n"
	   "apiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
	   "---\n"
	   "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\n"
	   "---\n"
	   "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: c}\n"
	   "value: 1\n");
	cr_assert_eq(set.nr_objs, ARRAY_SIZE(want));
	for (u32 i = 0; i < ARRAY_SIZE(want); i++)
		cr_assert_eq(set.objs[i].kind, want[i], "object %u", i);
	cr_assert_eq(set.objs[5].doc->index, 1);
	cr_assert_eq(set.objs[0].doc->index, 6);
	cr_assert_eq(set.objs[0].doc->line, 25);
}

Test(manifest, list_items_and_empty_documents)
{
	ok("---\n"
	   "# nothing here\n"
	   "---\n"
	   "apiVersion: v1\n"
	   "kind: List\n"
	   "items:\n"
	   "- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n"
	   "- {apiVersion: v1, kind: Node, metadata: {name: n2}}\n"
	   "---\n");
	cr_assert_eq(set.nr_objs, 2);
	cr_assert_str_eq(set.objs[1].doc->label, "document 2 items[1] (Node n2)");
	cr_assert_eq(set.objs[1].doc->line, 8);
}

Test(manifest, several_files_make_one_set)
{
	const char *a = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n";
	const char *b = POD("ns", "p", "spec: {nodeName: n1}\n");

	cr_assert_eq(mf_set_init(&set), 0);
	set.offline = true;
	cr_assert_eq(mf_set_parse(&set, "b.yaml", b, strlen(b), &err), 0, "%s", err.msg);
	cr_assert_eq(mf_set_parse(&set, "a.yaml", a, strlen(a), &err), 0, "%s", err.msg);
	cr_assert_eq(mf_set_build(&set, &err), 0, "%s", err.msg);
	cr_assert_eq(set.nr_objs, 3);
	cr_assert_str_eq(set.objs[0].doc->file, "a.yaml");
	cr_assert_eq(task("ns", "p")->status, VS_TASK_BOUND);
}

Test(manifest, messages_for_the_wire_are_the_core_fills)
{
	static unsigned char buf[8192];
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	ok("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
	   "---\n" POD("ns", "p", ""));
	nlh = mnl_nlmsg_put_header(buf);
	mnl_nlmsg_put_extra_header(nlh, GENL_HDRLEN);
	cr_assert(mf_put_key(&set.objs[2], nlh, sizeof(buf)));
	nest = mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN);
	cr_assert_eq(mnl_attr_get_type(nest), VS_A_TASK);
	cr_assert_eq(mnl_attr_get_payload_len(nest), 8 + 8, "namespace and name only");
	cr_assert_eq(mf_kind(MF_POD)->cmd_del, VS_CMD_TASK_DEL);
	nlh = mnl_nlmsg_put_header(buf);
	mnl_nlmsg_put_extra_header(nlh, GENL_HDRLEN);
	cr_assert(mf_put_spec(&set.objs[0], nlh, sizeof(buf)));
	cr_assert_not(mf_put_spec(&set.objs[0], nlh, nlh->nlmsg_len + 8), "no room: false");
}

/* ---- refusals ---- */

Test(manifest, bad_quantity_names_document_and_field)
{
	refused("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
		"---\n"
		POD("ns", "ok", "")
		"---\n"
		POD("ns", "p1",
		    "spec:\n"
		    "  containers:\n"
		    "  - name: c\n"
		    "    resources:\n"
		    "      requests:\n"
		    "        cpu: abc\n"),
		"m.yaml:21: document 3 (Pod ns/p1): spec.containers[0].resources.requests.cpu: "
		"invalid quantity \"abc\": no digits");
}

Test(manifest, bad_resource_name_and_type)
{
	refused(POD("ns", "p", "spec: {overhead: {cpu: [1]}}\n"),
		"m.yaml:6: document 1 (Pod ns/p): spec.overhead.cpu must be a quantity, not a list");
	mf_set_free(&set);
	refused("apiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
		"status: {allocatable: {example.com/x y: 1}}\n",
		"m.yaml:4: document 1 (Node n0): status.allocatable[example.com/x y]: "
		"invalid resource name \"example.com/x y\": invalid character ' '");
}

Test(manifest, unknown_kind_and_api_version)
{
	refused("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n",
		"m.yaml:1: document 1: kind Deployment (apps/v1) is not one vsctl apply takes: "
		"PriorityClass, Queue, Node, PodGroup, Job, Pod, List");
	mf_set_free(&set);
	refused("apiVersion: scheduling.volcano.sh/v1alpha1\nkind: Queue\nmetadata: {name: q}\n",
		"m.yaml:1: document 1: apiVersion scheduling.volcano.sh/v1alpha1: vsctl apply takes "
		"Queue of scheduling.volcano.sh/v1beta1");
}

Test(manifest, missing_api_version_kind_and_name)
{
	refused("kind: Node\nmetadata: {name: n0}\n",
		"m.yaml:1: document 1: apiVersion: required");
	mf_set_free(&set);
	refused("apiVersion: v1\nmetadata: {name: n0}\n", "m.yaml:1: document 1: kind: required");
	mf_set_free(&set);
	refused("apiVersion: v1\nkind: 3\n", "m.yaml:2: document 1: kind: must be a string");
	mf_set_free(&set);
	refused("apiVersion: v1\nkind: Node\nmetadata: {labels: {a: b}}\n",
		"m.yaml:1: document 1 (Node): metadata.name: required");
	mf_set_free(&set);
	refused("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: c}\n",
		"m.yaml:1: document 1 (PriorityClass c): value: required");
	mf_set_free(&set);
	refused("- a\n- b\n", "m.yaml:1: document 1: a manifest must be a mapping, not a list");
	mf_set_free(&set);
	refused("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {}}\n",
		"m.yaml:4: document 1 items[0] (Pod): metadata.name: required");
}

Test(manifest, wrong_types_are_refused_with_their_path)
{
	refused(POD("ns", "p", "spec: {priority: high}\n"),
		"m.yaml:6: document 1 (Pod ns/p): spec.priority must be an integer, not a string");
	mf_set_free(&set);
	refused(POD("ns", "p", "spec: {containers: {name: c}}\n"),
		"m.yaml:6: document 1 (Pod ns/p): spec.containers must be a list, not a mapping");
	mf_set_free(&set);
	refused(POD("ns", "p", "  labels: {on: yes}\n"),
		"m.yaml:6: document 1 (Pod ns/p): metadata.labels.on must be a string, not a "
		"boolean");
	mf_set_free(&set);
	refused("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
		"metadata: {name: pg}\nspec: {minMember: -1}\n",
		"m.yaml:4: document 1 (PodGroup default/pg): spec.minMember must be between 0 and "
		"2147483647");
	mf_set_free(&set);
	refused("apiVersion: v1\nkind: Node\nmetadata: {name: n0}\nspec: [a]\n",
		"m.yaml:4: document 1 (Node n0): spec must be a mapping, not a list");
}

Test(manifest, closed_structures_refuse_unknown_fields)
{
	refused(POD("ns", "p", "spec:\n  tolerations:\n  - {key: a, operatr: Exists}\n"),
		"m.yaml:8: document 1 (Pod ns/p): spec.tolerations[0].operatr: unknown field "
		"(known: key, operator, value, effect, tolerationSeconds)");
	mf_set_free(&set);
	refused(POD("ns", "p", "spec:\n  containers:\n  - {name: c, resources: {request: {}}}\n"),
		"m.yaml:8: document 1 (Pod ns/p): spec.containers[0].resources.request: unknown "
		"field (known: requests, limits, claims)");
	mf_set_free(&set);
	refused("apiVersion: v1\nkind: Node\nmetadata: {name: n0}\nsepc: {}\n",
		"m.yaml:4: document 1 (Node n0): sepc: unknown field (known: apiVersion, kind, "
		"metadata, spec, status)");
}

Test(manifest, bad_enums_are_refused_with_the_names_known)
{
	refused(POD("ns", "p", "status: {phase: Runing}\n"),
		"m.yaml:6: document 1 (Pod ns/p): status.phase: unknown pod phase \"Runing\" "
		"(known: Pending, Running, Succeeded, Failed, Unknown)");
	mf_set_free(&set);
	refused("apiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
		"spec: {taints: [{key: k, effect: NoScheduel}]}\n",
		"m.yaml:4: document 1 (Node n0): spec.taints[0].effect: unknown taint effect "
		"\"NoScheduel\" (NoSchedule, PreferNoSchedule or NoExecute)");
	mf_set_free(&set);
	refused(POD("ns", "p", "spec:\n  affinity:\n    nodeAffinity:\n"
		    "      requiredDuringSchedulingIgnoredDuringExecution:\n"
		    "        nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Inn}]}]\n"),
		"m.yaml:10: document 1 (Pod ns/p): spec.affinity.nodeAffinity."
		"requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]."
		"matchExpressions[0].operator: unknown operator \"Inn\" (In, NotIn, Exists, "
		"DoesNotExist, Gt or Lt)");
}

Test(manifest, pod_rules_refuse_what_kubernetes_would_not_have)
{
	refused(POD("ns", "p", "status: {phase: Running}\n"),
		"m.yaml:1: document 1 (Pod ns/p): status.phase: a Running pod needs spec.nodeName");
	mf_set_free(&set);
	refused(POD("ns", "p", "  annotations: {volcano.sh/preemptable: maybe}\n"),
		"m.yaml:1: document 1 (Pod ns/p): metadata.annotations[volcano.sh/preemptable]: "
		"\"maybe\" is not a boolean");
	mf_set_free(&set);
	cr_assert_neq(load_online(POD("ns", "p", "spec: {priorityClassName: nosuch}\n"), false),
		      0);
	cr_assert_str_eq(err.msg, "m.yaml:1: document 1 (Pod ns/p): spec.priorityClassName: no "
			 "PriorityClass \"nosuch\", in the manifests or in vschedd");
}

static char warned[MF_ERR_MAX];

static void on_warn(void *arg, const char *msg)
{
	snprintf(warned, sizeof(warned), "%s", msg);
}

Test(manifest, unknown_priority_class_offline_is_a_warning)
{
	cr_assert_eq(mf_set_init(&set), 0);
	set.offline = true;
	set.warn = on_warn;
	cr_assert_eq(mf_set_parse(&set, "m.yaml", POD("ns", "p", "spec: {priorityClassName: x}\n"),
				  strlen(POD("ns", "p", "spec: {priorityClassName: x}\n")), &err), 0);
	cr_assert_eq(mf_set_build(&set, &err), 0, "%s", err.msg);
	cr_assert_str_eq(warned, "m.yaml:1: document 1 (Pod ns/p): spec.priorityClassName: "
			 "PriorityClass \"x\" is not in the manifests, and vschedd is not asked: "
			 "priority 0 assumed");
	cr_assert_eq(task("ns", "p")->priority, 0);
}

Test(manifest, duplicates_are_refused_by_the_core_or_named)
{
	refused("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
		"---\n"
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n",
		"m.yaml:5: document 2 (Node n1): node n1 already exists");
	mf_set_free(&set);
	refused("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: c}\n"
		"value: 1\n---\n"
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: c}\n"
		"value: 2\n",
		"m.yaml:6: document 2 (PriorityClass c): priority class c is also document 1 "
		"(PriorityClass c)");
}

Test(manifest, node_ready_condition_must_be_a_condition_status)
{
	refused("apiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
		"status: {conditions: [{type: Ready, status: Maybe}]}\n",
		"m.yaml:1: document 1 (Node n0): status.conditions[0].status: \"Maybe\" is not True, "
		"False or Unknown");
}

Test(manifest, volcano_job_refusals)
{
#define VJOB(rest) "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\n" rest
	refused(VJOB("spec:\n  policies:\n  - {event: PodFailed}\n"
		     "  tasks: [{name: t, replicas: 1}]\n"),
		"m.yaml:6: document 1 (Job default/j): spec.policies[0].action: required");
	mf_set_free(&set);
	refused(VJOB("spec:\n  policies:\n  - {event: PodFailed, exitCode: 1, action: AbortJob}\n"),
		"m.yaml:6: document 1 (Job default/j): spec.policies[0]: a policy takes an event "
		"(or events) or an exitCode, one of the two");
	mf_set_free(&set);
	refused(VJOB("spec:\n  policies:\n  - {event: PodFailed, action: AbortJob, timeout: 1m}\n"),
		"m.yaml:6: document 1 (Job default/j): spec.policies[0].timeout: not supported by "
		"vsched");
	mf_set_free(&set);
	refused(VJOB("spec:\n  tasks:\n  - name: t\n    replicas: 1\n"
		     "    template: {spec: {affinity: {}}}\n"),
		"m.yaml:8: document 1 (Job default/j): spec.tasks[0].template.spec.affinity: not "
		"supported by vsched");
	mf_set_free(&set);
	refused(VJOB("spec:\n  policies:\n  - {event: PodFaild, action: AbortJob}\n"
		     "  tasks: [{name: t, replicas: 1}]\n"),
		"m.yaml:1: document 1 (Job default/j): spec.policies[0].event: unknown job event "
		"\"PodFaild\" (one of: *, PodFailed, PodEvicted, PodPending, PodRunning, Unknown, "
		"TaskCompleted, TaskFailed, OutOfSync, CommandIssued, JobUpdated)");
	mf_set_free(&set);
	refused(VJOB("spec: {tasks: []}\n"),
		"m.yaml:1: document 1 (Job default/j): job default/j: no tasks specified");
#undef VJOB
}

Test(manifest, yaml_errors_name_their_line_in_the_file)
{
	refused("apiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: Node\n"
		"metadata: {name: m, name: o}\n",
		"m.yaml:7: duplicate key \"name\" (first on line 7)");
	mf_set_free(&set);
	refused("apiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: [Node\n",
		"m.yaml:7:1: did not find expected ',' or ']' (while parsing a flow sequence on "
		"line 6)");
}

/*
 * A document nested 200,000 levels deep in flow style is refused at the
 * readers' depth limit as soon as it gets there: libyaml's scanner is
 * quadratic in the depth of flow collections, and a walk to the end of the
 * file took over a minute (the timeout stands for that).
 */
Test(manifest, a_deep_document_is_refused_at_the_depth_limit, .timeout = 10)
{
	static const char head[] = "apiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
				   "---\n"
				   "apiVersion: v1\nkind: Node\nmetadata: ";
	const size_t depth = 200000, hlen = strlen(head);
	char *text = malloc(hlen + 2 * depth + 2);

	cr_assert_not_null(text);
	memcpy(text, head, hlen);
	memset(text + hlen, '[', depth);
	memset(text + hlen + depth, ']', depth);
	strcpy(text + hlen + 2 * depth, "\n");
	refused(text, "m.yaml:7: nested more than 64 levels deep");
	free(text);
}
