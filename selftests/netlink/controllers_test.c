// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the controllers behind the protocol handlers
 * (Documentation/controllers.md, "When the daemon calls what"): a
 * VolcanoJob made by VS_CMD_VJOB_NEW gets its PodGroup, and its tasks once
 * a cycle admitted it; task reports drive its phase through its policies;
 * users' commands reach the job and queue controllers, and are refused
 * with reasons that name the object; a bare task gets a PodGroup; queues
 * admit what Volcano admits. Everything through the in-process dispatcher,
 * as the daemon passes requests.
 */
#include <stdio.h>

#include "core/log.h"
#include "ctltest.h"

/* What the controllers told the core's hooks. */
static struct {
	int task_added, task_removing, pg_added, pg_removing, vjob_changed, queue_changed;
} heard;

static void h_task_added(void *c, struct vs_task *t) { heard.task_added++; }
static void h_task_removing(void *c, struct vs_task *t) { heard.task_removing++; }
static void h_pg_added(void *c, struct vs_job *pg) { heard.pg_added++; }
static void h_pg_removing(void *c, struct vs_job *pg) { heard.pg_removing++; }

static void h_vjob_changed(void *c, struct vs_vjob *v, enum vs_vjob_phase old)
{
	cr_assert_eq(c, &heard, "the hooks' context is the core's");
	heard.vjob_changed++;
}

static void h_queue_changed(void *c, struct vs_queue *q, enum vs_queue_state old)
{
	heard.queue_changed++;
}

static const struct vs_ctl_hooks hooks = {
	.task_added		= h_task_added,
	.task_removing		= h_task_removing,
	.podgroup_added		= h_pg_added,
	.podgroup_removing	= h_pg_removing,
	.vjob_changed		= h_vjob_changed,
	.queue_changed		= h_queue_changed,
};

/* The warnings of controllers that fail after a report are logged: not in the output. */
static void setup(void)
{
	ct_setup_sched();
	memset(&heard, 0, sizeof(heard));
	ct.core.hooks = &hooks;
	ct.core.hooks_priv = &heard;
	vs_log_file = tmpfile();
}

static void teardown(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
	ct_teardown();
}

TestSuite(wired, .init = setup, .fini = teardown);

/* ---- requests ---- */


static void node(const char *name, s64 mcpu)
{
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, name, mcpu));
}

static void queue_new(const char *name, const char *parent)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_QUEUE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_QUEUE);

	mnl_attr_put_strz(nlh, VS_QUEUE_A_NAME, name);
	if (parent)
		mnl_attr_put_strz(nlh, VS_QUEUE_A_PARENT, parent);
	mnl_attr_nest_end(nlh, n);
	CT_OK(nlh);
}

/*
 * VS_CMD_VJOB_NEW of ns/@name in @queue: a task group "ps" of one replica
 * and "worker" of @workers, 1000m each, and the job's policy @event ->
 * @action (strings, NULL for none) with an exit code 137 -> AbortJob.
 */
static struct nlmsghdr *vjob_req(const char *name, const char *queue, u32 workers,
				 const char *event, const char *action)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_VJOB_NEW, 0);
	struct nlattr *v = mnl_attr_nest_start(nlh, VS_A_VJOB), *t, *p;
	static const char *const groups[] = { "ps", "worker" };

	mnl_attr_put_strz(nlh, VS_VJOB_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_VJOB_A_NAME, name);
	if (queue)
		mnl_attr_put_strz(nlh, VS_VJOB_A_QUEUE, queue);
	for (unsigned int i = 0; i < ARRAY_SIZE(groups); i++) {
		t = mnl_attr_nest_start(nlh, VS_VJOB_A_TASK);
		mnl_attr_put_strz(nlh, VS_VTASK_A_NAME, groups[i]);
		mnl_attr_put_u32(nlh, VS_VTASK_A_REPLICAS, i ? workers : 1);
		ct_put_res(nlh, VS_VTASK_A_REQUEST, 1000, 1024 * CT_MI, -1);
		mnl_attr_nest_end(nlh, t);
	}
	if (event) {
		p = mnl_attr_nest_start(nlh, VS_VJOB_A_POLICY);
		mnl_attr_put_strz(nlh, VS_POLICY_A_EVENT, event);
		mnl_attr_put_strz(nlh, VS_POLICY_A_ACTION, action);
		mnl_attr_nest_end(nlh, p);
	}
	p = mnl_attr_nest_start(nlh, VS_VJOB_A_POLICY);
	mnl_attr_put_u32(nlh, VS_POLICY_A_EXIT_CODE, 137);
	mnl_attr_put_strz(nlh, VS_POLICY_A_ACTION, "AbortJob");
	mnl_attr_nest_end(nlh, p);
	mnl_attr_nest_end(nlh, v);
	return nlh;
}

/* A request of @cmd whose object @put writes; its return. */
#define SEND(_cmd, ...)								\
	({									\
		struct nlmsghdr *__n = ct_req(_cmd, 0);				\
										\
		__VA_ARGS__;							\
		ct_send(__n);							\
	})

/* The binder and the kubelet: every Binding task of PodGroup ns/@pg is bound, then runs. */
static unsigned int bind_and_run(const char *pg)
{
	char names[16][64];
	unsigned int n = 0;
	struct vs_job *job = vs_job_find(&ct.cl, "ns", pg);
	struct vs_task *task;

	cr_assert_not_null(job);
	list_for_each_entry(task, &job->by_status[VS_TASK_BINDING], status_node)
		if (n < ARRAY_SIZE(names))
			snprintf(names[n++], sizeof(names[0]), "%s", task->name);
	for (unsigned int i = 0; i < n; i++) {
		CT_SEND_OK(VS_CMD_BIND_RESULT, ct_put_bind(__n, names[i], NULL, 0, NULL));
		cr_assert_eq(ct_report(names[i], VS_TASK_EVENT_RUNNING, 0), 0, "%s",
			     ct.ext.err.msg);
	}
	return n;
}

/* A command: VS_A_COMMAND of @cmd with the attributes given (NULL, -1: none). */
static struct nlmsghdr *command(u8 cmd, const char *ns, const char *name, int action,
				const char *task, const char *pod)
{
	struct nlmsghdr *nlh = ct_req(cmd, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_COMMAND);

	if (ns)
		mnl_attr_put_strz(nlh, VS_COMMAND_A_NAMESPACE, ns);
	if (name)
		mnl_attr_put_strz(nlh, VS_COMMAND_A_NAME, name);
	if (action >= 0)
		mnl_attr_put_u32(nlh, VS_COMMAND_A_ACTION, (u32)action);
	if (task)
		mnl_attr_put_strz(nlh, VS_COMMAND_A_TASK, task);
	if (pod)
		mnl_attr_put_strz(nlh, VS_COMMAND_A_POD, pod);
	mnl_attr_nest_end(nlh, n);
	return nlh;
}

static int job_command(const char *name, int action, const char *task, const char *pod)
{
	return ct_send(command(VS_CMD_VJOB_COMMAND, "ns", name, action, task, pod));
}

static int queue_command(const char *name, int action)
{
	return ct_send(command(VS_CMD_QUEUE_COMMAND, NULL, name, action, NULL, NULL));
}

/* ---- replies ---- */

/*
 * The names of the objects a dump of @cmd answers with (@attr their nest),
 * space separated in dump order; for tasks, those of PodGroup @pg if not NULL.
 */
static const char *dump_names(u8 cmd, u16 attr, u16 name_type, const char *pg)
{
	static char names[1024];
	struct nlmsghdr *nlh = ct_req(cmd, NLM_F_DUMP);
	const struct nlmsghdr *r;
	size_t len = 0;

	if (pg) {
		mnl_attr_put_strz(nlh, VS_A_FILTER_NAMESPACE, "ns");
		mnl_attr_put_strz(nlh, VS_A_FILTER_PODGROUP, pg);
	}
	CT_OK(nlh);
	names[0] = 0;
	for (unsigned int i = 0; (r = ct_reply_msg(i)); i++) {
		const struct nlattr *a;

		if (r->nlmsg_type != VSCHED_GENL_ID)
			continue;
		a = ct_nested(ct_attr(r, attr), name_type);
		cr_assert_not_null(a);
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", len ? " " : "",
					mnl_attr_get_str(a));
	}
	return names;
}

static const char *tasks_of(const char *pg)
{
	return dump_names(VS_CMD_TASK_GET, VS_A_TASK, VS_TASK_A_NAME, pg);
}

static const char *podgroups(void)
{
	return dump_names(VS_CMD_PODGROUP_GET, VS_A_PODGROUP, VS_PG_A_NAME, NULL);
}

/* The u32 @type of the VolcanoJob ns/@name as VS_CMD_VJOB_GET shows it. */
static u32 vjob_u32(const char *name, u16 type)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_VJOB_GET, 0);
	const struct nlattr *a;

	ct_put_key(nlh, VS_A_VJOB, "ns", name);
	CT_OK(nlh);
	a = ct_nested(ct_attr(ct_reply_genl(), VS_A_VJOB), type);
	cr_assert_not_null(a, "attribute %u missing", type);
	return mnl_attr_get_u32(a);
}

static u32 vjob_phase(const char *name)
{
	return vjob_u32(name, VS_VJOB_A_PHASE);
}

static enum vs_queue_state queue_state(const char *name)
{
	struct vs_queue *q = vs_queue_find(&ct.cl, name);

	cr_assert_not_null(q, "queue %s", name);
	return q->state;
}

/* A cluster of one node, an Open "default" queue and a job "tf" of 1 + @workers replicas. */
static void cluster_with_job(u32 workers, const char *event, const char *action)
{
	node("n1", 8000);
	queue_new("default", NULL);
	CT_OK(vjob_req("tf", NULL, workers, event, action));
}

/* ...scheduled and running. */
static void running_job(u32 workers, const char *event, const char *action)
{
	cluster_with_job(workers, event, action);
	ct_cycle();	/* enqueue admits the PodGroup; the job controller makes the tasks */
	ct_cycle();	/* allocate binds them */
	cr_assert_eq(bind_and_run("tf"), 1 + workers);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RUNNING);
}

/* ---- VolcanoJobs ---- */

Test(wired, a_volcano_job_gets_its_podgroup_then_its_tasks_and_runs)
{
	const struct vs_job *pg;

	cluster_with_job(2, NULL, NULL);
	/* VJOB NEW: admitted, and its PodGroup made; no task before a cycle admits it */
	cr_assert_str_eq(podgroups(), "tf");
	pg = vs_job_find(&ct.cl, "ns", "tf");
	cr_assert_eq(pg->min_member, 3);
	cr_assert_str_eq(pg->queue->name, "default");
	cr_assert_eq(pg->vjob, vs_vjob_find(&ct.cl, "ns", "tf"));
	cr_assert_str_eq(tasks_of("tf"), "");
	cr_assert_eq(heard.pg_added, 1, "the hooks are the core's");
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_PENDING);

	/* the first cycle admits the PodGroup; the job controller then makes the tasks */
	ct_cycle();
	cr_assert_eq(pg->phase, VS_PG_INQUEUE);
	cr_assert_str_eq(tasks_of("tf"), "tf-ps-0 tf-worker-0 tf-worker-1");
	cr_assert_eq(heard.task_added, 3);
	cr_assert_eq(ct_task("tf-worker-1")->status, VS_TASK_PENDING);
	cr_assert_str_eq(ct_task("tf-worker-1")->role, "worker");

	/* the next one places them; their pods run and the job follows */
	ct_cycle();
	cr_assert_eq(ct_task("tf-ps-0")->status, VS_TASK_BINDING);
	cr_assert_eq(bind_and_run("tf"), 3);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RUNNING);
	cr_assert_eq(vs_vjob_find(&ct.cl, "ns", "tf")->status.running, 3);
	ct_cycle();
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RUNNING, "a cycle keeps it Running");
	cr_assert(heard.vjob_changed > 0);
}

Test(wired, tasks_that_succeed_complete_the_job)
{
	running_job(1, NULL, NULL);
	cr_assert_eq(ct_report("tf-ps-0", VS_TASK_EVENT_SUCCEEDED, 0), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RUNNING);
	cr_assert_eq(ct_report("tf-worker-0", VS_TASK_EVENT_SUCCEEDED, 0), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_COMPLETED);
	ct_cycle();
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_COMPLETED);
}

Test(wired, a_killed_job_settles_after_the_next_cycle)
{
	running_job(1, NULL, NULL);
	cr_assert_eq(ct_report("tf-ps-0", VS_TASK_EVENT_SUCCEEDED, 0), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(job_command("tf", VS_ACTION_COMPLETE_JOB, NULL, NULL), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_COMPLETING);
	cr_assert_eq(ct.cl.nr_tasks, 0, "the finished task went with the PodGroup");
	/* the sync after the cycle stands in for the pods' deletion events */
	ct_cycle();
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_COMPLETED);
	cr_assert_eq(vs_vjob_find(&ct.cl, "ns", "tf")->status.succeeded, 1);
}

Test(wired, a_failed_task_with_a_restart_policy_restarts_the_job_and_counts_a_retry)
{
	running_job(2, "PodFailed", "RestartJob");
	cr_assert_eq(vjob_u32("tf", VS_VJOB_A_RETRY_COUNT), 0);

	cr_assert_eq(ct_report("tf-worker-1", VS_TASK_EVENT_FAILED, 1), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RESTARTING);
	cr_assert_eq(vjob_u32("tf", VS_VJOB_A_RETRY_COUNT), 1);
	/* KillJob: its tasks and PodGroup are gone, their node freed */
	cr_assert_str_eq(tasks_of("tf"), "");
	cr_assert_str_eq(podgroups(), "");
	cr_assert_eq(vs_res_get(&vs_node_find(&ct.cl, "n1")->used, VS_RES_CPU), 0);
	cr_assert_eq(heard.task_removing, 3);

	/* the next cycles make it again: a PodGroup, then once admitted its tasks */
	ct_cycle();
	cr_assert_str_eq(podgroups(), "tf");
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RESTARTING);
	ct_cycle();
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_PENDING);
	cr_assert_str_eq(tasks_of("tf"), "tf-ps-0 tf-worker-0 tf-worker-1");
	ct_cycle();
	cr_assert_eq(bind_and_run("tf"), 3);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RUNNING);
	cr_assert_eq(vjob_u32("tf", VS_VJOB_A_RETRY_COUNT), 1);
}

Test(wired, a_failure_exit_code_reaches_the_policies)
{
	running_job(1, NULL, NULL);
	/* exit code 1 matches nothing: SyncJob, the job runs on */
	cr_assert_eq(ct_report("tf-worker-0", VS_TASK_EVENT_FAILED, 1), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RUNNING);
	/* 137 is the job's AbortJob */
	cr_assert_eq(ct_report("tf-ps-0", VS_TASK_EVENT_FAILED, 137), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_ABORTING);
	ct_cycle();
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_ABORTED);
}

Test(wired, a_deleted_task_is_an_eviction_and_is_made_again)
{
	running_job(1, NULL, NULL);
	/* PodEvicted, no policy: SyncJob, and the PodGroup is admitted: made again at once */
	cr_assert_eq(ct_report("tf-worker-0", VS_TASK_EVENT_DELETED, 0), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("tf-worker-0")->status, VS_TASK_PENDING);
	cr_assert_eq(heard.task_added, 3);
	CT_SEND_OK(VS_CMD_TASK_DEL, ct_put_key(__n, VS_A_TASK, "ns", "tf-ps-0"));
	cr_assert_eq(ct_task("tf-ps-0")->status, VS_TASK_PENDING);
	cr_assert_str_eq(tasks_of("tf"), "tf-ps-0 tf-worker-0", "listed by name, as kubectl does");
	ct_cycle();
	cr_assert_eq(bind_and_run("tf"), 2);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RUNNING);
}

Test(wired, deleting_a_volcano_job_takes_its_tasks_and_podgroup)
{
	running_job(1, NULL, NULL);
	CT_SEND_OK(VS_CMD_VJOB_DEL, ct_put_key(__n, VS_A_VJOB, "ns", "tf"));
	cr_assert_eq(ct.cl.nr_vjobs + ct.cl.nr_jobs + ct.cl.nr_tasks, 0);
	cr_assert_eq(vs_res_get(&vs_node_find(&ct.cl, "n1")->used, VS_RES_CPU), 0);
	cr_assert_eq(heard.pg_removing, 1);
}

Test(wired, volcano_job_admission_refuses_and_changes_nothing)
{
	node("n1", 8000);
	cr_assert_eq(ct_send(vjob_req("tf", NULL, 1, NULL, NULL)), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "vjob ns/tf: job ns/tf: unable to find job queue: "
			 "queue default does not exist");
	queue_new("root", NULL);
	queue_new("parent", "root");
	queue_new("leaf", "parent");
	cr_assert_eq(ct_send(vjob_req("tf", "parent", 1, NULL, NULL)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "vjob ns/tf: job ns/tf: can only submit job to leaf "
			 "queue, queue `parent` has 1 child queues");
	cr_assert(ct.ext.has_offs);
	cr_assert_eq(ct.cl.nr_vjobs + ct.cl.nr_jobs, 0);
	CT_OK(vjob_req("tf", "leaf", 1, NULL, NULL));
	cr_assert_str_eq(vs_job_find(&ct.cl, "ns", "tf")->queue->name, "leaf");
}

Test(wired, clients_cannot_add_tasks_to_a_volcano_jobs_podgroup)
{
	cluster_with_job(1, NULL, NULL);
	cr_assert_eq(SEND(VS_CMD_TASK_NEW, ct_put_task(__n, "intruder", "tf", 100, NULL, 0)),
		     -EPERM);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/intruder: pod ns/intruder: podgroup tf belongs "
			 "to job ns/tf, whose tasks the job controller makes");
	cr_assert_null(ct_task("intruder"));
}

/* ---- commands ---- */

Test(wired, job_commands_reach_the_job_controller)
{
	running_job(2, NULL, NULL);
	cr_assert_eq(job_command("tf", VS_ACTION_RESTART_POD, "worker", "tf-worker-1"), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_null(ct_task("tf-worker-1"));
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RESTARTING);
	cr_assert_eq(vjob_u32("tf", VS_VJOB_A_RETRY_COUNT), 1);
	ct_cycle();
	cr_assert_not_null(ct_task("tf-worker-1"), "made again");

	cr_assert_eq(job_command("tf", VS_ACTION_ABORT_JOB, NULL, NULL), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_ABORTING);
	cr_assert_eq(ct.cl.nr_tasks, 0, "nothing had finished: nothing is kept");
	ct_cycle();
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_ABORTED);
	cr_assert_eq(job_command("tf", VS_ACTION_RESUME_JOB, NULL, NULL), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_RESTARTING);
	cr_assert_eq(vjob_u32("tf", VS_VJOB_A_RETRY_COUNT), 2);
	CT_OK(command(VS_CMD_VJOB_COMMAND, "ns", "tf", VS_ACTION_SYNC_JOB, NULL, NULL));
}

Test(wired, job_commands_are_refused_with_a_reason)
{
	struct nlmsghdr *nlh;

	cluster_with_job(1, NULL, NULL);

	/* an unknown job, pointing at the command */
	nlh = command(VS_CMD_VJOB_COMMAND, "ns", "nope", VS_ACTION_ABORT_JOB, NULL, NULL);
	cr_assert_eq(ct_send(nlh), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "job ns/nope not found");
	cr_assert(ct.ext.has_offs);
	cr_assert_eq(ct.ext.offs, FIRST_ATTR);

	/* the policy: job actions only, the key required */
	cr_assert_eq(job_command("tf", VS_ACTION_OPEN_QUEUE, NULL, NULL), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "command.action (VS_COMMAND_A_ACTION): 10 is out of "
			 "range 0..8");
	cr_assert_eq(job_command("tf", 99, NULL, NULL), -EINVAL);
	cr_assert_eq(ct_send(command(VS_CMD_VJOB_COMMAND, NULL, "tf", VS_ACTION_ABORT_JOB, NULL,
				     NULL)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "command.namespace (VS_COMMAND_A_NAMESPACE): required "
			 "but missing");
	cr_assert_eq(ct_send(command(VS_CMD_VJOB_COMMAND, "ns", "tf", -1, NULL, NULL)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "command.action (VS_COMMAND_A_ACTION): required but "
			 "missing");

	/* the controller: targets the action does not take, or the job does not have */
	cr_assert_eq(job_command("tf", VS_ACTION_RESTART_TASK, NULL, NULL), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "job ns/tf: RestartTask needs a task");
	cr_assert_eq(job_command("tf", VS_ACTION_RESTART_TASK, "chief", NULL), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "job ns/tf: no task \"chief\"");
	cr_assert_eq(job_command("tf", VS_ACTION_RESTART_POD, "worker", "tf-worker-7"), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "job ns/tf: task worker has no pod \"tf-worker-7\"");
	cr_assert_eq(job_command("tf", VS_ACTION_ABORT_JOB, "worker", NULL), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "job ns/tf: AbortJob takes no task or pod");
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_PENDING, "a refused command changed it");

	/* the admin's; and not in a batch */
	ct.ctx.admin = false;
	cr_assert_eq(job_command("tf", VS_ACTION_ABORT_JOB, NULL, NULL), -EPERM);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_VJOB_COMMAND needs the admin permission (root "
			 "or the admin group)");
	ct.ctx.admin = true;
	CT_OK(ct_req(VS_CMD_BATCH_BEGIN, 0));
	cr_assert_eq(job_command("tf", VS_ACTION_ABORT_JOB, NULL, NULL), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_VJOB_COMMAND cannot be in a batch: only NEW, SET "
			 "and DEL of objects, VS_CMD_TASK_STATUS and VS_CMD_BIND_RESULT may be");
	vs_nl_batch_release(&ct.batch);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_PENDING);
}

Test(wired, queue_commands_open_and_close_queues)
{
	node("n1", 8000);
	queue_new("root", NULL);
	queue_new("default", NULL);
	queue_new("q1", NULL);
	queue_new("q1a", "q1");
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "pg", "q1a", 1));

	/* closing: the children too; one with PodGroups is Closing until they go */
	cr_assert_eq(queue_command("q1", VS_ACTION_CLOSE_QUEUE), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(queue_state("q1"), VS_QUEUE_CLOSED);
	cr_assert_eq(queue_state("q1a"), VS_QUEUE_CLOSING);
	cr_assert_eq(heard.queue_changed, 2);

	/* a closed queue admits nothing new */
	cr_assert_eq(SEND(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "pg2", "q1a", 1)), -EPERM);
	cr_assert_str_eq(ct.ext.err.msg, "podgroup ns/pg2: can only submit PodGroup to queue with "
			 "state `Open`, queue `q1a` status is `Closing`");
	cr_assert(ct.ext.has_offs);
	cr_assert_eq(ct_send(vjob_req("tf", "q1a", 1, NULL, NULL)), -EPERM);
	cr_assert_str_eq(ct.ext.err.msg, "vjob ns/tf: job ns/tf: can only submit job to queue with "
			 "state `Open`, queue `q1a` status is `Closing`");

	/* a queue with PodGroups cannot go; its last PodGroup going closes it */
	cr_assert_eq(SEND(VS_CMD_QUEUE_DEL, ct_put_key(__n, VS_A_QUEUE, NULL, "q1a")), -EBUSY);
	CT_SEND_OK(VS_CMD_PODGROUP_DEL, ct_put_key(__n, VS_A_PODGROUP, "ns", "pg"));
	cr_assert_eq(queue_state("q1a"), VS_QUEUE_CLOSED);

	/* a new child of a closed queue is closed with it */
	queue_new("q1b", "q1");
	cr_assert_eq(queue_state("q1b"), VS_QUEUE_CLOSED);
	cr_assert(vs_queue_find(&ct.cl, "q1b")->closed_by_parent);

	/* opening opens again the children it closed */
	cr_assert_eq(queue_command("q1", VS_ACTION_OPEN_QUEUE), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(queue_state("q1"), VS_QUEUE_OPEN);
	cr_assert_eq(queue_state("q1a"), VS_QUEUE_OPEN);
	cr_assert_eq(queue_state("q1b"), VS_QUEUE_OPEN);
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "pg2", "q1a", 1));
}

Test(wired, queue_commands_are_refused_with_a_reason)
{
	queue_new("root", NULL);
	queue_new("q1", NULL);
	queue_new("q1a", "q1");

	cr_assert_eq(queue_command("nope", VS_ACTION_CLOSE_QUEUE), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "queue nope not found");
	cr_assert(ct.ext.has_offs);
	cr_assert_eq(queue_command("q1", VS_ACTION_ABORT_JOB), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "command.action (VS_COMMAND_A_ACTION): 0 is out of range "
			 "10..11");
	cr_assert_eq(queue_command("q1", VS_ACTION_SYNC_QUEUE), -EINVAL);
	cr_assert_eq(ct_send(command(VS_CMD_QUEUE_COMMAND, "ns", "q1", VS_ACTION_CLOSE_QUEUE,
				     NULL, NULL)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "command.namespace (VS_COMMAND_A_NAMESPACE): not taken "
			 "by this command");
	cr_assert_eq(queue_command("root", VS_ACTION_CLOSE_QUEUE), -EPERM);
	cr_assert_str_eq(ct.ext.err.msg, "queue root: the root queue cannot be closed");
	cr_assert_eq(queue_command("q1", VS_ACTION_CLOSE_QUEUE), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(queue_command("q1a", VS_ACTION_OPEN_QUEUE), -EPERM);
	cr_assert_str_eq(ct.ext.err.msg, "queue q1a: cannot open queue q1a because its parent "
			 "queue q1 is closing or closed; open the parent queue first");
	cr_assert_eq(queue_state("q1a"), VS_QUEUE_CLOSED);

	ct.ctx.admin = false;
	cr_assert_eq(queue_command("q1", VS_ACTION_OPEN_QUEUE), -EPERM);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_QUEUE_COMMAND needs the admin permission (root "
			 "or the admin group)");
	cr_assert_eq(queue_state("q1"), VS_QUEUE_CLOSED);
}

/* ---- bare tasks ---- */

/* VS_CMD_TASK_NEW of ns/@name without a PodGroup, in @queue if not NULL. */
static int bare_task(const char *name, const char *pg, const char *queue)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_TASK_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_TASK);

	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, name);
	if (pg)
		mnl_attr_put_strz(nlh, VS_TASK_A_PODGROUP, pg);
	if (queue)
		mnl_attr_put_strz(nlh, VS_TASK_A_QUEUE, queue);
	ct_put_res(nlh, VS_TASK_A_REQUEST, 500, 64 * CT_MI, -1);
	mnl_attr_nest_end(nlh, n);
	return ct_send(nlh);
}

Test(wired, a_bare_task_gets_a_podgroup_of_its_own)
{
	const struct vs_job *pg;

	node("n1", 8000);
	cr_assert_eq(bare_task("p0", NULL, NULL), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/p0: pod ns/p0: unable to find queue: queue "
			 "default does not exist");
	cr_assert_eq(ct.cl.nr_jobs + ct.cl.nr_tasks, 0);
	queue_new("default", NULL);
	queue_new("q1", NULL);

	cr_assert_eq(bare_task("p0", NULL, "q1"), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(bare_task("p1", NULL, NULL), 0, "%s", ct.ext.err.msg);
	cr_assert_str_eq(podgroups(), "podgroup-p0 podgroup-p1");
	pg = vs_job_find(&ct.cl, "ns", "podgroup-p0");
	cr_assert_eq(pg->min_member, 1);
	cr_assert_str_eq(pg->queue->name, "q1");
	cr_assert_eq(vs_res_get(&pg->min_resources, VS_RES_CPU), 500);
	cr_assert_str_eq(vs_job_find(&ct.cl, "ns", "podgroup-p1")->queue->name, "default");
	cr_assert_str_eq(tasks_of("podgroup-p0"), "p0");
	cr_assert_eq(heard.pg_added, 2);

	/* a task that names its PodGroup keeps it; the queue annotation is not read then */
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "pg", NULL, 1));
	cr_assert_eq(bare_task("p2", "pg", "q1"), 0, "%s", ct.ext.err.msg);
	cr_assert_str_eq(ct_task("p2")->job->queue->name, "default");

	/* scheduled as any PodGroup of one */
	ct_cycle();
	ct_cycle();
	cr_assert_eq(ct_task("p0")->status, VS_TASK_BINDING);

	/* it goes with its task, deleted or reported gone */
	CT_SEND_OK(VS_CMD_TASK_DEL, ct_put_key(__n, VS_A_TASK, "ns", "p0"));
	cr_assert_null(vs_job_find(&ct.cl, "ns", "podgroup-p0"));
	cr_assert_eq(ct_report("p1", VS_TASK_EVENT_DELETED, 0), 0, "%s", ct.ext.err.msg);
	cr_assert_str_eq(podgroups(), "pg");
	cr_assert_eq(heard.pg_removing, 2);
}

/* VS_CMD_TASK_NEW of ns/@name as a pod arrives: owner @uid, scheduler @sched, on @node. */
static int pod(const char *name, const char *uid, const char *sched, const char *node,
	       const char *class, bool admit)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_TASK_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_TASK);

	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, name);
	if (uid)
		mnl_attr_put_strz(nlh, VS_TASK_A_OWNER_UID, uid);
	if (sched)
		mnl_attr_put_strz(nlh, VS_TASK_A_SCHEDULER, sched);
	if (node) {
		mnl_attr_put_u32(nlh, VS_TASK_A_STATUS, VS_TASK_STATUS_RUNNING);
		mnl_attr_put_strz(nlh, VS_TASK_A_NODE, node);
	}
	if (class)
		mnl_attr_put_strz(nlh, VS_TASK_A_PRIORITY_CLASS, class);
	if (admit)
		mnl_attr_put(nlh, VS_TASK_A_ADMIT, 0, NULL);
	ct_put_res(nlh, VS_TASK_A_REQUEST, 500, 64 * CT_MI, -1);
	mnl_attr_nest_end(nlh, n);
	return ct_send(nlh);
}

Test(wired, the_pods_of_an_owner_share_the_podgroup_named_after_it)
{
	queue_new("default", NULL);
	cr_assert_eq(pod("web-1", "c0ffee-1", NULL, NULL, NULL, false), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(pod("web-2", "c0ffee-1", NULL, NULL, NULL, false), 0, "%s", ct.ext.err.msg);
	cr_assert_str_eq(podgroups(), "podgroup-c0ffee-1");
	cr_assert_str_eq(tasks_of("podgroup-c0ffee-1"), "web-1 web-2");
	cr_assert_str_eq(ct_task("web-1")->owner_uid, "c0ffee-1");
	CT_SEND_OK(VS_CMD_TASK_DEL, ct_put_key(__n, VS_A_TASK, "ns", "web-1"));
	cr_assert_str_eq(podgroups(), "podgroup-c0ffee-1");
	cr_assert_eq(ct_report("web-2", VS_TASK_EVENT_DELETED, 0), 0, "%s", ct.ext.err.msg);
	cr_assert_str_eq(podgroups(), "", "collected with the last of its pods");
	cr_assert_eq(heard.pg_added, 1);
	cr_assert_eq(heard.pg_removing, 1);
}

Test(wired, pods_of_other_schedulers_are_accounted_on_their_nodes_only)
{
	const struct vs_job *pg;

	node("n1", 8000);
	queue_new("default", NULL);
	cr_assert_eq(pod("kp", NULL, "default-scheduler", NULL, NULL, false), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/kp: pod ns/kp: a pod of scheduler "
			 "\"default-scheduler\" (this one is \"volcano\") is on no node: its own "
			 "scheduler places it");
	cr_assert_eq(ct.cl.nr_jobs + ct.cl.nr_tasks, 0);
	cr_assert_eq(pod("kp", "abc", "default-scheduler", "n1", NULL, false), 0, "%s",
		     ct.ext.err.msg);
	pg = vs_job_find(&ct.cl, "ns", "podgroup-abc");
	cr_assert_not_null(pg);
	cr_assert_not(pg->has_min_resources, "the shadow PodGroup");
	cr_assert_eq(vs_res_get(&vs_node_find(&ct.cl, "n1")->used, VS_RES_CPU), 500);

	/* the daemon's own name is its --scheduler-name */
	ct.core.scheduler = "batch";
	cr_assert_eq(pod("vp", NULL, "volcano", NULL, NULL, false), -EINVAL);
	cr_assert_eq(pod("bp", NULL, "batch", NULL, NULL, false), 0, "%s", ct.ext.err.msg);
	cr_assert(vs_job_find(&ct.cl, "ns", "podgroup-bp")->has_min_resources);
}

Test(wired, admission_gives_a_created_pod_its_priority)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_PRIOCLASS_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_PRIOCLASS);

	mnl_attr_put_strz(nlh, VS_PC_A_NAME, "base");
	mnl_attr_put_u32(nlh, VS_PC_A_VALUE, 50);
	mnl_attr_put_u8(nlh, VS_PC_A_GLOBAL_DEFAULT, 1);
	mnl_attr_nest_end(nlh, n);
	CT_OK(nlh);
	queue_new("default", NULL);
	cr_assert_eq(pod("a", NULL, NULL, NULL, NULL, true), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("a")->priority, 50);
	cr_assert_str_eq(ct_task("a")->priority_class, "base");
	cr_assert_eq(pod("b", NULL, NULL, NULL, "nope", true), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/b: pod ns/b: no PriorityClass \"nope\"");
	/* not asked: taken as it is, Volcano's 1 */
	cr_assert_eq(pod("c", NULL, NULL, NULL, NULL, false), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("c")->priority, 1);
	cr_assert_null(ct_task("c")->priority_class);
	cr_assert_eq(ct.cl.nr_tasks, 2);
}

Test(wired, a_bare_task_in_a_closed_queue_is_refused_and_leaves_nothing)
{
	queue_new("default", NULL);
	queue_new("q1", NULL);
	cr_assert_eq(queue_command("q1", VS_ACTION_CLOSE_QUEUE), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(bare_task("p0", NULL, "q1"), -EPERM);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/p0: pod ns/p0: can only submit PodGroup to "
			 "queue with state `Open`, queue `q1` status is `Closed`");
	cr_assert_eq(ct.cl.nr_jobs + ct.cl.nr_tasks, 0);
}

/* ---- reset ---- */

Test(wired, reset_forgets_the_controllers_state_with_the_objects)
{
	running_job(1, "PodFailed", "RestartJob");
	cr_assert_eq(ct_report("tf-worker-0", VS_TASK_EVENT_FAILED, 0), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(vjob_u32("tf", VS_VJOB_A_RETRY_COUNT), 1);
	CT_OK(ct_req(VS_CMD_RESET, 0));
	cr_assert_eq(ct.cl.nr_vjobs + ct.cl.nr_jobs + ct.cl.nr_tasks + ct.cl.nr_queues, 0);

	/* the same job again starts afresh */
	cluster_with_job(1, NULL, NULL);
	cr_assert_eq(vjob_phase("tf"), VS_VJOB_PHASE_PENDING);
	cr_assert_eq(vjob_u32("tf", VS_VJOB_A_RETRY_COUNT), 0);
	ct_cycle();
	cr_assert_str_eq(tasks_of("tf"), "tf-ps-0 tf-worker-0");
}
