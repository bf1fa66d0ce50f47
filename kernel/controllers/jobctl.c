// SPDX-License-Identifier: Apache-2.0
/*
 * The job controller's operations (Volcano's job_controller_actions.go and
 * job_controller_util.go): the PodGroup of a VolcanoJob, the tasks made
 * from the templates, SyncJob, KillJob and KillTarget, the events that task
 * changes raise, commands, admission and deletion. The state table that
 * picks the operations is jobstate.c, the policies jobpolicy.c, the
 * PodGroup's minResources jobres.c.
 *
 * Every task in a VolcanoJob's PodGroup is the job's: only this controller
 * adds tasks to it (vs_ctl_task_add() refuses others), so the counts by
 * status are read from the PodGroup's index in O(1) when no replica is
 * missing, and the replicas are walked one by one only when one is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controllers/jobstate.h"
#include "controllers/qctl.h"
#include "core/log.h"
#include "core/names.h"
#include "core/txn.h"

/* "<job>-<task>-<index>": a DNS subdomain, a DNS label, a u32, two dashes. */
#define POD_NAME_BUF	(VS_DNS_SUBDOMAIN_MAX + VS_DNS_LABEL_MAX + 16)

static void pod_name(char *buf, const struct vs_vjob *vjob, const char *task, u32 idx)
{
	snprintf(buf, POD_NAME_BUF, "%s-%s-%u", vjob->name, task, idx);
}

/* ---- tasks as Volcano sees pods ---- */

/* The pod phase of a task; a Releasing task is a pod being deleted. */
enum pod_phase {
	PP_PENDING,
	PP_RUNNING,
	PP_SUCCEEDED,
	PP_FAILED,
	PP_UNKNOWN,
	PP_TERMINATING,
};

static enum pod_phase pod_phase(enum vs_task_status s)
{
	switch (s) {
	case VS_TASK_RUNNING:
		return PP_RUNNING;
	case VS_TASK_RELEASING:
		return PP_TERMINATING;
	case VS_TASK_SUCCEEDED:
		return PP_SUCCEEDED;
	case VS_TASK_FAILED:
		return PP_FAILED;
	case VS_TASK_UNKNOWN:
		return PP_UNKNOWN;
	default:
		/* Pending, Allocated, Pipelined, Binding, Bound: the pod is Pending */
		return PP_PENDING;
	}
}

static void count(struct vs_vjob_status *s, enum pod_phase p, u32 n)
{
	switch (p) {
	case PP_PENDING:
		s->pending += n;
		break;
	case PP_RUNNING:
		s->running += n;
		break;
	case PP_SUCCEEDED:
		s->succeeded += n;
		break;
	case PP_FAILED:
		s->failed += n;
		break;
	case PP_UNKNOWN:
		s->unknown += n;
		break;
	case PP_TERMINATING:
		s->terminating += n;
		break;
	}
}

static enum pod_phase kept_phase(u8 kept)
{
	return kept == VS_VJOB_KEPT_SUCCEEDED ? PP_SUCCEEDED : PP_FAILED;
}

/* The status a replica is made in: Pending, or the one a kill kept. */
static enum vs_task_status kept_status(u8 kept)
{
	switch (kept) {
	case VS_VJOB_KEPT_SUCCEEDED:
		return VS_TASK_SUCCEEDED;
	case VS_VJOB_KEPT_FAILED:
		return VS_TASK_FAILED;
	default:
		return VS_TASK_PENDING;
	}
}

/* The task group named @name (any string), or NULL. */
static struct vs_vjob_task *vtask_by_name(const struct vs_vjob *vjob, const char *name)
{
	for (u32 i = 0; name && i < vjob->nr_tasks; i++)
		if (!strcmp(vjob->tasks[i].name, name))
			return &vjob->tasks[i];
	return NULL;
}

/* The task group whose name is the interned role @role, or NULL. */
static struct vs_vjob_task *vtask_of_role(const struct vs_vjob *vjob, const char *role)
{
	for (u32 i = 0; i < vjob->nr_tasks; i++)
		if (vjob->tasks[i].name == role)
			return &vjob->tasks[i];
	return NULL;
}

/* The replica index @name has in group @vt ("<job>-<vt>-<i>"), or -1. */
static s64 replica_of(const struct vs_vjob *vjob, const struct vs_vjob_task *vt,
		      const char *name)
{
	char buf[POD_NAME_BUF];
	s64 idx = vs_task_name_index(name);

	if (idx < 0 || idx >= vt->replicas)
		return -1;
	pod_name(buf, vjob, vt->name, (u32)idx);
	return strcmp(buf, name) ? -1 : idx;
}

/* Is @task replica *@idx of group *@vtp of @vjob? */
static bool task_slot(const struct vs_vjob *vjob, const struct vs_task *task,
		      struct vs_vjob_task **vtp, u32 *idx)
{
	struct vs_vjob_task *vt = vtask_of_role(vjob, task->role);
	s64 i;

	if (!vt || (i = replica_of(vjob, vt, task->name)) < 0)
		return false;
	*vtp = vt;
	*idx = (u32)i;
	return true;
}

/* Records of finished replicas (of @only, or of every group). */
static void kept_count(const struct vs_vjob *vjob, const struct vs_vjob_task *only,
		       u32 *succeeded, u32 *failed)
{
	*succeeded = *failed = 0;
	for (u32 t = 0; t < vjob->nr_tasks; t++) {
		const struct vs_vjob_task *vt = &vjob->tasks[t];

		if (!vt->kept || (only && only != vt))
			continue;
		for (u32 i = 0; i < vt->replicas; i++) {
			*succeeded += vt->kept[i] == VS_VJOB_KEPT_SUCCEEDED;
			*failed += vt->kept[i] == VS_VJOB_KEPT_FAILED;
		}
	}
}

u32 vs_jc_task_succeeded(const struct vs_vjob *vjob, const struct vs_vjob_task *vt, bool *seen)
{
	const struct vs_task *task;
	u32 ok, failed;

	kept_count(vjob, vt, &ok, &failed);
	*seen = ok || failed;
	if (!vjob->podgroup)
		return ok;
	list_for_each_entry(task, &vjob->podgroup->tasks, job_node) {
		if (task->role != vt->name || pod_phase(task->status) == PP_TERMINATING)
			continue;
		*seen = true;
		ok += task->status == VS_TASK_SUCCEEDED;
	}
	return ok;
}

/* Volcano's TaskCompleted: every replica of @vt succeeded. */
static bool task_completed(const struct vs_vjob *vjob, const struct vs_vjob_task *vt)
{
	const struct vs_job *pg = vjob->podgroup;
	const struct vs_task *task;
	u32 ok, failed;

	kept_count(vjob, vt, &ok, &failed);
	/* cheap refusal first: the job has not that many successes at all */
	if (!pg || ok + pg->nr_by_status[VS_TASK_SUCCEEDED] < vt->replicas)
		return false;
	list_for_each_entry(task, &pg->by_status[VS_TASK_SUCCEEDED], status_node)
		if (task->role == vt->name && ++ok >= vt->replicas)
			return true;
	return ok >= vt->replicas;
}

/* ---- the status ---- */

static void status_of(const struct vs_vjob *vjob, struct vs_jc_status *st)
{
	st->phase = vjob->phase;
	st->retry_count = vjob->retry_count;
	st->s = vjob->status;
}

/* The counters an operation computes afresh (min_available and version stay). */
static void status_recount(struct vs_jc_status *st)
{
	st->s.pending = 0;
	st->s.running = 0;
	st->s.succeeded = 0;
	st->s.failed = 0;
	st->s.terminating = 0;
	st->s.unknown = 0;
}

static void status_write(struct vs_ctl *ctl, struct vs_vjob *vjob, const struct vs_jc_status *st)
{
	enum vs_vjob_phase old = vjob->phase;

	if (old == st->phase && vjob->retry_count == st->retry_count &&
	    !memcmp(&vjob->status, &st->s, sizeof(st->s)))
		return;
	vs_vjob_journal(ctl->cl, vjob);
	vjob->phase = st->phase;
	vjob->retry_count = st->retry_count;
	vjob->status = st->s;
	if (old != st->phase)
		vs_v(2, "Job <%s/%s> is %s, was %s (retries %u)", vjob->ns, vjob->name,
		     vs_vjob_phase_name(st->phase), vs_vjob_phase_name(old), st->retry_count);
	vs_ctl_vjob_changed(ctl, vjob, old);
}

/* ---- the PodGroup ---- */

/* The pod labels Volcano's job controller groups a partitioned task's pods by. */
#define TASK_SPEC_KEY		"volcano.sh/task-spec"
#define PARTITION_ID_KEY	"volcano.sh/partition-id"

static const char *const partition_keys[] = { PARTITION_ID_KEY };

/* What the job's PodGroup should be (createOrUpdatePodGroup). */
struct pg_want {
	struct vs_job_spec spec;
	struct vs_role_min_spec *roles;
	struct vs_subgroup_policy_spec *sg;
	struct vs_label_selector_spec *sel;
	struct vs_kv_spec *kv;
};

static void pg_want_free(struct pg_want *w)
{
	free(w->roles);
	free(w->sg);
	free(w->sel);
	free(w->kv);
}

/*
 * A partitioned task's sub-group policy, as Volcano's getSubGroupPolicy
 * (pkg/controllers/job/job_controller_actions.go) makes it: the task's
 * name, its partitionSize and minPartitions, its pods by their
 * volcano.sh/task-spec label, grouped by volcano.sh/partition-id, within
 * the partition's networkTopology.
 */
static void subgroup_of(const struct vs_vjob_task *vt, struct vs_subgroup_policy_spec *sg,
			struct vs_label_selector_spec *sel, struct vs_kv_spec *kv)
{
	*kv = (struct vs_kv_spec){ TASK_SPEC_KEY, vt->name };
	*sel = (struct vs_label_selector_spec){ .match_labels = kv, .nr_match_labels = 1 };
	*sg = (struct vs_subgroup_policy_spec){
		.name = vt->name,
		.sub_group_size = vt->partition.size,
		.min_sub_groups = vt->partition.min,
		.selector = sel,
		.match_label_keys = partition_keys,
		.nr_match_label_keys = ARRAY_SIZE(partition_keys),
	};
	vs_net_topology_spec_of(&vt->partition.nt, &sg->nt);
}

static int pg_want_build(const struct vs_vjob *vjob, struct pg_want *w)
{
	u32 nr_sg = 0;

	memset(w, 0, sizeof(*w));
	w->roles = calloc(vjob->nr_tasks, sizeof(*w->roles));
	w->sg = calloc(vjob->nr_tasks, sizeof(*w->sg));
	w->sel = calloc(vjob->nr_tasks, sizeof(*w->sel));
	w->kv = calloc(vjob->nr_tasks, sizeof(*w->kv));
	if (!w->roles || !w->sg || !w->sel || !w->kv) {
		pg_want_free(w);
		return -ENOMEM;
	}
	vs_job_spec_init(&w->spec, vjob->ns, vs_jobctl_podgroup_name(vjob));
	w->spec.queue = vjob->queue_name;
	w->spec.min_member = vjob->min_available;
	for (u32 i = 0; i < vjob->nr_tasks; i++) {
		w->roles[i].role = vjob->tasks[i].name;
		w->roles[i].min = vjob->tasks[i].min_available;
	}
	w->spec.min_task_member = w->roles;
	w->spec.nr_min_task_member = vjob->nr_tasks;
	vs_jobctl_min_resources(vjob, NULL, &w->spec.min_resources);
	w->spec.has_min_resources = true;
	w->spec.priority_class = vjob->priority_class;
	/*
	 * createOrUpdatePodGroup: the job's networkTopology (highestTierAllowed
	 * before highestTierName; the webhook lets only one be set) and
	 * setPgSubGroupPolicy: a policy per partitioned task, in task order.
	 */
	vs_net_topology_spec_of(&vjob->net_topology, &w->spec.net_topology);
	for (u32 i = 0; i < vjob->nr_tasks; i++)
		if (vjob->tasks[i].has_partition) {
			subgroup_of(&vjob->tasks[i], &w->sg[nr_sg], &w->sel[nr_sg], &w->kv[nr_sg]);
			nr_sg++;
		}
	w->spec.subgroups = w->sg;
	w->spec.nr_subgroups = nr_sg;
	return 0;
}

static bool nt_same(const struct vs_net_topology *a, const struct vs_net_topology_spec *b)
{
	if (a->set != b->set)
		return false;
	return !a->set || (a->mode == b->mode && a->has_highest_tier == b->has_highest_tier &&
			   a->highest_tier == b->highest_tier &&
			   a->highest_tier_name == b->highest_tier_name);
}

/* Is the PodGroup's policy @p the one subgroup_of() makes? (Both hold interned strings.) */
static bool subgroup_same(const struct vs_subgroup_policy *p,
			  const struct vs_subgroup_policy_spec *want)
{
	const struct vs_label_selector *sel = p->selector;

	return p->sub_group_size == want->sub_group_size &&
	       p->min_sub_groups == want->min_sub_groups && nt_same(&p->nt, &want->nt) &&
	       sel && !sel->nr_exprs && sel->match_labels && sel->match_labels->nr == 1 &&
	       !strcmp(sel->match_labels->kv[0].key, TASK_SPEC_KEY) &&
	       sel->match_labels->kv[0].value == want->name &&
	       p->nr_match_label_keys == 1 && !strcmp(p->match_label_keys[0], PARTITION_ID_KEY);
}

/*
 * updatePgSubGroupPolicy: the PodGroup's policies change (to the job's,
 * whole) when a task without a partitionPolicy has a policy of its name,
 * or a partitioned task's policy is missing or not what it should be; a
 * policy no task names is left alone. Of policies of one name, the last
 * counts, as in Volcano's map of them.
 */
static bool subgroups_differ(const struct vs_job *pg, const struct vs_vjob *vjob,
			     const struct vs_job_spec *want)
{
	u32 w = 0;

	for (u32 i = 0; i < vjob->nr_tasks; i++) {
		const struct vs_vjob_task *vt = &vjob->tasks[i];
		const struct vs_subgroup_policy *old = NULL;

		for (u32 k = 0; k < pg->nr_subgroups; k++)
			if (pg->subgroups[k].name == vt->name)
				old = &pg->subgroups[k];
		if (!vt->has_partition) {
			if (old)
				return true;
			continue;
		}
		if (!old || !subgroup_same(old, &want->subgroups[w]))
			return true;
		w++;
	}
	return false;
}

/* shouldUpdateExistingPodGroup: does @pg differ from what the job wants? */
static bool pg_differs(const struct vs_job *pg, const struct vs_job_spec *spec)
{
	const struct vs_res *a = &pg->min_resources, *b = &spec->min_resources;

	if (pg->min_member != spec->min_member || pg->priority_class != spec->priority_class ||
	    !pg->has_min_resources || a->present != b->present ||
	    memcmp(a->v, b->v, sizeof(a->v)) || pg->nr_min_task_member != spec->nr_min_task_member)
		return true;
	/* both role lists hold interned names */
	for (u32 i = 0; i < spec->nr_min_task_member; i++)
		if (vs_job_role_min(pg, spec->min_task_member[i].role) !=
		    spec->min_task_member[i].min)
			return true;
	return false;
}

/*
 * Make the job's PodGroup, or adopt one of its name that no VolcanoJob owns
 * (as Volcano finds a PodGroup named like the job), and keep its spec.
 * *@adopted says the PodGroup's tasks must be looked at one by one.
 */
static int ensure_podgroup(struct vs_ctl *ctl, struct vs_vjob *vjob, struct vs_queue *queue,
			   bool *adopted, struct vs_err *err)
{
	struct vs_job *pg = vjob->podgroup;
	struct vs_arena arena;
	struct pg_want w;
	bool sg_differ;
	int ret;

	*adopted = false;
	if (!pg) {
		pg = vs_job_find(ctl->cl, vjob->ns, vs_jobctl_podgroup_name(vjob));
		if (pg && pg->vjob)
			return vs_err_set(err, EEXIST, "podgroup %s/%s belongs to another job",
					  pg->ns, pg->name);
		if (pg) {
			vs_vjob_link(ctl->cl, vjob, pg);
			*adopted = true;
			vs_v(3, "Job <%s/%s> takes the existing PodGroup <%s>", vjob->ns,
			     vjob->name, pg->name);
		}
	}
	if (pg_want_build(vjob, &w))
		return vs_err_set(err, ENOMEM, "out of memory");
	if (!pg) {
		/* the PodGroup admission webhook */
		ret = vs_qctl_admit_podgroup(ctl, queue->name, err);
		if (!ret)
			ret = vs_job_add(ctl->cl, &w.spec, &pg, err);
		if (ret)
			goto out;
		vs_vjob_link(ctl->cl, vjob, pg);
		vs_v(3, "Created PodGroup <%s/%s> for Job <%s/%s>", pg->ns, pg->name, vjob->ns,
		     vjob->name);
		vs_ctl_podgroup_added(ctl, pg);
	} else if ((sg_differ = subgroups_differ(pg, vjob, &w.spec)) || pg_differs(pg, &w.spec)) {
		/*
		 * The queue and the phase are not the job controller's to
		 * change, nor the PodGroup's volcano.sh/preemptable (its
		 * metadata, which the update leaves).
		 */
		w.spec.queue = pg->queue_name;
		w.spec.phase = pg->phase;
		w.spec.preemptable = (enum vs_pg_preemptable)pg->preemptable;
		/*
		 * Nor, once the PodGroup is there, its networkTopology
		 * (shouldUpdateExistingPodGroup leaves it), nor its
		 * policies unless one of the job's differs.
		 */
		vs_net_topology_spec_of(&pg->net_topology, &w.spec.net_topology);
		vs_arena_init(&arena, 4096);
		ret = 0;
		if (!sg_differ) {
			w.spec.nr_subgroups = pg->nr_subgroups;
			if (vs_subgroups_spec_of(pg->subgroups, pg->nr_subgroups, &arena,
						 &w.spec.subgroups))
				ret = vs_err_set(err, ENOMEM, "out of memory");
		}
		if (!ret)
			ret = vs_job_update(ctl->cl, pg, &w.spec, err);
		vs_arena_destroy(&arena);
	} else {
		ret = 0;
	}
out:
	pg_want_free(&w);
	return ret;
}

/*
 * The PodGroup goes (a kill of the whole job). The finished tasks the kill
 * kept go with it, as they must belong to a PodGroup, and are remembered in
 * their group's kept[]: counted as finished while the job has no PodGroup
 * that left Pending, and made again in their status, not run again, by the
 * SyncJob that makes the job's tasks.
 */
static void remove_podgroup(struct vs_ctl *ctl, struct vs_vjob *vjob)
{
	struct vs_job *pg = vjob->podgroup;
	struct vs_task *task, *tmp;

	vs_vjob_journal(ctl->cl, vjob);		/* its kept replicas */
	list_for_each_entry_safe(task, tmp, &pg->tasks, job_node) {
		struct vs_vjob_task *vt;
		enum pod_phase p = pod_phase(task->status);
		u32 idx;

		if ((p == PP_SUCCEEDED || p == PP_FAILED) && task_slot(vjob, task, &vt, &idx)) {
			if (!vt->kept)
				vt->kept = calloc(vt->replicas, sizeof(*vt->kept));
			if (vt->kept)
				vt->kept[idx] = p == PP_SUCCEEDED ? VS_VJOB_KEPT_SUCCEEDED :
								    VS_VJOB_KEPT_FAILED;
			else
				vs_error("Job <%s/%s>: out of memory: task %s will run again",
					 vjob->ns, vjob->name, task->name);
		}
		vs_ctl_task_remove(ctl, task);
	}
	vs_ctl_podgroup_remove(ctl, pg);
}

/* ---- making tasks ---- */

static const char *const volcano_label_keys[] = {
	"volcano.sh/job-name",
	"volcano.sh/job-namespace",
	"volcano.sh/queue-name",
	"volcano.sh/task-spec",
	"volcano.sh/task-index",
};

/* A group's pod template as task spec arrays, made once per sync. */
struct tpl {
	struct vs_kv_spec *labels;
	u32 nr_labels;
	struct vs_kv_spec *selector;
	u32 nr_selector;
	struct vs_toleration_spec *tols;
	u32 nr_tols;
	struct vs_host_port_spec *ports;
	u32 nr_ports;
	char index[12];			/* the volcano.sh/task-index value */
	char partition[12];		/* volcano.sh/partition-id's, a partitioned task's */
	bool built;
};

static void tpl_free(struct tpl *t)
{
	free(t->labels);
	free(t->selector);
	free(t->tols);
	free(t->ports);
	memset(t, 0, sizeof(*t));
}

static bool volcano_key(const char *key)
{
	for (u32 i = 0; i < ARRAY_SIZE(volcano_label_keys); i++)
		if (!strcmp(key, volcano_label_keys[i]))
			return true;
	return false;
}

/*
 * The template's labels, then (replacing any of the same key) Volcano's,
 * and a partitioned task's volcano.sh/partition-id (createJobPod).
 */
static int tpl_build(const struct vs_vjob *vjob, const struct vs_vjob_task *vt, struct tpl *t)
{
	u32 nl = vs_labels_count(vt->labels), ns = vs_labels_count(vt->node_selector);
	u32 nt = vt->tolerations ? vt->tolerations->nr : 0;
	u32 np = vt->ports ? vt->ports->nr : 0;
	const char *values[ARRAY_SIZE(volcano_label_keys)] = {
		vjob->name, vjob->ns, vjob->queue_name, vt->name, t->index,
	};

	t->labels = calloc(nl + ARRAY_SIZE(volcano_label_keys) + 1, sizeof(*t->labels));
	t->selector = ns ? calloc(ns, sizeof(*t->selector)) : NULL;
	t->tols = nt ? calloc(nt, sizeof(*t->tols)) : NULL;
	t->ports = np ? calloc(np, sizeof(*t->ports)) : NULL;
	if (!t->labels || (ns && !t->selector) || (nt && !t->tols) || (np && !t->ports)) {
		tpl_free(t);
		return -ENOMEM;
	}
	for (u32 i = 0; i < nl; i++)
		if (!volcano_key(vt->labels->kv[i].key) &&
		    !(vt->has_partition && !strcmp(vt->labels->kv[i].key, PARTITION_ID_KEY)))
			t->labels[t->nr_labels++] = (struct vs_kv_spec){
				vt->labels->kv[i].key, vt->labels->kv[i].value };
	for (u32 i = 0; i < ARRAY_SIZE(volcano_label_keys); i++)
		t->labels[t->nr_labels++] = (struct vs_kv_spec){ volcano_label_keys[i], values[i] };
	if (vt->has_partition)
		t->labels[t->nr_labels++] = (struct vs_kv_spec){ PARTITION_ID_KEY, t->partition };
	for (u32 i = 0; i < ns; i++)
		t->selector[i] = (struct vs_kv_spec){ vt->node_selector->kv[i].key,
						      vt->node_selector->kv[i].value };
	t->nr_selector = ns;
	for (u32 i = 0; i < nt; i++) {
		const struct vs_toleration *tol = &vt->tolerations->t[i];

		t->tols[i] = (struct vs_toleration_spec){
			.key = tol->key, .op = tol->op, .value = tol->value,
			.effect = tol->effect, .has_seconds = tol->has_seconds,
			.seconds = tol->seconds,
		};
	}
	t->nr_tols = nt;
	for (u32 i = 0; i < np; i++) {
		const struct vs_host_port *hp = &vt->ports->p[i];

		t->ports[i] = (struct vs_host_port_spec){
			.port = hp->port, .protocol = (enum vs_port_protocol)hp->protocol,
			.ip = hp->ip,
		};
	}
	t->nr_ports = np;
	t->built = true;
	return 0;
}

/* What Kubernetes' priority admission gives the job's pods. */
struct prio {
	bool resolved;
	s32 value;
	enum vs_preemption_policy policy;
};

static int prio_resolve(struct vs_cluster *cl, const struct vs_vjob *vjob, struct prio *p,
			struct vs_err *err)
{
	const struct vs_prioclass *pc;

	if (p->resolved)
		return 0;
	if (vjob->priority_class) {
		pc = vs_prioclass_find(cl, vjob->priority_class);
		if (!pc)
			return vs_err_set(err, ENOENT, "no PriorityClass with name %s was found",
					  vjob->priority_class);
	} else {
		pc = vs_prioclass_default(cl);
	}
	p->value = pc ? pc->value : 0;
	p->policy = pc ? pc->preemption_policy : VS_PREEMPT_LOWER_PRIORITY;
	p->resolved = true;
	return 0;
}

/*
 * Make replica @idx of @vt in the job's PodGroup: Pending, or, for a
 * finished replica a kill kept (@status Succeeded or Failed), that status on
 * no node, holding nothing.
 */
static int create_task(struct vs_ctl *ctl, struct vs_vjob *vjob, const struct vs_vjob_task *vt,
		       u32 idx, const char *name, enum vs_task_status status, struct tpl *t,
		       const struct prio *p, struct vs_err *err)
{
	struct vs_task_spec spec;
	struct vs_task *task;
	int ret;

	snprintf(t->index, sizeof(t->index), "%u", idx);
	/* replica idx is in partition idx / partitionSize */
	if (vt->has_partition)
		snprintf(t->partition, sizeof(t->partition), "%u", idx / vt->partition.size);
	vs_task_spec_init(&spec, vjob->ns, name, vjob->podgroup->name);
	spec.role = vt->name;
	spec.status = status;
	spec.req = vt->req;
	spec.labels = t->labels;
	spec.nr_labels = t->nr_labels;
	spec.node_selector = t->selector;
	spec.nr_node_selector = t->nr_selector;
	spec.tolerations = t->tols;
	spec.nr_tolerations = t->nr_tols;
	spec.ports = t->ports;
	spec.nr_ports = t->nr_ports;
	if (vt->images) {
		spec.images = vt->images->name;
		spec.nr_images = vt->images->nr;
	}
	spec.spread_shared = vt->spread;
	spec.priority = p->value;
	spec.priority_class = vjob->priority_class;
	spec.preemption_policy = p->policy;
	ret = vs_task_add(ctl->cl, &spec, &task, err);
	if (ret)
		return ret;
	vs_v(5, "Created Task <%s/%s> (%s) for Job <%s/%s>", task->ns, task->name,
	     vs_task_status_name(status), vjob->ns, vjob->name);
	vs_ctl_task_added(ctl, task);
	return 0;
}

/* ---- SyncJob ---- */

/* Remove what is in the PodGroup but is no replica of the job. */
static void remove_strays(struct vs_ctl *ctl, struct vs_vjob *vjob, struct vs_jc_status *st)
{
	struct vs_task *task, *tmp;

	list_for_each_entry_safe(task, tmp, &vjob->podgroup->tasks, job_node) {
		struct vs_vjob_task *vt;
		u32 idx;

		if (task_slot(vjob, task, &vt, &idx))
			continue;
		vs_v(3, "Deleting Task <%s/%s>: no replica of Job <%s/%s>", task->ns, task->name,
		     vjob->ns, vjob->name);
		vs_ctl_task_remove(ctl, task);
		st->s.terminating++;
	}
}

/*
 * Walk every replica: count the tasks there are, make the missing ones,
 * remove strays. A finished replica a kill kept comes back in its status
 * (Volcano's retained pod still names the job's PodGroup, and the
 * scheduler's cache puts it back in the job when the PodGroup is made
 * again, where the gang counts a success as ready). A task that cannot be
 * made is skipped and the first error returned, as Volcano creates what it
 * can; a kept replica that cannot be made stays kept and counted.
 */
static int sync_replicas(struct vs_ctl *ctl, struct vs_vjob *vjob, struct vs_jc_status *st,
			 struct vs_err *err)
{
	struct vs_cluster *cl = ctl->cl;
	struct vs_job *pg = vjob->podgroup;
	struct prio prio = { 0 };
	char name[POD_NAME_BUF];
	u32 found = 0;
	int first = 0, ret;

	for (u32 ti = 0; ti < vjob->nr_tasks; ti++) {
		struct vs_vjob_task *vt = &vjob->tasks[ti];
		struct tpl t = { 0 };

		for (u32 i = 0; i < vt->replicas; i++) {
			struct vs_task *task;
			u8 kept;

			pod_name(name, vjob, vt->name, i);
			task = vs_task_find(cl, vjob->ns, name);
			kept = vt->kept ? vt->kept[i] : VS_VJOB_KEPT_NONE;
			if (task && (task->job != pg || task->role != vt->name)) {
				vs_v(2, "Task <%s/%s> is not Job <%s/%s>'s; skip it", task->ns,
				     task->name, vjob->ns, vjob->name);
				if (kept)
					count(&st->s, kept_phase(kept), 1);
				continue;
			}
			if (task) {
				if (kept)
					vt->kept[i] = VS_VJOB_KEPT_NONE;	/* it is back */
				count(&st->s, pod_phase(task->status), 1);
				found++;
				continue;
			}
			ret = prio_resolve(cl, vjob, &prio, err);
			if (!ret && !t.built && tpl_build(vjob, vt, &t))
				ret = vs_err_set(err, ENOMEM, "out of memory");
			if (!ret)
				ret = create_task(ctl, vjob, vt, i, name, kept_status(kept), &t,
						  &prio, err);
			if (ret) {
				if (!first)
					first = ret;
				if (kept)
					count(&st->s, kept_phase(kept), 1);
				continue;
			}
			if (kept)
				vt->kept[i] = VS_VJOB_KEPT_NONE;	/* it is back */
			count(&st->s, pod_phase(kept_status(kept)), 1);
			found++;
		}
		tpl_free(&t);
	}
	if (pg->nr_tasks > found)
		remove_strays(ctl, vjob, st);
	return first;
}

/* The counts from the PodGroup's index, when every replica is there. */
static bool count_fast(const struct vs_vjob *vjob, struct vs_jc_status *st)
{
	const struct vs_job *pg = vjob->podgroup;
	const u32 *nr = pg->nr_by_status;
	u32 ok, failed;

	kept_count(vjob, NULL, &ok, &failed);
	if ((u64)pg->nr_tasks + ok + failed != vs_jc_total_replicas(vjob))
		return false;
	for (unsigned int s = 0; s < VS_TASK_NR_STATUS; s++)
		count(&st->s, pod_phase((enum vs_task_status)s), nr[s]);
	st->s.succeeded += ok;
	st->s.failed += failed;
	return true;
}

int vs_jc_sync(struct vs_ctl *ctl, struct vs_vjob *vjob, enum vs_jc_update update,
	       struct vs_err *err)
{
	struct vs_queue *queue = vs_queue_find(ctl->cl, vjob->queue_name);
	struct vs_jc_status st;
	bool adopted;
	int ret;

	/* A transaction's undo puts back what the sync changes of the job's status. */
	vs_vjob_journal(ctl->cl, vjob);
	vs_v(4, "Starting to sync up Job <%s/%s>, current version %u", vjob->ns, vjob->name,
	     vjob->status.version);
	if (!queue) {
		ret = vs_err_set(err, ENOENT, "queue %s does not exist", vjob->queue_name);
		goto out_prefix;
	}
	ret = ensure_podgroup(ctl, vjob, queue, &adopted, err);
	if (ret)
		goto out_prefix;

	status_of(vjob, &st);
	if (vjob->podgroup->phase == VS_PG_PENDING) {
		/* an adopted PodGroup holds only the job's replicas from now on */
		if (adopted) {
			struct vs_jc_status scratch = st;

			remove_strays(ctl, vjob, &scratch);
		}
		/* not admitted yet: no tasks made, the phase moves on the counts it had */
		vs_jc_update_status(vjob, update, &st);
		status_write(ctl, vjob, &st);
		return 0;
	}

	status_recount(&st);
	st.s.min_available = vjob->min_available;
	if (adopted || !count_fast(vjob, &st)) {
		status_recount(&st);
		ret = sync_replicas(ctl, vjob, &st, err);
		if (ret)
			goto out_prefix;
	}
	vs_jc_update_status(vjob, update, &st);
	status_write(ctl, vjob, &st);
	return 0;

out_prefix:
	vs_err_prefix(err, "job %s/%s: ", vjob->ns, vjob->name);
	return ret;
}

/* ---- KillJob and KillTarget ---- */

static void kill_target(struct vs_ctl *ctl, struct vs_vjob *vjob, const struct vs_jc_target *tg,
			struct vs_jc_status *st)
{
	struct vs_vjob_task *vt = tg->vt;
	struct vs_job *pg = vjob->podgroup;
	struct vs_task *task, *tmp;

	if (!vt)
		return;
	if (tg->pod) {
		s64 idx = replica_of(vjob, vt, tg->pod);

		task = vs_task_find(ctl->cl, vjob->ns, tg->pod);
		if (idx >= 0 && vt->kept && vt->kept[idx]) {
			vt->kept[idx] = VS_VJOB_KEPT_NONE;
			st->s.terminating++;
		}
		if (task && task->job == pg && task->role == vt->name) {
			vs_ctl_task_remove(ctl, task);
			st->s.terminating++;
		}
		return;
	}
	for (u32 i = 0; vt->kept && i < vt->replicas; i++) {
		if (vt->kept[i]) {
			vt->kept[i] = VS_VJOB_KEPT_NONE;
			st->s.terminating++;
		}
	}
	if (!pg)
		return;
	list_for_each_entry_safe(task, tmp, &pg->tasks, job_node) {
		if (task->role != vt->name)
			continue;
		vs_ctl_task_remove(ctl, task);
		st->s.terminating++;
	}
}

/*
 * Kill the whole job: every task but, when @keep, the finished ones. At the
 * last retry the finished tasks are kept whatever was asked, as in Volcano.
 */
static void kill_all(struct vs_ctl *ctl, struct vs_vjob *vjob, bool keep, struct vs_jc_status *st)
{
	struct vs_task *task, *tmp;

	for (u32 t = 0; t < vjob->nr_tasks; t++) {
		struct vs_vjob_task *vt = &vjob->tasks[t];

		for (u32 i = 0; vt->kept && i < vt->replicas; i++) {
			if (!vt->kept[i])
				continue;
			if (keep) {
				count(&st->s, kept_phase(vt->kept[i]), 1);
			} else {
				vt->kept[i] = VS_VJOB_KEPT_NONE;
				st->s.terminating++;
			}
		}
	}
	if (!vjob->podgroup)
		return;
	list_for_each_entry_safe(task, tmp, &vjob->podgroup->tasks, job_node) {
		enum pod_phase p = pod_phase(task->status);

		if (keep && (p == PP_SUCCEEDED || p == PP_FAILED)) {
			count(&st->s, p, 1);
			continue;
		}
		vs_ctl_task_remove(ctl, task);
		st->s.terminating++;
	}
}

void vs_jc_kill(struct vs_ctl *ctl, struct vs_vjob *vjob, bool keep_finished,
	     const struct vs_jc_target *target, enum vs_jc_update update)
{
	struct vs_jc_status st;

	vs_vjob_journal(ctl->cl, vjob);		/* a kill's marks on the kept replicas */
	status_of(vjob, &st);
	status_recount(&st);
	if (target) {
		vs_v(3, "Killing task <%s> of Job <%s/%s>, current version %u",
		     target->vt ? target->vt->name : "", vjob->ns, vjob->name,
		     vjob->status.version);
		kill_target(ctl, vjob, target, &st);
	} else {
		bool last_retry = vjob->retry_count + 1 >= vjob->max_retry;

		vs_v(3, "Killing Job <%s/%s>, current version %u", vjob->ns, vjob->name,
		     vjob->status.version);
		st.s.version++;
		kill_all(ctl, vjob, keep_finished || last_retry, &st);
	}
	vs_jc_update_status(vjob, update, &st);
	status_write(ctl, vjob, &st);
	if (!target && vjob->podgroup)
		remove_podgroup(ctl, vjob);
}

/* ---- a checkpoint's job ---- */

/* Check one group's kept replicas against the job, and (@kept not NULL) mark them. */
static int restore_kept(const struct vs_vjob *vjob, const struct vs_vjob_kept_spec *k,
			u8 *kept, struct vs_err *err)
{
	const struct vs_vjob_task *vt = vtask_by_name(vjob, k->task);

	if (!vt)
		return vs_err_set(err, EINVAL, "state.kept: the job has no task %s", k->task);
	for (u32 i = 0; i < k->nr_succeeded + k->nr_failed; i++) {
		bool ok = i < k->nr_succeeded;
		u32 idx = ok ? k->succeeded[i] : k->failed[i - k->nr_succeeded];

		if (idx >= vt->replicas)
			return vs_err_set(err, EINVAL, "state.kept: task %s has %u replicas, "
					  "not a replica %u", k->task, vt->replicas, idx);
		if (kept)
			kept[idx] = ok ? VS_VJOB_KEPT_SUCCEEDED : VS_VJOB_KEPT_FAILED;
	}
	return 0;
}

int vs_jobctl_restore(struct vs_cluster *cl, struct vs_vjob *vjob, const struct vs_vjob_state *st,
		      struct vs_err *err)
{
	struct vs_job *pg = NULL;
	u8 **kept;
	int ret = 0;

	if (st->podgroup) {
		pg = vs_job_find(cl, vjob->ns, vs_jobctl_podgroup_name(vjob));
		if (!pg)
			return vs_err_set(err, ENOENT, "state.podgroup: its podgroup %s/%s is not "
					  "there (a checkpoint has it before the job)", vjob->ns,
					  vs_jobctl_podgroup_name(vjob));
		if (pg->vjob)
			return vs_err_set(err, EEXIST, "state.podgroup: podgroup %s/%s belongs "
					  "to job %s/%s", pg->ns, pg->name, pg->vjob->ns,
					  pg->vjob->name);
	}
	for (u32 i = 0; i < st->nr_kept; i++) {
		ret = restore_kept(vjob, &st->kept[i], NULL, err);
		if (ret)
			return ret;
	}
	/* Each group's array, made for all before any is kept. */
	kept = calloc(vjob->nr_tasks, sizeof(*kept));
	if (!kept)
		return vs_err_set(err, ENOMEM, "out of memory");
	for (u32 i = 0; i < st->nr_kept; i++) {
		struct vs_vjob_task *vt = vtask_by_name(vjob, st->kept[i].task);
		u32 t = (u32)(vt - vjob->tasks);

		if (!kept[t] && !vt->kept && !(kept[t] = calloc(vt->replicas, 1))) {
			ret = vs_err_set(err, ENOMEM, "out of memory");
			goto out;
		}
		restore_kept(vjob, &st->kept[i], kept[t] ? kept[t] : vt->kept, err);
	}
	for (u32 t = 0; t < vjob->nr_tasks; t++)
		if (kept[t]) {
			vjob->tasks[t].kept = kept[t];
			kept[t] = NULL;
		}
	vjob->phase = st->phase;
	vjob->retry_count = st->retry_count;
	vjob->status = st->status;
	if (pg) {
		pg->vjob = vjob;
		vjob->podgroup = pg;
	}
out:
	for (u32 t = 0; t < vjob->nr_tasks; t++)
		free(kept[t]);
	free(kept);
	return ret;
}

/* ---- the API ---- */

int vs_jobctl_sync(struct vs_ctl *ctl, struct vs_vjob *vjob, struct vs_err *err)
{
	return vs_jc_execute(ctl, vjob, VS_ACT_SYNC_JOB, NULL, err);
}

/* A finished job whose PodGroup is gone has nothing left to do. */
static bool at_rest(const struct vs_vjob *vjob)
{
	switch (vjob->phase) {
	case VS_VJOB_COMPLETED:
	case VS_VJOB_FAILED:
	case VS_VJOB_TERMINATED:
	case VS_VJOB_ABORTED:
		return !vjob->podgroup;
	default:
		return false;
	}
}

int vs_jobctl_sync_all(struct vs_ctl *ctl, struct vs_err *err)
{
	struct vs_vjob *vjob;
	int first = 0;

	list_for_each_entry(vjob, &ctl->cl->vjobs, list) {
		struct vs_err e = { { 0 } };
		int ret;

		if (at_rest(vjob))
			continue;
		ret = vs_jobctl_sync(ctl, vjob, &e);
		if (!ret)
			continue;
		vs_v(2, "Failed to sync Job <%s/%s>: %s", vjob->ns, vjob->name, e.msg);
		if (!first) {
			first = ret;
			vs_err_set(err, -ret, "%s", e.msg);
		}
	}
	return first;
}

/* The event a task's change of status raises (Volcano's updatePod). */
static enum vs_vjob_event event_of(const struct vs_vjob *vjob, const struct vs_vjob_task *vt,
				   enum vs_task_status now, enum vs_task_status old)
{
	enum pod_phase p = pod_phase(now), o = pod_phase(old);

	switch (p) {
	case PP_FAILED:
		return o != PP_FAILED ? VS_EV_POD_FAILED : VS_EV_OUT_OF_SYNC;
	case PP_SUCCEEDED:
		return o != PP_SUCCEEDED && task_completed(vjob, vt) ? VS_EV_TASK_COMPLETED :
								      VS_EV_OUT_OF_SYNC;
	case PP_RUNNING:
		return o != PP_RUNNING ? VS_EV_POD_RUNNING : VS_EV_OUT_OF_SYNC;
	case PP_PENDING:
		return o != PP_PENDING ? VS_EV_POD_PENDING : VS_EV_OUT_OF_SYNC;
	default:
		return VS_EV_OUT_OF_SYNC;
	}
}

int vs_jobctl_task_updated(struct vs_ctl *ctl, struct vs_task *task, enum vs_task_status old,
			   s32 exit_code, struct vs_err *err)
{
	struct vs_vjob *vjob = task->job->vjob;
	struct vs_jc_target target;
	enum vs_vjob_event event;
	enum vs_vjob_action action;

	if ((unsigned int)old >= VS_TASK_NR_STATUS)
		return vs_err_set(err, EINVAL, "task %s/%s: bad previous status %d", task->ns,
				  task->name, old);
	if (!vjob)
		return 0;
	target.vt = vtask_of_role(vjob, task->role);
	if (!target.vt)
		return 0;	/* not made from a template: Volcano skips such pods */
	target.pod = task->name;
	event = event_of(vjob, target.vt, task->status, old);
	action = vs_jc_policy_action(vjob, target.vt, event,
				     event == VS_EV_POD_FAILED ? exit_code : 0);
	vs_v(3, "Task <%s/%s> is %s: event %s, action %s", task->ns, task->name,
	     vs_task_status_name(task->status), vs_vjob_event_name(event),
	     vs_vjob_action_name(action));
	return vs_jc_execute(ctl, vjob, action, &target, err);
}

int vs_jobctl_task_deleted(struct vs_ctl *ctl, struct vs_vjob *vjob, const char *role,
			   const char *name, struct vs_err *err)
{
	struct vs_jc_target target = { vtask_by_name(vjob, role), name };
	enum vs_vjob_action action;

	if (!target.vt)
		return 0;
	action = vs_jc_policy_action(vjob, target.vt, VS_EV_POD_EVICTED, 0);
	vs_v(3, "Task <%s/%s> was deleted: event PodEvicted, action %s", vjob->ns, name,
	     vs_vjob_action_name(action));
	return vs_jc_execute(ctl, vjob, action, &target, err);
}

static bool empty(const char *s)
{
	return !s || !*s;
}

int vs_jobctl_command(struct vs_ctl *ctl, struct vs_vjob *vjob, enum vs_vjob_action action,
		      const char *task, const char *pod, struct vs_err *err)
{
	struct vs_jc_target target = { NULL, NULL };
	int ret = 0;

	if ((unsigned int)action >= VS_ACT_NR)
		return vs_err_set(err, EINVAL, "job %s/%s: bad action %d", vjob->ns, vjob->name,
				  action);
	switch (action) {
	case VS_ACT_SYNC_QUEUE:
	case VS_ACT_OPEN_QUEUE:
	case VS_ACT_CLOSE_QUEUE:
		return vs_err_set(err, EINVAL, "job %s/%s: %s is a queue command", vjob->ns,
				  vjob->name, vs_vjob_action_name(action));
	case VS_ACT_RESTART_POD:
		if (empty(pod))
			ret = vs_err_set(err, EINVAL, "RestartPod needs a task and a pod");
		fallthrough;
	case VS_ACT_RESTART_TASK:
		if (ret)
			break;
		target.vt = vtask_by_name(vjob, task);
		if (empty(task))
			ret = vs_err_set(err, EINVAL, "%s needs a task",
					 vs_vjob_action_name(action));
		else if (!target.vt)
			ret = vs_err_set(err, ENOENT, "no task \"%s\"", task);
		else if (action == VS_ACT_RESTART_TASK && !empty(pod))
			ret = vs_err_set(err, EINVAL, "RestartTask takes no pod");
		else if (action == VS_ACT_RESTART_POD && replica_of(vjob, target.vt, pod) < 0)
			ret = vs_err_set(err, ENOENT, "task %s has no pod \"%s\"", task, pod);
		target.pod = empty(pod) ? NULL : pod;
		break;
	default:
		if (!empty(task) || !empty(pod))
			ret = vs_err_set(err, EINVAL, "%s takes no task or pod",
					 vs_vjob_action_name(action));
		break;
	}
	if (ret) {
		vs_err_prefix(err, "job %s/%s: ", vjob->ns, vjob->name);
		return ret;
	}
	vs_v(3, "Start to execute command %s on Job <%s/%s>", vs_vjob_action_name(action),
	     vjob->ns, vjob->name);
	return vs_jc_execute(ctl, vjob, action, &target, err);
}

void vs_jobctl_delete(struct vs_ctl *ctl, struct vs_vjob *vjob)
{
	struct vs_job *pg = vjob->podgroup;
	struct vs_task *task, *tmp;

	if (pg) {
		list_for_each_entry_safe(task, tmp, &pg->tasks, job_node)
			vs_ctl_task_remove(ctl, task);
		vs_ctl_podgroup_remove(ctl, pg);
	}
	vs_v(3, "Job <%s/%s> was deleted", vjob->ns, vjob->name);
	vs_vjob_del(ctl->cl, vjob);
}

/* validation.IsQualifiedName without a prefix: what a label value may be, but not empty. */
static int check_qualified(const char *s, const char *what, struct vs_err *err)
{
	if (empty(s))
		return vs_err_set(err, EINVAL, "%s is empty", what);
	return vs_check_label_value(s, strlen(s), what, err);
}

int vs_jobctl_admit(struct vs_ctl *ctl, const struct vs_vjob_spec *spec, struct vs_err *err)
{
	char name[POD_NAME_BUF];
	int ret;

	ret = check_qualified(spec->name, "job name", err);
	for (u32 i = 0; !ret && spec->tasks && i < spec->nr_tasks; i++) {
		const struct vs_vjob_task_spec *t = &spec->tasks[i];

		if (empty(t->name) || !t->replicas)
			continue;	/* vs_vjob_add() says what is wrong */
		snprintf(name, sizeof(name), "%s-%s-%u", spec->name, t->name, t->replicas - 1);
		ret = check_qualified(name, "pod name", err);
	}
	if (!ret)
		ret = vs_qctl_admit_job(ctl, empty(spec->queue) ? "default" : spec->queue, err);
	if (ret)
		vs_err_prefix(err, "job %s/%s: ", spec->ns ? spec->ns : "",
			      spec->name ? spec->name : "");
	return ret;
}
