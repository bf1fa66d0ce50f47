// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for transactions (core/txn.h): every kind of change the core's
 * object functions make (add, update and delete of each object, a task's
 * status, node and bind outcome, a PodGroup's phase, what the controllers
 * journal) is undone by an abort exactly: the state check passes and a
 * dump of every object, field, sum and list order is the same before and
 * after (a resting PodGroup a change woke rests again, the active ones in
 * their order). Many changes in one transaction are undone in reverse; a
 * commit leaves what the same changes leave without a transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/cluster.h"
#include "core/txn.h"
#include "bind/bind.h"

static struct vs_cluster cl;

/* Kept in name order, as in vschedd: an undo puts objects back in their trees too. */
static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_cluster_keep_names(&cl);
}

static void teardown(void)
{
	vs_cluster_destroy(&cl);
}

TestSuite(txn, .init = setup, .fini = teardown);

#define OK(call)								\
	do {									\
		struct vs_err __e = { { 0 } };					\
		struct vs_err *err = &__e;					\
										\
		cr_assert_eq((call), 0, "%s: %s", #call, __e.msg);		\
	} while (0)

static void check_all(struct vs_cluster *c)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(c, &e), 0, "invariant broken: %s", e.msg);
}

/* ---- the whole state, as text ---- */

static void put_res(FILE *f, const char *what, const struct vs_res *r)
{
	fprintf(f, " %s<%x", what, r->present);
	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		fprintf(f, " %lld", (long long)r->v[d]);
	fprintf(f, ">");
}

static void put_labels(FILE *f, const char *what, const struct vs_labels *l)
{
	fprintf(f, " %s{", what);
	for (u32 i = 0; l && i < l->nr; i++)
		fprintf(f, "%s=%s,", l->kv[i].key, l->kv[i].value);
	fprintf(f, "}");
}

static void put_task(FILE *f, const struct vs_task *t)
{
	fprintf(f, "\n  task %s seq %llu %s node %s acct %d bind %s/%u/%llu gated %d", t->name,
		(unsigned long long)t->seq, vs_task_status_name(t->status),
		t->node ? t->node->name : "-", t->acct, vs_task_bind_error(t) ? vs_task_bind_error(t) : "-",
		vs_task_bind_failures(t), (unsigned long long)vs_task_retry_after(t), t->gated);
}

static void put_job(FILE *f, const struct vs_job *job)
{
	fprintf(f, "\njob %s/%s seq %llu queue %s(%s) min %u pc %s phase %d vjob %s tasks %u "
		"resting %d gated %u", job->ns, job->name, (unsigned long long)job->seq,
		job->queue_name, job->queue ? job->queue->name : "-", job->min_member,
		job->priority_class ? job->priority_class : "-", job->phase,
		job->vjob ? job->vjob->name : "-", job->nr_tasks, job->resting, job->nr_gated);
	for (u32 i = 0; i < job->nr_min_task_member; i++)
		fprintf(f, " role %s=%u", job->min_task_member[i].role,
			job->min_task_member[i].min);
	put_res(f, "minres", &job->min_resources);
	put_res(f, "request", &job->total_request);
	put_res(f, "allocated", &job->allocated);
	for (u32 i = 0; i < VS_PG_COND_NR; i++)
		fprintf(f, " cond%u %d%d%d %s/%s/%s", i, job->cond[i].set, job->cond[i].status,
			job->cond[i].given, job->cond[i].reason ? job->cond[i].reason : "",
			vs_pg_cond_message(&job->cond[i]),
			vs_pg_cond_transition_id(&job->cond[i]));
}

static char *dump(struct vs_cluster *c)
{
	const struct vs_prioclass *pc;
	const struct vs_queue *queue;
	const struct vs_node *node;
	const struct vs_vjob *vjob;
	const struct vs_task *task;
	const struct vs_job *job;
	char *s = NULL;
	size_t len;
	FILE *f = open_memstream(&s, &len);

	cr_assert_not_null(f);
	list_for_each_entry(node, &c->nodes, list) {
		fprintf(f, "\nnode %s seq %llu sidx %u %d%d tasks %u", node->name,
			(unsigned long long)node->seq, node->sidx, node->unschedulable,
			node->ready, node->nr_tasks);
		put_labels(f, "labels", node->labels);
		fprintf(f, " taints %u", node->taints ? node->taints->nr : 0);
		put_res(f, "alloc", &node->allocatable);
		put_res(f, "idle", &node->idle);
		put_res(f, "used", &node->used);
		put_res(f, "releasing", &node->releasing);
		put_res(f, "pipelined", &node->pipelined);
		list_for_each_entry(task, &node->tasks, node_node)
			fprintf(f, " %s", task->name);
		for (u32 i = 0; node->images && i < node->images->nr; i++)
			fprintf(f, " image %s/%lld/%u", node->images->v[i].name,
				(long long)node->images->v[i].size, node->images->v[i].num_nodes);
	}
	fprintf(f, "\nimage names %zu: nginx:1 on %u, redis:7 on %u",
		vs_image_table_count(&c->images),
		vs_image_table_nodes(&c->images, vs_str_find(&c->strs, "nginx:1", 7)),
		vs_image_table_nodes(&c->images, vs_str_find(&c->strs, "redis:7", 7)));
	fprintf(f, "\nslots %u holes %u:", c->nr_node_slots, c->nr_node_holes);
	for (u32 i = 0; i < c->nr_node_slots; i++)
		fprintf(f, " %s", c->node_slot[i] ? c->node_slot[i]->name : "-");
	list_for_each_entry(queue, &c->queues, list) {
		fprintf(f, "\nqueue %s seq %llu parent %s w %u %d%d%d prio %d state %d/%d jobs %u "
			"resting %u", queue->name, (unsigned long long)queue->seq,
			queue->parent ? queue->parent : "-", queue->weight, queue->has_capability,
			queue->has_deserved, queue->reclaimable, queue->priority, queue->state,
			queue->closed_by_parent, queue->nr_jobs, queue->rest.nr_jobs);
		for (u32 p = 0; p < VS_PG_NR_PHASES; p++)
			fprintf(f, " %u", queue->nr_jobs_by_phase[p]);
		put_res(f, "cap", &queue->capability);
		put_res(f, "allocated", &queue->allocated);
		put_res(f, "request", &queue->request);
		list_for_each_entry(job, &queue->jobs, queue_node)
			fprintf(f, " %s", job->name);
	}
	fprintf(f, "\norphans:");
	list_for_each_entry(job, &c->orphan_jobs, queue_node)
		fprintf(f, " %s", job->name);
	list_for_each_entry(job, &c->jobs, list) {
		put_job(f, job);
		list_for_each_entry(task, &job->tasks, job_node)
			put_task(f, task);
		for (u32 st = 0; st < VS_TASK_NR_STATUS; st++) {
			fprintf(f, "\n  %s %u:", vs_task_status_name(st), job->nr_by_status[st]);
			list_for_each_entry(task, &job->by_status[st], status_node)
				fprintf(f, " %s", task->name);
		}
	}
	list_for_each_entry(vjob, &c->vjobs, list) {
		fprintf(f, "\nvjob %s seq %llu phase %d retry %u running %u version %u pg %s",
			vjob->name, (unsigned long long)vjob->seq, vjob->phase, vjob->retry_count,
			vjob->status.running, vjob->status.version,
			vjob->podgroup ? vjob->podgroup->name : "-");
		for (u32 i = 0; i < vjob->nr_tasks; i++) {
			fprintf(f, " kept%u:", i);
			for (u32 r = 0; vjob->tasks[i].kept && r < vjob->tasks[i].replicas; r++)
				fprintf(f, "%u", vjob->tasks[i].kept[r]);
		}
	}
	fprintf(f, "\nactive %u:", c->nr_active_jobs);
	vs_for_each_active_job(job, c)
		fprintf(f, " %s", job->name);
	list_for_each_entry(pc, &c->prioclasses, list)
		fprintf(f, "\nprioclass %s seq %llu %d %d %d", pc->name, (unsigned long long)pc->seq,
			pc->value, pc->global_default, pc->preemption_policy);
	fprintf(f, "\nseq %llu created %llu counts %u %u %u %u %u %u affinity %u prefer %u",
		(unsigned long long)c->seq, (unsigned long long)c->created_max, c->nr_nodes,
		c->nr_queues, c->nr_jobs, c->nr_tasks, c->nr_vjobs, c->nr_prioclasses,
		c->nr_pod_affinity_tasks, c->nr_prefer_no_schedule_nodes);
	put_res(f, "total", &c->total_allocatable);
	fprintf(f, "\nresources:");
	for (unsigned int d = 0; d < vs_res_ndims(&c->dims); d++)
		fprintf(f, " %s", vs_res_dim_name(&c->dims, d));
	fclose(f);
	return s;
}

/* ---- a cluster with something of everything ---- */

static struct vs_res res(s64 millicpu, s64 mem)
{
	struct vs_res r;

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, millicpu);
	vs_res_set(&r, VS_RES_MEMORY, mem);
	return r;
}

static const char *const img_nginx[] = { "nginx:1", "nginx@sha256:aa" };
static const char *const img_redis[] = { "redis:7" };
static const struct vs_image_spec node_images[] = {
	{ img_nginx, 2, 100 << 20 }, { img_redis, 1, 30 << 20 },
};

static void node_spec(struct vs_node_spec *spec, const char *name, s64 mcpu)
{
	vs_node_spec_init(spec, name);
	spec->allocatable = res(mcpu, 8 << 20);
	vs_res_set(&spec->allocatable, VS_RES_PODS, 110);
	/* every node nginx; n2 and n3 redis too, the only ones */
	spec->images = node_images;
	spec->nr_images = !strcmp(name, "n2") || !strcmp(name, "n3") ? 2 : 1;
}

static struct vs_node *add_node(struct vs_cluster *c, const char *name, s64 mcpu)
{
	struct vs_node_spec spec;
	struct vs_node *node;

	node_spec(&spec, name, mcpu);
	OK(vs_node_add(c, &spec, &node, err));
	return node;
}

static void add_queue(struct vs_cluster *c, const char *name)
{
	struct vs_queue_spec spec;

	vs_queue_spec_init(&spec, name);
	OK(vs_queue_add(c, &spec, NULL, err));
}

static struct vs_job *add_job(struct vs_cluster *c, const char *name, const char *queue)
{
	struct vs_job_spec spec;
	struct vs_job *job;

	vs_job_spec_init(&spec, "ns", name);
	spec.queue = queue;
	OK(vs_job_add(c, &spec, &job, err));
	return job;
}

static struct vs_task *add_task(struct vs_cluster *c, const char *name, const char *job,
				enum vs_task_status status, const char *node)
{
	struct vs_task_spec spec;
	struct vs_task *task;

	vs_task_spec_init(&spec, "ns", name, job);
	spec.req = res(500, 1 << 20);
	spec.status = status;
	spec.node = node;
	OK(vs_task_add(c, &spec, &task, err));
	return task;
}

/* A pod with scheduling gates, on no node. */
static struct vs_task *add_gated(struct vs_cluster *c, const char *name, const char *job,
				 enum vs_task_status status)
{
	struct vs_task_spec spec;
	struct vs_task *task;

	vs_task_spec_init(&spec, "ns", name, job);
	spec.req = res(250, 1 << 20);
	spec.status = status;
	spec.gated = true;
	OK(vs_task_add(c, &spec, &task, err));
	return task;
}

static struct vs_vjob *add_vjob(struct vs_cluster *c, const char *name)
{
	struct vs_vjob_task_spec ts = { .name = "w", .replicas = 2 };
	struct vs_vjob_spec spec;
	struct vs_vjob *vjob;

	vs_vjob_spec_init(&spec, "ns", name);
	spec.tasks = &ts;
	spec.nr_tasks = 1;
	OK(vs_vjob_add(c, &spec, &vjob, err));
	return vjob;
}

static void add_prioclass(struct vs_cluster *c, const char *name, s32 value)
{
	struct vs_prioclass_spec spec = { .name = name, .value = value };

	OK(vs_prioclass_add(c, &spec, NULL, err));
}

static void rich_cluster(struct vs_cluster *c)
{
	struct vs_vjob *vjob;

	add_prioclass(c, "high", 100);
	add_prioclass(c, "low", 1);
	add_node(c, "n1", 4000);
	add_node(c, "n2", 4000);
	add_node(c, "n3", 2000);
	add_node(c, "n4", 2000);
	add_queue(c, "default");
	add_queue(c, "q1");
	add_queue(c, "q2");
	add_queue(c, "q3");
	add_job(c, "a", "q1");
	add_job(c, "b", NULL);
	add_job(c, "c", "q1");
	add_job(c, "o1", "later");
	add_job(c, "o2", "other");
	add_job(c, "o3", "later");
	add_task(c, "a-0", "a", VS_TASK_RUNNING, "n1");
	add_task(c, "a-1", "a", VS_TASK_PENDING, NULL);
	add_task(c, "a-2", "a", VS_TASK_BINDING, "n2");
	add_task(c, "a-3", "a", VS_TASK_RUNNING, "n2");
	add_task(c, "b-0", "b", VS_TASK_BOUND, "n1");
	add_task(c, "c-0", "c", VS_TASK_PIPELINED, "n1");
	add_task(c, "c-1", "c", VS_TASK_SUCCEEDED, NULL);
	vjob = add_vjob(c, "v");
	vs_vjob_link(c, vjob, vs_job_find(c, "ns", "b"));
	add_vjob(c, "w");
	/* r and s rest, as a session leaves them; c, made before r, is active */
	vs_job_set_phase(c, add_job(c, "r", "q2"), VS_PG_RUNNING);
	add_task(c, "r-0", "r", VS_TASK_RUNNING, "n4");
	add_gated(c, "r-1", "r", VS_TASK_RELEASING);	/* a gated pod being deleted */
	add_gated(c, "a-4", "a", VS_TASK_PENDING);
	vs_job_set_phase(c, add_job(c, "s", "q2"), VS_PG_INQUEUE);
	add_job(c, "t", "q1");
	vs_job_rest(c, vs_job_find(c, "ns", "r"));
	vs_job_rest(c, vs_job_find(c, "ns", "s"));
	cr_assert(vs_job_find(c, "ns", "r")->resting && vs_job_find(c, "ns", "s")->resting);
	check_all(c);
}

/* ---- the changes ---- */

static struct vs_task *task_of(struct vs_cluster *c, const char *name)
{
	struct vs_task *task = vs_task_find(c, "ns", name);

	cr_assert_not_null(task, "%s", name);
	return task;
}

static void node_add(struct vs_cluster *c)
{
	add_node(c, "n9", 1000);
}

static void node_update(struct vs_cluster *c)
{
	static const struct vs_kv_spec labels[] = { { "zone", "a" }, { "disk", "ssd" } };
	struct vs_node_spec spec;

	node_spec(&spec, "n2", 6000);
	spec.labels = labels;
	spec.nr_labels = 2;
	spec.unschedulable = true;
	/* redis alone now, with another size: n3 still reports it */
	spec.images = &node_images[1];
	spec.nr_images = 1;
	int gpu = vs_cluster_dim_get(c, "nvidia.com/gpu", 14, NULL);

	cr_assert_geq(gpu, 0);
	vs_res_set(&spec.allocatable, (unsigned int)gpu, 4);
	OK(vs_node_update(c, vs_node_find(c, "n2"), &spec, err));
}

static void node_del(struct vs_cluster *c)
{
	OK(vs_node_del(c, vs_node_find(c, "n3"), err));
}

static void queue_add(struct vs_cluster *c)
{
	add_queue(c, "later");		/* adopts o1 and o3, not o2 */
}

static void queue_update(struct vs_cluster *c)
{
	struct vs_queue_spec spec;

	vs_queue_spec_init(&spec, "q2");
	spec.weight = 7;
	spec.parent = "q1";
	spec.capability = res(9000, 1 << 30);
	spec.has_capability = true;
	spec.state = VS_QUEUE_CLOSED;
	OK(vs_queue_update(c, vs_queue_find(c, "q2"), &spec, err));
}

static void queue_del(struct vs_cluster *c)
{
	OK(vs_queue_del(c, vs_queue_find(c, "q3"), err));
}

static void queue_state(struct vs_cluster *c)
{
	struct vs_queue *queue = vs_queue_find(c, "q1");

	vs_queue_journal_state(c, queue);
	queue->state = VS_QUEUE_CLOSING;
	queue->closed_by_parent = true;
}

static void job_add(struct vs_cluster *c)
{
	add_job(c, "new", "q2");
}

static void job_update(struct vs_cluster *c)
{
	struct vs_pg_condition_spec cond = {
		.type = 0, .status = true, .reason = "Given", .message = "by a message",
	};
	struct vs_job_spec spec;

	vs_job_spec_init(&spec, "ns", "a");
	spec.queue = "q2";		/* out of q1, with its tasks' totals */
	spec.min_member = 3;
	spec.priority_class = "high";
	spec.phase = VS_PG_RUNNING;
	spec.cond = &cond;
	spec.nr_cond = 1;
	OK(vs_job_update(c, vs_job_find(c, "ns", "a"), &spec, err));
}

static void job_phase(struct vs_cluster *c)
{
	vs_job_set_phase(c, vs_job_find(c, "ns", "c"), VS_PG_INQUEUE);
}

static void job_del(struct vs_cluster *c)
{
	OK(vs_job_del(c, vs_job_find(c, "ns", "o2"), err));
}

static void job_del_linked(struct vs_cluster *c)
{
	vs_task_del(c, task_of(c, "b-0"));
	OK(vs_job_del(c, vs_job_find(c, "ns", "b"), err));
}

/* A running task @name of @job on @node that asks for a gpu, a scalar resource. */
static void add_gpu_task(struct vs_cluster *c, const char *name, const char *job,
			 const char *node)
{
	struct vs_task_spec spec;
	int gpu = vs_cluster_dim_get(c, "nvidia.com/gpu", 14, NULL);

	cr_assert_geq(gpu, 0);
	vs_task_spec_init(&spec, "ns", name, job);
	spec.req = res(100, 1 << 20);
	vs_res_set(&spec.req, (unsigned int)gpu, 1);
	spec.status = VS_TASK_RUNNING;
	spec.node = node;
	OK(vs_task_add(c, &spec, NULL, err));
}

/* Each change to a resting PodGroup wakes it first: an abort lays it to rest again. */
static void resting_task_add(struct vs_cluster *c)
{
	/* a scalar its allocated lacked when it rested: its rest must not keep it at zero */
	add_gpu_task(c, "r-9", "r", "n4");
}

static void resting_task_status(struct vs_cluster *c)
{
	OK(vs_task_set_status(c, task_of(c, "r-0"), VS_TASK_SUCCEEDED, err));
}

static void resting_job_phase(struct vs_cluster *c)
{
	vs_job_set_phase(c, vs_job_find(c, "ns", "s"), VS_PG_COMPLETED);
}

static void resting_job_update(struct vs_cluster *c)
{
	struct vs_job_spec spec;

	vs_job_spec_init(&spec, "ns", "r");
	spec.queue = "q1";
	spec.phase = VS_PG_RUNNING;
	OK(vs_job_update(c, vs_job_find(c, "ns", "r"), &spec, err));
}

static void resting_job_del(struct vs_cluster *c)
{
	OK(vs_job_del(c, vs_job_find(c, "ns", "s"), err));
}

static void task_add(struct vs_cluster *c)
{
	add_task(c, "a-9", "a", VS_TASK_BINDING, "n4");
	/*
	 * A scalar resource nobody in its job, queue or node had: taking it
	 * away again leaves the dimension present, at zero, in every sum.
	 */
	add_gpu_task(c, "c-9", "c", "n2");
	OK(vs_task_set_status(c, task_of(c, "c-9"), VS_TASK_SUCCEEDED, err));
}

static void task_status(struct vs_cluster *c)
{
	OK(vs_task_set_status(c, task_of(c, "a-0"), VS_TASK_FAILED, err));
	OK(vs_task_set_status(c, task_of(c, "a-3"), VS_TASK_RELEASING, err));
}

static void task_place(struct vs_cluster *c)
{
	OK(vs_task_place(c, task_of(c, "a-1"), vs_node_find(c, "n4"), VS_TASK_BINDING, err));
	OK(vs_task_unplace(c, task_of(c, "c-0"), VS_TASK_PENDING, err));
}

static void task_bind(struct vs_cluster *c)
{
	OK(vs_bind_failed(c, task_of(c, "a-2"), 1000, -EIO, "node went away", err));
	OK(vs_task_place(c, task_of(c, "a-2"), vs_node_find(c, "n1"), VS_TASK_BINDING, err));
	OK(vs_bind_succeeded(c, task_of(c, "a-2"), err));
}

static void task_ungate(struct vs_cluster *c)
{
	OK(vs_task_ungate(c, task_of(c, "a-4"), err));
	OK(vs_task_ungate(c, task_of(c, "r-1"), err));	/* its job rests: it wakes */
	cr_assert_not(vs_job_find(c, "ns", "r")->resting);
}

static void task_del(struct vs_cluster *c)
{
	vs_task_del(c, task_of(c, "a-0"));	/* first on n1 and among the running */
	vs_task_del(c, task_of(c, "a-1"));
}

static void vjob_add(struct vs_cluster *c)
{
	vs_vjob_link(c, add_vjob(c, "x"), vs_job_find(c, "ns", "c"));
}

static void vjob_del(struct vs_cluster *c)
{
	vs_vjob_del(c, vs_vjob_find(c, "ns", "v"));	/* b lets go of it */
	vs_vjob_del(c, vs_vjob_find(c, "ns", "w"));
}

static void vjob_state(struct vs_cluster *c)
{
	struct vs_vjob *vjob = vs_vjob_find(c, "ns", "v");

	vs_vjob_journal(c, vjob);
	vjob->phase = VS_VJOB_RUNNING;
	vjob->retry_count = 2;
	vjob->status.running = 5;
	vjob->tasks[0].kept = calloc(vjob->tasks[0].replicas, 1);
	cr_assert_not_null(vjob->tasks[0].kept);
	vjob->tasks[0].kept[1] = VS_VJOB_KEPT_FAILED;
	vs_vjob_link(c, vjob, NULL);
}

static void prioclass_add(struct vs_cluster *c)
{
	add_prioclass(c, "mid", 50);
}

static void prioclass_update(struct vs_cluster *c)
{
	struct vs_prioclass_spec spec = { .name = "low", .value = -5, .global_default = true };

	OK(vs_prioclass_update(c, vs_prioclass_find(c, "low"), &spec, err));
}

static void prioclass_del(struct vs_cluster *c)
{
	vs_prioclass_del(c, vs_prioclass_find(c, "high"));
}

static void dim_add(struct vs_cluster *c)
{
	cr_assert_geq(vs_cluster_dim_get(c, "example.com/fpga", 16, NULL), 0);
}

static const struct change {
	const char *name;
	void (*make)(struct vs_cluster *c);
} changes[] = {
	{ "node add", node_add },
	{ "node update", node_update },
	{ "node delete", node_del },
	{ "queue add", queue_add },
	{ "queue update", queue_update },
	{ "queue state", queue_state },
	{ "podgroup add", job_add },
	{ "podgroup update", job_update },
	{ "podgroup phase", job_phase },
	{ "podgroup delete", job_del },
	{ "podgroup of a vjob delete", job_del_linked },
	{ "task add to a resting podgroup", resting_task_add },
	{ "task status in a resting podgroup", resting_task_status },
	{ "resting podgroup phase", resting_job_phase },
	{ "resting podgroup update", resting_job_update },
	{ "resting podgroup delete", resting_job_del },
	{ "task add", task_add },
	{ "task status", task_status },
	{ "task place", task_place },
	{ "task bind", task_bind },
	{ "task ungate", task_ungate },
	{ "task delete", task_del },
	{ "vjob add", vjob_add },
	{ "vjob state", vjob_state },
	{ "vjob delete", vjob_del },
	{ "prioclass add", prioclass_add },
	{ "prioclass update", prioclass_update },
	{ "prioclass delete", prioclass_del },
	{ "queue delete", queue_del },
	{ "resource name", dim_add },
};

static void assert_same(const char *before, const char *what)
{
	char *now = dump(&cl);

	check_all(&cl);
	cr_assert_str_eq(now, before, "%s: not undone exactly", what);
	free(now);
}

Test(txn, the_undo_of_each_kind_of_change_restores_the_cluster_exactly)
{
	char *before;

	rich_cluster(&cl);
	before = dump(&cl);
	for (unsigned int i = 0; i < ARRAY_SIZE(changes); i++) {
		struct vs_txn txn;

		vs_txn_begin(&txn, &cl);
		changes[i].make(&cl);
		cr_assert_gt(vs_txn_len(&txn), 0, "%s journalled nothing", changes[i].name);
		check_all(&cl);
		cr_assert_eq(vs_txn_abort(&txn), 0, "%s", changes[i].name);
		cr_assert_null(cl.txn);
		assert_same(before, changes[i].name);
	}
	free(before);
}

Test(txn, many_changes_in_one_transaction_are_undone_in_reverse_exactly)
{
	struct vs_txn txn;
	char *before;

	rich_cluster(&cl);
	before = dump(&cl);
	vs_txn_begin(&txn, &cl);
	for (unsigned int i = 0; i < ARRAY_SIZE(changes); i++) {
		changes[i].make(&cl);
		check_all(&cl);
	}
	/* made again after it went: a new object of the same name, undone too */
	add_node(&cl, "n3", 500);
	add_queue(&cl, "q3");
	cr_assert_eq(vs_txn_abort(&txn), 0);
	assert_same(before, "all of them");
	free(before);
}

Test(txn, a_commit_keeps_what_the_changes_make_without_a_transaction)
{
	struct vs_cluster plain;
	struct vs_txn txn;
	char *in_txn, *alone;

	cr_assert_eq(vs_cluster_init(&plain), 0);
	rich_cluster(&cl);
	rich_cluster(&plain);
	vs_txn_begin(&txn, &cl);
	for (unsigned int i = 0; i < ARRAY_SIZE(changes); i++) {
		changes[i].make(&cl);
		changes[i].make(&plain);
	}
	vs_txn_commit(&txn);
	cr_assert_null(cl.txn);
	check_all(&cl);
	in_txn = dump(&cl);
	alone = dump(&plain);
	cr_assert_str_eq(in_txn, alone);
	free(in_txn);
	free(alone);
	vs_cluster_destroy(&plain);
}

Test(txn, what_no_transaction_is_open_for_is_not_journalled)
{
	struct vs_txn txn;

	rich_cluster(&cl);
	cr_assert_null(cl.txn);
	vs_txn_begin(&txn, &cl);
	vs_txn_commit(&txn);
	node_add(&cl);
	vs_txn_begin(&txn, &cl);
	cr_assert_eq(vs_txn_len(&txn), 0);
	cr_assert_eq(vs_txn_abort(&txn), 0);
	cr_assert_not_null(vs_node_find(&cl, "n9"), "made before the transaction");
	check_all(&cl);
}

Test(txn, a_resource_name_is_forgotten_by_an_abort_and_kept_by_a_commit)
{
	struct vs_node_spec spec;
	struct vs_txn txn;
	unsigned int before;
	int gpu;

	rich_cluster(&cl);
	before = vs_res_ndims(&cl.dims);
	cr_assert_eq(vs_res_dim_lookup(&cl.dims, "example.com/fpga", 16), -ENOENT);

	/* a node that brings a new name, in a transaction undone */
	vs_txn_begin(&txn, &cl);
	node_spec(&spec, "n-fpga", 1000);
	gpu = vs_cluster_dim_get(&cl, "example.com/fpga", 16, NULL);
	cr_assert_geq(gpu, 0);
	vs_res_set(&spec.allocatable, (unsigned int)gpu, 2000);
	OK(vs_node_add(&cl, &spec, NULL, err));
	cr_assert_eq(vs_res_ndims(&cl.dims), before + 1);
	cr_assert_eq(vs_txn_abort(&txn), 0);
	cr_assert_null(vs_node_find(&cl, "n-fpga"));
	cr_assert_eq(vs_res_ndims(&cl.dims), before, "the aborted name stayed");
	cr_assert_eq(vs_res_dim_lookup(&cl.dims, "example.com/fpga", 16), -ENOENT);
	cr_assert_null(vs_res_dim_name(&cl.dims, before));
	check_all(&cl);

	/* the same, committed: the name stays at the index it took */
	vs_txn_begin(&txn, &cl);
	gpu = vs_cluster_dim_get(&cl, "example.com/fpga", 16, NULL);
	cr_assert_eq(gpu, (int)before);
	vs_res_set(&spec.allocatable, (unsigned int)gpu, 2000);
	OK(vs_node_add(&cl, &spec, NULL, err));
	vs_txn_commit(&txn);
	cr_assert_eq(vs_res_ndims(&cl.dims), before + 1);
	cr_assert_eq(vs_res_dim_lookup(&cl.dims, "example.com/fpga", 16), gpu);
	cr_assert_str_eq(vs_res_dim_name(&cl.dims, (unsigned int)gpu), "example.com/fpga");
	check_all(&cl);

	/* a name known already journals nothing */
	vs_txn_begin(&txn, &cl);
	cr_assert_eq(vs_cluster_dim_get(&cl, "example.com/fpga", 16, NULL), gpu);
	cr_assert_eq(vs_txn_len(&txn), 0);
	cr_assert_eq(vs_txn_abort(&txn), 0);
	cr_assert_eq(vs_res_dim_lookup(&cl.dims, "example.com/fpga", 16), gpu);
}

Test(txn, a_refused_resource_name_journals_nothing)
{
	struct vs_err e = { { 0 } };
	struct vs_txn txn;

	vs_txn_begin(&txn, &cl);
	cr_assert_eq(vs_cluster_dim_get(&cl, "gpu", 3, &e), -EINVAL);
	cr_assert(strstr(e.msg, "gpu"), "%s", e.msg);
	cr_assert_eq(vs_txn_len(&txn), 0);
	vs_txn_commit(&txn);
	cr_assert_eq(vs_res_ndims(&cl.dims), VS_RES_PODS + 1);
}
