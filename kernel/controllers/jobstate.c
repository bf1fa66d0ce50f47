// SPDX-License-Identifier: Apache-2.0
/*
 * The job controller's state machine (Volcano's pkg/controllers/job/state):
 * which operation a (phase, action) pair runs, with which of the status
 * functions, and those functions. The operations themselves are in
 * jobctl.c. The table, phase by phase:
 *
 *   Pending, Running  RestartJob: KillJob(none) -> Restarting, retry+1
 *                     RestartTask, RestartPod: KillTarget -> Restarting, retry+1
 *                     AbortJob / CompleteJob / TerminateJob: KillJob(keep
 *                       finished) -> Aborting / Completing / Terminating
 *                     anything else: SyncJob (Pending's or Running's function)
 *   Restarting        SyncJob: SyncJob; RestartTask, RestartPod: KillTarget;
 *                     anything else: KillJob(none); all with Restarting's function
 *   Aborting          ResumeJob: KillJob(keep) -> Restarting, retry+1;
 *                     else KillJob(keep) -> Aborted when nothing is alive
 *   Aborted           ResumeJob: as Aborting's; else KillJob(keep), phase stays
 *   Completing        anything: KillJob(keep) -> Completed when nothing is alive
 *   Terminating       anything: KillJob(keep) -> Terminated when nothing is alive
 *   Completed, Terminated, Failed: anything: KillJob(keep), phase stays
 */
#include "controllers/jobstate.h"
#include "core/log.h"

static void step(struct vs_jc_step *s, enum vs_jc_op op, bool keep, enum vs_jc_update update)
{
	s->op = op;
	s->keep_finished = keep;
	s->update = update;
}

/* Pending and Running differ only in what their SyncJob checks. */
static void pending_or_running(enum vs_vjob_action action, enum vs_jc_update sync_update,
			       struct vs_jc_step *s)
{
	switch (action) {
	case VS_ACT_RESTART_JOB:
		step(s, VS_JC_KILL, false, VS_JC_UPD_RESTART);
		break;
	case VS_ACT_RESTART_TASK:
	case VS_ACT_RESTART_POD:
		step(s, VS_JC_KILL_TARGET, false, VS_JC_UPD_RESTART);
		break;
	case VS_ACT_ABORT_JOB:
		step(s, VS_JC_KILL, true, VS_JC_UPD_ABORT);
		break;
	case VS_ACT_COMPLETE_JOB:
		step(s, VS_JC_KILL, true, VS_JC_UPD_COMPLETE);
		break;
	case VS_ACT_TERMINATE_JOB:
		step(s, VS_JC_KILL, true, VS_JC_UPD_TERMINATE);
		break;
	default:
		step(s, VS_JC_SYNC, false, sync_update);
		break;
	}
}

void vs_jc_step_of(enum vs_vjob_phase phase, enum vs_vjob_action action, struct vs_jc_step *s)
{
	switch (phase) {
	case VS_VJOB_RUNNING:
		pending_or_running(action, VS_JC_UPD_RUNNING, s);
		break;
	case VS_VJOB_RESTARTING:
		if (action == VS_ACT_SYNC_JOB)
			step(s, VS_JC_SYNC, false, VS_JC_UPD_RESTARTING);
		else if (action == VS_ACT_RESTART_TASK || action == VS_ACT_RESTART_POD)
			step(s, VS_JC_KILL_TARGET, false, VS_JC_UPD_RESTARTING);
		else
			step(s, VS_JC_KILL, false, VS_JC_UPD_RESTARTING);
		break;
	case VS_VJOB_ABORTING:
		step(s, VS_JC_KILL, true,
		     action == VS_ACT_RESUME_JOB ? VS_JC_UPD_RESTART : VS_JC_UPD_ABORTING);
		break;
	case VS_VJOB_ABORTED:
		step(s, VS_JC_KILL, true, action == VS_ACT_RESUME_JOB ? VS_JC_UPD_RESTART : VS_JC_UPD_NONE);
		break;
	case VS_VJOB_COMPLETING:
		step(s, VS_JC_KILL, true, VS_JC_UPD_COMPLETING);
		break;
	case VS_VJOB_TERMINATING:
		step(s, VS_JC_KILL, true, VS_JC_UPD_TERMINATING);
		break;
	case VS_VJOB_COMPLETED:
	case VS_VJOB_TERMINATED:
	case VS_VJOB_FAILED:
		step(s, VS_JC_KILL, true, VS_JC_UPD_NONE);
		break;
	case VS_VJOB_PENDING:
	default:
		/* Volcano's NewState: an unknown phase is Pending. */
		pending_or_running(action, VS_JC_UPD_PENDING, s);
		break;
	}
}

u32 vs_jc_total_replicas(const struct vs_vjob *vjob)
{
	u32 n = 0;

	for (u32 i = 0; i < vjob->nr_tasks; i++)
		n += vjob->tasks[i].replicas;
	return n;
}

static bool set_phase(struct vs_jc_status *st, enum vs_vjob_phase phase)
{
	st->phase = phase;
	return true;
}

/*
 * Running's SyncJob function. vsched's VolcanoJob has no minSuccess, so
 * only its absent branches remain: when every replica finished, the job
 * fails if a task group has fewer successes than its minAvailable (checked
 * only when the job's minAvailable covers the groups'), and otherwise
 * completes when minAvailable tasks succeeded. A job that has more pending
 * tasks than it can spare goes back to Pending.
 */
static bool running_update(const struct vs_vjob *vjob, struct vs_jc_status *st)
{
	s64 replicas = vs_jc_total_replicas(vjob), task_min = 0;

	if (!replicas)
		return false;
	for (u32 i = 0; i < vjob->nr_tasks; i++)
		task_min += vjob->tasks[i].min_available;

	if ((s64)st->s.succeeded + st->s.failed == replicas) {
		if (vjob->min_available >= task_min) {
			for (u32 i = 0; i < vjob->nr_tasks; i++) {
				const struct vs_vjob_task *vt = &vjob->tasks[i];
				bool seen;
				u32 ok = vs_jc_task_succeeded(vjob, vt, &seen);

				if (seen && ok < vt->min_available)
					return set_phase(st, VS_VJOB_FAILED);
			}
		}
		return set_phase(st, st->s.succeeded >= vjob->min_available ?
				 VS_VJOB_COMPLETED : VS_VJOB_FAILED);
	}
	if ((s64)st->s.pending > replicas - vjob->min_available)
		return set_phase(st, VS_VJOB_PENDING);
	return false;
}

/* Restarting's function: out of retries fails; else Pending once enough are back. */
static bool restarting_update(const struct vs_vjob *vjob, struct vs_jc_status *st)
{
	if (st->retry_count >= vjob->max_retry)
		return set_phase(st, VS_VJOB_FAILED);
	if ((s64)vs_jc_total_replicas(vjob) - st->s.terminating >= (s64)st->s.min_available)
		return set_phase(st, VS_VJOB_PENDING);
	return false;
}

/* Aborting's, Completing's and Terminating's: done once no task is alive. */
static bool settle(struct vs_jc_status *st, enum vs_vjob_phase done)
{
	if (st->s.terminating || st->s.pending || st->s.running)
		return false;
	return set_phase(st, done);
}

bool vs_jc_update_status(const struct vs_vjob *vjob, enum vs_jc_update update,
			 struct vs_jc_status *st)
{
	switch (update) {
	case VS_JC_UPD_NONE:
		return false;
	case VS_JC_UPD_PENDING:
		if (vjob->min_available <= (u64)st->s.running + st->s.succeeded + st->s.failed)
			return set_phase(st, VS_VJOB_RUNNING);
		return false;
	case VS_JC_UPD_RUNNING:
		return running_update(vjob, st);
	case VS_JC_UPD_RESTARTING:
		return restarting_update(vjob, st);
	case VS_JC_UPD_RESTART:
		st->retry_count++;
		return set_phase(st, VS_VJOB_RESTARTING);
	case VS_JC_UPD_ABORT:
		return set_phase(st, VS_VJOB_ABORTING);
	case VS_JC_UPD_COMPLETE:
		return set_phase(st, VS_VJOB_COMPLETING);
	case VS_JC_UPD_TERMINATE:
		return set_phase(st, VS_VJOB_TERMINATING);
	case VS_JC_UPD_ABORTING:
		return settle(st, VS_VJOB_ABORTED);
	case VS_JC_UPD_COMPLETING:
		return settle(st, VS_VJOB_COMPLETED);
	case VS_JC_UPD_TERMINATING:
		return settle(st, VS_VJOB_TERMINATED);
	}
	return false;
}

int vs_jc_execute(struct vs_ctl *ctl, struct vs_vjob *vjob, enum vs_vjob_action action,
		  const struct vs_jc_target *target, struct vs_err *err)
{
	struct vs_jc_target tg = { NULL, NULL };
	struct vs_jc_step s;

	vs_jc_step_of(vjob->phase, action, &s);
	vs_v(3, "Execute <%s> on Job <%s/%s> in <%s>", vs_vjob_action_name(action),
	     vjob->ns, vjob->name, vs_vjob_phase_name(vjob->phase));
	switch (s.op) {
	case VS_JC_SYNC:
		return vs_jc_sync(ctl, vjob, s.update, err);
	case VS_JC_KILL:
		vs_jc_kill(ctl, vjob, s.keep_finished, NULL, s.update);
		return 0;
	case VS_JC_KILL_TARGET:
		/* GetStateAction: RestartTask aims at the group, RestartPod at one task */
		if (target) {
			tg.vt = target->vt;
			tg.pod = action == VS_ACT_RESTART_POD ? target->pod : NULL;
		}
		vs_jc_kill(ctl, vjob, false, &tg, s.update);
		return 0;
	}
	return 0;
}
