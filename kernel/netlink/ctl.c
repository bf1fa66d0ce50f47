// SPDX-License-Identifier: Apache-2.0
/*
 * The control commands: the configuration, cycles, statistics,
 * subscriptions and RESET. See ctl.h.
 *
 * The configuration in force is the scheduler's (core->sched->conf); its
 * text is the one it was parsed from, so VS_CMD_CONF_GET answers with
 * exactly what VS_CMD_CONF_SET (or the daemon's --conf file) gave, comments
 * and layout included. A refused configuration leaves the one in force.
 */
#include <libmnl/libmnl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "netlink/ctl.h"
#include "netlink/ctlconf.h"
#include "netlink/fill.h"
#include "netlink/handlers.h"
#include "netlink/parse.h"
#include "netlink/writeback.h"
#include "sched/framework.h"
#include "sched/session.h"
#include "vsched/vsched.h"

/* What a nest holds at most: its 16-bit nla_len counts its header. */
#define VS_NL_NEST_MAX		0xffff

/* Where a configuration names itself when VS_CONF_A_SOURCE does not: Volcano's file. */
#define VS_NL_CONF_SOURCE	"volcano-scheduler.conf"

static struct vs_nl_core *core_of(const struct vs_genl_info *info)
{
	return info->ctx->priv;
}

static int no_sched(struct vs_genl_info *info)
{
	return vs_extack_fail(info->extack, EOPNOTSUPP,
			      "%s: no scheduler here (only objects are served)", info->op->name);
}

int vs_nl_refuse(struct vs_genl_info *info, const struct nlattr *attr, int errnum,
		 const char *fmt, ...)
{
	va_list ap;

	if (attr)
		vs_extack_set_attr(info->extack, info->nlh, attr);
	if (!info->extack->err.msg[0]) {
		va_start(ap, fmt);
		vsnprintf(info->extack->err.msg, sizeof(info->extack->err.msg), fmt, ap);
		va_end(ap);
	}
	return vs_extack_fail(info->extack, errnum, "%s failed", info->op->name);
}

static u32 clamp_u32(u64 v)
{
	return v > UINT32_MAX ? UINT32_MAX : (u32)v;
}

u32 vs_nl_period_ms(const struct vs_nl_core *core)
{
	if (core->ctl.period_ms || core->ctl.on_request)
		return core->ctl.period_ms;
	return VS_NL_PERIOD_DEFAULT_MS;
}

/* ---- cycles ---- */

u64 vs_nl_now_ns(const struct vs_nl_core *core)
{
	return core->clock_ns ? core->clock_ns() : vs_mono_ns();
}

static u32 nr_pending(const struct vs_cluster *cl)
{
	const struct vs_job *job;
	u64 n = 0;

	list_for_each_entry(job, &cl->jobs, list)
		n += job->nr_by_status[VS_TASK_PENDING];
	return clamp_u32(n);
}

/* Label discovery before a cycle; a failure is the controller's, logged, tried again. */
static void topology_sync(struct vs_nl_core *core)
{
	struct vs_err e = { { 0 } };

	if (vs_nl_topology_sync(core, &e))
		vs_warn("%s", e.msg);
}

int vs_nl_cycle_run(struct vs_nl_core *core, struct vs_err *err)
{
	struct vs_nl_cycle *cy = &core->ctl.last_cycle;
	struct vs_sched *sched = core->sched;
	struct vs_sched_stats before;
	const struct vs_conf *conf;
	struct vs_session *ssn;
	struct vs_ctl ctl;
	u64 start = vs_mono_ns();
	int ret;

	if (!sched)
		return vs_err_set(err, EOPNOTSUPP, "no scheduler here: a cycle needs one");
	before = sched->stats;
	/* The HyperNodes the nodes' labels make, as the session will see them. */
	topology_sync(core);
	/* Tasks whose bind failed wait out their backoff on this clock. */
	sched->now_ns = vs_nl_now_ns(core);
	ret = vs_session_open(sched, &ssn, err);
	if (ret)
		return ret;
	vs_nl_events_cycle_begin(core, ssn);
	memset(cy, 0, sizeof(*cy));
	cy->id = ssn->cycle;
	conf = sched->conf;
	ret = vs_session_run_actions(ssn, err);
	/* The actions that ran: all of them, or up to the one that failed. */
	for (u32 i = 0; i < ssn->nr_actions_run && i < VS_NL_CYCLE_ACTIONS; i++) {
		struct vs_nl_action_stat *a = &cy->actions[cy->nr_actions++];

		snprintf(a->name, sizeof(a->name), "%s", conf->actions[i]);
		a->duration_ns = ssn->action_ns[i];
	}
	vs_session_close(ssn);
	vs_nl_events_cycle_end(core);
	vs_nl_writeback_queues(core);
	cy->duration_ns = vs_mono_ns() - start;
	cy->binds = clamp_u32(sched->stats.binds - before.binds);
	cy->evicts = clamp_u32(sched->stats.evicts - before.evicts);
	/*
	 * What stands in for Volcano's PodGroup informer: the jobs whose
	 * PodGroup the session admitted get their tasks, and follow its
	 * phase; Closing queues whose PodGroups are gone close. A job that
	 * cannot sync (its queue is gone) is logged by the controller (at
	 * verbosity 2) and tried again after the next cycle: the cycle itself
	 * went well, and its answer says so.
	 */
	vs_nl_ctl_init(core, &ctl);
	vs_ctl_after_cycle(&ctl, NULL);
	cy->pending = nr_pending(sched->cl);	/* the tasks just made wait too */
	core->ctl.recent[core->ctl.recent_next] = *cy;
	core->ctl.recent_next = (core->ctl.recent_next + 1) % VS_NL_RECENT_CYCLES;
	if (core->ctl.nr_recent < VS_NL_RECENT_CYCLES)
		core->ctl.nr_recent++;
	return ret;
}

bool vs_nl_put_cycle(struct nlmsghdr *nlh, size_t cap, u16 type, const struct vs_nl_cycle *cy)
{
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, cap, type), *a;

	if (!nest)
		return false;
	if (!mnl_attr_put_u64_check(nlh, cap, VS_CYCLE_A_ID, cy->id) ||
	    !mnl_attr_put_u64_check(nlh, cap, VS_CYCLE_A_DURATION_NS, cy->duration_ns) ||
	    !mnl_attr_put_u32_check(nlh, cap, VS_CYCLE_A_BINDS, cy->binds) ||
	    !mnl_attr_put_u32_check(nlh, cap, VS_CYCLE_A_EVICTS, cy->evicts) ||
	    !mnl_attr_put_u32_check(nlh, cap, VS_CYCLE_A_PENDING, cy->pending))
		goto out_cancel;
	for (u32 i = 0; i < cy->nr_actions && i < VS_NL_CYCLE_ACTIONS; i++) {
		const struct vs_nl_action_stat *as = &cy->actions[i];

		a = mnl_attr_nest_start_check(nlh, cap, VS_CYCLE_A_ACTION);
		if (!a || !vs_nla_put_strz(nlh, cap, VS_ACTSTAT_A_NAME, as->name) ||
		    !mnl_attr_put_u64_check(nlh, cap, VS_ACTSTAT_A_DURATION_NS, as->duration_ns))
			goto out_cancel;
		mnl_attr_nest_end(nlh, a);
	}
	mnl_attr_nest_end(nlh, nest);
	return true;

out_cancel:
	mnl_attr_nest_cancel(nlh, nest);
	return false;
}

int vs_nl_cycle_reply(struct vs_genl_info *info, const struct vs_nl_cycle *cy)
{
	struct nlmsghdr *nlh = vs_genl_reply_put(info, 0);

	if (!nlh || !vs_nl_put_cycle(nlh, vs_nl_reply_room(info->reply, nlh), VS_A_CYCLE, cy))
		return vs_extack_fail(info->extack, EMSGSIZE, "the cycle does not fit the reply");
	vs_nl_reply_finish(info->reply, nlh);
	return 0;
}

int vs_nl_cycle_run_doit(struct vs_genl_info *info)
{
	struct vs_nl_core *core = core_of(info);
	size_t len = info->reply->len;
	int ret;

	/* The daemon's cycle sends decisions and confirms binds besides. */
	if (core->host && core->host->cycle_run) {
		ret = core->host->cycle_run(core, info);
		if (ret || info->reply->len != len)
			return ret;
		return vs_nl_cycle_reply(info, &core->ctl.last_cycle);
	}
	if (!core->sched)
		return no_sched(info);
	ret = vs_nl_cycle_run(core, &info->extack->err);
	if (ret)
		return vs_extack_fail(info->extack, ret, "the cycle failed");
	return vs_nl_cycle_reply(info, &core->ctl.last_cycle);
}

/* ---- the configuration ---- */

/* The size of a VS_A_CONF nest with a text and a source of these lengths, and the period. */
static size_t conf_nest_len(size_t text_len, size_t source_len)
{
	return NLA_HDRLEN + NLA_HDRLEN + NLA_ALIGN(text_len + 1) +
	       NLA_HDRLEN + NLA_ALIGN(source_len + 1) + NLA_HDRLEN + NLA_ALIGN(sizeof(u32));
}

int vs_nl_conf_put(const struct vs_nl_core *core, struct nlmsghdr *nlh, size_t cap,
		   bool request, struct vs_err *err)
{
	u32 period = vs_nl_period_ms(core);
	const struct vs_conf *conf = core->sched->conf;
	const char *source = conf->source ? conf->source : "", *text = conf->text;
	struct nlattr *nest;
	char *formatted = NULL;
	size_t len;
	int ret = 0;

	if (!text) {
		/* Built in code, not parsed: write it as YAML the parser reads back. */
		len = vs_conf_format(conf, NULL, 0);
		formatted = malloc(len + 1);
		if (!formatted)
			return vs_err_set(err, ENOMEM, "out of memory");
		vs_conf_format(conf, formatted, len + 1);
		text = formatted;
	}
	len = strlen(text);
	if (conf_nest_len(len, strlen(source)) > VS_NL_NEST_MAX) {
		ret = vs_err_set(err, EMSGSIZE, "the configuration in force (%zu bytes, from %s) "
				 "is larger than VS_A_CONF holds (%u bytes)", len, source,
				 VS_NL_NEST_MAX);
		goto out;
	}
	nest = mnl_attr_nest_start_check(nlh, cap, VS_A_CONF);
	if (!nest || !vs_nla_put_strz(nlh, cap, VS_CONF_A_TEXT, text) ||
	    (*source && !vs_nla_put_strz(nlh, cap, VS_CONF_A_SOURCE, source)) ||
	    ((period || !request) &&
	     !mnl_attr_put_u32_check(nlh, cap, VS_CONF_A_PERIOD_MS, period))) {
		if (nest)
			mnl_attr_nest_cancel(nlh, nest);
		ret = vs_err_set(err, EMSGSIZE, "the configuration (%zu bytes) does not fit the "
				 "message", len);
		goto out;
	}
	mnl_attr_nest_end(nlh, nest);
out:
	free(formatted);
	return ret;
}

int vs_nl_conf_get_doit(struct vs_genl_info *info)
{
	struct vs_nl_core *core = core_of(info);
	struct nlmsghdr *nlh;
	int ret;

	if (!core->sched)
		return no_sched(info);
	nlh = vs_genl_reply_put(info, 0);
	if (!nlh)
		return vs_extack_fail(info->extack, EMSGSIZE, "no room for the reply");
	ret = vs_nl_conf_put(core, nlh, vs_nl_reply_room(info->reply, nlh), false,
			     &info->extack->err);
	if (ret)
		return vs_extack_fail(info->extack, ret, "%s", info->extack->err.msg);
	vs_nl_reply_finish(info->reply, nlh);
	return 0;
}

int vs_nl_conf_set_doit(struct vs_genl_info *info)
{
	const struct nlattr *nest = info->attrs[VS_A_CONF], *tb[VS_CONF_A_MAX + 1];
	struct vs_nl_core *core = core_of(info);
	const char *text, *source = VS_NL_CONF_SOURCE;
	struct vs_conf_names names;
	struct vs_err *err = &info->extack->err;
	struct vs_conf *conf;
	bool check_only;
	size_t len;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_CONF_A_MAX);
	if (tb[VS_CONF_A_SOURCE] && !tb[VS_CONF_A_TEXT])
		return vs_nl_refuse(info, tb[VS_CONF_A_SOURCE], EINVAL, "conf.source "
				    "(VS_CONF_A_SOURCE): names a text, and none is given");
	if (!tb[VS_CONF_A_TEXT] && !tb[VS_CONF_A_PERIOD_MS])
		return vs_nl_refuse(info, nest, EINVAL, "conf: nothing to set: give the text "
				    "(VS_CONF_A_TEXT), the period (VS_CONF_A_PERIOD_MS) or both");
	if (tb[VS_CONF_A_SOURCE]) {
		source = mnl_attr_get_str(tb[VS_CONF_A_SOURCE]);
		if (!*source)
			return vs_nl_refuse(info, tb[VS_CONF_A_SOURCE], EINVAL,
					    "conf.source (VS_CONF_A_SOURCE): empty");
	}
	if (!core->sched)
		return no_sched(info);
	check_only = tb[VS_CONF_A_CHECK_ONLY];
	if (!tb[VS_CONF_A_TEXT])
		goto out_period;

	text = mnl_attr_get_str(tb[VS_CONF_A_TEXT]);
	len = strlen(text);
	/* What is set must be readable back. */
	if (conf_nest_len(len, strlen(source)) > VS_NL_NEST_MAX)
		return vs_nl_refuse(info, tb[VS_CONF_A_TEXT], EMSGSIZE,
				    "conf.text (VS_CONF_A_TEXT): %zu bytes with the source %s "
				    "leave VS_CMD_CONF_GET no room to answer (a VS_A_CONF nest "
				    "holds %u bytes)", len, source, VS_NL_NEST_MAX);
	vs_registry_names(core->sched->reg, &names);
	ret = vs_conf_parse(text, len, source, &names, VS_CONF_FLAGS_DEFAULT_ON, &conf, err);
	if (ret)
		return vs_nl_refuse(info, tb[VS_CONF_A_TEXT], ret, "%s: refused", source);
	if (check_only) {
		ret = vs_registry_check_conf(core->sched->reg, conf, err);
		vs_conf_free(conf);
	} else {
		ret = vs_sched_set_conf(core->sched, conf, err);	/* takes conf */
	}
	if (ret)
		return vs_nl_refuse(info, tb[VS_CONF_A_TEXT], ret, "%s: refused", source);
out_period:
	if (tb[VS_CONF_A_PERIOD_MS] && !check_only)
		core->ctl.period_ms = mnl_attr_get_u32(tb[VS_CONF_A_PERIOD_MS]);
	return 0;
}

/* ---- statistics ---- */

/* The resident set size from /proc/self/statm; false when it cannot be read. */
static bool rss_bytes(u64 *out)
{
	FILE *f = fopen("/proc/self/statm", "re");
	unsigned long size, resident;
	long page = sysconf(_SC_PAGESIZE);
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%lu %lu", &size, &resident) == 2 && page > 0;
	fclose(f);
	if (ok)
		*out = (u64)resident * (u64)page;
	return ok;
}

/* One pool as /proc/slabinfo shows a cache, and the memory of its slabs. */
static bool put_pool(struct nlmsghdr *nlh, size_t room, const struct vs_pool *pool)
{
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, room, VS_STATS_A_POOL);
	struct vs_pool_stats st;

	vs_pool_get_stats(pool, &st);
	if (!nest || !vs_nla_put_strz(nlh, room, VS_POOL_A_NAME, pool->name) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_POOL_A_OBJ_SIZE, clamp_u32(st.obj_size)) ||
	    !mnl_attr_put_u64_check(nlh, room, VS_POOL_A_ACTIVE, st.active_objs) ||
	    !mnl_attr_put_u64_check(nlh, room, VS_POOL_A_TOTAL, st.total_objs) ||
	    !mnl_attr_put_u64_check(nlh, room, VS_POOL_A_SLABS, st.nr_slabs) ||
	    !mnl_attr_put_u64_check(nlh, room, VS_POOL_A_BYTES, st.bytes))
		return false;
	mnl_attr_nest_end(nlh, nest);
	return true;
}

static bool put_kv(struct nlmsghdr *nlh, size_t room, const char *k, const char *v)
{
	struct nlattr *item = mnl_attr_nest_start_check(nlh, room, VS_LABELS_A_ITEM);

	if (!item || !vs_nla_put_strz(nlh, room, VS_KV_A_KEY, k) ||
	    !vs_nla_put_strz(nlh, room, VS_KV_A_VALUE, v))
		return false;
	mnl_attr_nest_end(nlh, item);
	return true;
}

/*
 * One histogram, with up to two labels (@k1 NULL: none); nothing when it
 * has no observation, as a Prometheus vector shows no series it never saw.
 */
static bool put_hist(struct nlmsghdr *nlh, size_t room, const char *name,
		     const struct vs_hist *h, const struct vs_hist_spec *spec,
		     const char *k1, const char *v1, const char *k2, const char *v2)
{
	struct nlattr *nest, *labels;

	if (!h->count)
		return true;
	nest = mnl_attr_nest_start_check(nlh, room, VS_STATS_A_HIST);
	if (!nest || !vs_nla_put_strz(nlh, room, VS_HIST_A_NAME, name))
		return false;
	if (k1) {
		labels = mnl_attr_nest_start_check(nlh, room, VS_HIST_A_LABELS);
		if (!labels || !put_kv(nlh, room, k1, v1) || (k2 && !put_kv(nlh, room, k2, v2)))
			return false;
		mnl_attr_nest_end(nlh, labels);
	}
	if (!mnl_attr_put_u32_check(nlh, room, VS_HIST_A_MIN_US, spec->min_us) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_HIST_A_MAX_US, spec->max_us) ||
	    !mnl_attr_put_u64_check(nlh, room, VS_HIST_A_COUNT, h->count) ||
	    !mnl_attr_put_u64_check(nlh, room, VS_HIST_A_SUM_NS, h->sum_ns))
		return false;
	for (u32 i = 0; i <= spec->nr; i++)
		if (!mnl_attr_put_u64_check(nlh, room, VS_HIST_A_BUCKET, h->bucket[i]))
			return false;
	mnl_attr_nest_end(nlh, nest);
	return true;
}

/* Volcano's scheduler metrics. */
static bool put_metrics(struct nlmsghdr *nlh, size_t room, const struct vs_metrics *m,
			const struct vs_registry *reg)
{
	static const struct {
		u16 type;
		size_t off;
	} counters[] = {
		{ VS_STATS_A_ATTEMPTS_SCHEDULED,
		  offsetof(struct vs_metrics, attempts[VS_ATTEMPT_SCHEDULED]) },
		{ VS_STATS_A_ATTEMPTS_UNSCHED,
		  offsetof(struct vs_metrics, attempts[VS_ATTEMPT_UNSCHEDULABLE]) },
		{ VS_STATS_A_PREEMPT_ATTEMPTS, offsetof(struct vs_metrics, preemption_attempts) },
		{ VS_STATS_A_PREEMPT_VICTIMS, offsetof(struct vs_metrics, preemption_victims) },
		{ VS_STATS_A_EVICT_TX_PREEMPT,
		  offsetof(struct vs_metrics, eviction_transactions[VS_EVICTION_PREEMPT]) },
		{ VS_STATS_A_EVICT_TX_RECLAIM,
		  offsetof(struct vs_metrics, eviction_transactions[VS_EVICTION_RECLAIM]) },
		{ VS_STATS_A_EVICT_TX_GANG_PREEMPT,
		  offsetof(struct vs_metrics, eviction_transactions[VS_EVICTION_GANG_PREEMPT]) },
		{ VS_STATS_A_EVICT_TX_GANG_RECLAIM,
		  offsetof(struct vs_metrics, eviction_transactions[VS_EVICTION_GANG_RECLAIM]) },
		{ VS_STATS_A_UNSCHED_JOBS, offsetof(struct vs_metrics, unschedulable_jobs) },
		{ VS_STATS_A_UNSCHED_TASKS, offsetof(struct vs_metrics, unschedulable_tasks) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
		u64 v;

		memcpy(&v, (const char *)m + counters[i].off, sizeof(v));
		if (!mnl_attr_put_u64_check(nlh, room, counters[i].type, v))
			return false;
	}
	if (!put_hist(nlh, room, "e2e_scheduling_latency_milliseconds", &m->e2e, &vs_hist_e2e,
		      NULL, NULL, NULL, NULL) ||
	    !put_hist(nlh, room, "open_session_duration_milliseconds", &m->open_session,
		      &vs_hist_e2e, NULL, NULL, NULL, NULL))
		return false;
	for (u32 i = 0; i < reg->nr_actions && i < VS_METRICS_ACTIONS_MAX; i++)
		if (!put_hist(nlh, room, "action_scheduling_latency_milliseconds", &m->action[i],
			      &vs_hist_action, "action", reg->actions[i]->name, NULL, NULL))
			return false;
	for (u32 i = 0; i < reg->nr_plugins && i < VS_METRICS_PLUGINS_MAX; i++) {
		const char *name = reg->plugins[i]->name;

		if (!put_hist(nlh, room, "plugin_scheduling_latency_milliseconds",
			      &m->plugin_open[i], &vs_hist_plugin, "plugin", name, "OnSession",
			      "OnSessionOpen") ||
		    !put_hist(nlh, room, "plugin_scheduling_latency_milliseconds",
			      &m->plugin_close[i], &vs_hist_plugin, "plugin", name, "OnSession",
			      "OnSessionClose"))
			return false;
	}
	return true;
}

/* The nodes' allocatable and used, summed: what vsctl top shows as utilisation. */
static bool put_usage(struct nlmsghdr *nlh, size_t room, const struct vs_cluster *cl)
{
	struct vs_res used = { .present = 0 };
	const struct vs_node *n;

	list_for_each_entry(n, &cl->nodes, list)
		vs_res_add(&used, &n->used);
	return vs_nl_put_res(nlh, room, &cl->dims, VS_STATS_A_ALLOCATABLE,
			     &cl->total_allocatable) &&
	       vs_nl_put_res(nlh, room, &cl->dims, VS_STATS_A_USED, &used);
}

static bool put_stats(struct nlmsghdr *nlh, size_t room, const struct vs_nl_core *core,
		      const struct vs_mem_cap *cap)
{
	const struct vs_cluster *cl = core->cl;
	const struct vs_pool *pools[] = {
		&cl->node_pool, &cl->queue_pool, &cl->job_pool, &cl->task_pool,
		&cl->vjob_pool, &cl->prioclass_pool, &cl->hypernode_pool, &cl->reqs.pool,
	};
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, room, VS_A_STATS);
	const struct vs_sched_stats *st = core->sched ? &core->sched->stats : NULL;
	u64 rss;

	if (!nest)
		return false;
	/* Without a scheduler there is no cycle to count. */
	if (st && (!mnl_attr_put_u64_check(nlh, room, VS_STATS_A_CYCLES, st->cycles) ||
		   !mnl_attr_put_u64_check(nlh, room, VS_STATS_A_BINDS, st->binds) ||
		   !mnl_attr_put_u64_check(nlh, room, VS_STATS_A_EVICTS, st->evicts) ||
		   !mnl_attr_put_u64_check(nlh, room, VS_STATS_A_DISCARDED_OPS,
					   st->discarded_ops)))
		return false;
	if (!mnl_attr_put_u64_check(nlh, room, VS_STATS_A_BIND_FAILURES, core->ctl.bind_failures) ||
	    !mnl_attr_put_u64_check(nlh, room, VS_STATS_A_CONN_REFUSED, core->ctl.conn_refused) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_STATS_A_NR_NODES, cl->nr_nodes) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_STATS_A_NR_QUEUES, cl->nr_queues) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_STATS_A_NR_PODGROUPS, cl->nr_jobs) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_STATS_A_NR_TASKS, cl->nr_tasks) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_STATS_A_NR_VJOBS, cl->nr_vjobs) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_STATS_A_NR_PRIOCLASSES, cl->nr_prioclasses) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_STATS_A_NR_HYPERNODES, cl->hypernodes.nr) ||
	    !vs_nla_put_u8(nlh, room, VS_STATS_A_HYPERNODES_READY, vs_hypernodes_ready(cl)))
		return false;
	if (core->ctl.last_cycle.id &&
	    !vs_nl_put_cycle(nlh, room, VS_STATS_A_LAST_CYCLE, &core->ctl.last_cycle))
		return false;
	for (u32 i = 0; i < core->ctl.nr_recent; i++) {
		u32 k = (core->ctl.recent_next + VS_NL_RECENT_CYCLES - core->ctl.nr_recent + i) %
			VS_NL_RECENT_CYCLES;

		if (!vs_nl_put_cycle(nlh, room, VS_STATS_A_RECENT_CYCLE, &core->ctl.recent[k]))
			return false;
	}
	if ((st && !put_metrics(nlh, room, &core->sched->metrics, core->sched->reg)) ||
	    !put_usage(nlh, room, cl))
		return false;
	for (unsigned int i = 0; i < ARRAY_SIZE(pools); i++)
		if (!put_pool(nlh, room, pools[i]))
			return false;
	if (rss_bytes(&rss) && !mnl_attr_put_u64_check(nlh, room, VS_STATS_A_RSS_BYTES, rss))
		return false;
	if (vs_mem_counted(NULL) &&
	    !mnl_attr_put_u64_check(nlh, room, VS_STATS_A_HEAP_BYTES, vs_mem_allocated()))
		return false;
	if (cap && cap->max && !mnl_attr_put_u64_check(nlh, room, VS_STATS_A_MAX_MEMORY, cap->max))
		return false;
	mnl_attr_nest_end(nlh, nest);
	return true;
}

int vs_nl_stats_get_doit(struct vs_genl_info *info)
{
	struct nlmsghdr *nlh = vs_genl_reply_put(info, 0);

	/* On failure the dispatcher takes back the message begun. */
	if (!nlh || !put_stats(nlh, vs_nl_reply_room(info->reply, nlh), core_of(info),
			       info->ctx->mem))
		return vs_extack_fail(info->extack, EMSGSIZE,
				      "the statistics do not fit the reply");
	vs_nl_reply_finish(info->reply, nlh);
	return 0;
}

/* ---- subscriptions ---- */

int vs_nl_subscribe_doit(struct vs_genl_info *info)
{
	const struct nlattr *a = info->attrs[VS_A_MCGRP];
	const struct vs_genl_family *fam = info->family;
	struct vs_nl_core *core = core_of(info);
	u32 group = mnl_attr_get_u32(a);

	if (!group || group > fam->n_mcgrps || !fam->mcgrps[group])
		return vs_nl_refuse(info, a, EINVAL, "mcgrp (VS_A_MCGRP): %u is no multicast "
				    "group of family %s (1..%u)", group, fam->name, fam->n_mcgrps);
	if (!core->host || !core->host->subscribe)
		return vs_extack_fail(info->extack, EOPNOTSUPP, "%s: subscriptions are kept by "
				      "the daemon, and there is none here", info->op->name);
	return core->host->subscribe(core, info, group, info->op->cmd == VS_CMD_SUBSCRIBE);
}

/* ---- the requester's connection ---- */

/*
 * As getsockopt() and setsockopt() of SO_RCVBUF on a netlink socket, but
 * in the protocol: behind a Unix socket the queue that overflows is the
 * daemon's out-queue for the connection, not the socket's. A size above
 * the daemon's maximum is refused rather than cut down to it, so that a
 * client never believes it has a queue it does not have. A connection
 * may also hold periodic cycles while it loads a cluster in several
 * batches, if it has the admin permission.
 */
int vs_nl_conn_doit(struct vs_genl_info *info)
{
	const struct nlattr *a, *tb[VS_CONN_A_MAX + 1];
	struct vs_nl_core *core = core_of(info);
	struct vs_nl_conn conn = { 0 };
	struct nlattr *nest;
	struct nlmsghdr *nlh;
	size_t room;
	u64 rcvbuf;
	int ret;

	if (!core->host || !core->host->conn_get || !core->host->conn_set)
		return vs_extack_fail(info->extack, EOPNOTSUPP, "%s: connections are the "
				      "daemon's, and there is none here", info->op->name);
	ret = core->host->conn_get(core, info, &conn);
	if (ret)
		return ret;
	if (info->op->cmd == VS_CMD_CONN_SET) {
		vs_nl_nest_tb(info->attrs[VS_A_CONN], tb, VS_CONN_A_MAX);
		if (!tb[VS_CONN_A_RCVBUF] && !tb[VS_CONN_A_HOLD])
			return vs_nl_refuse(info, info->attrs[VS_A_CONN], EINVAL, "conn: nothing "
					    "to set: give rcvbuf (VS_CONN_A_RCVBUF) or hold "
					    "(VS_CONN_A_HOLD)");
		a = tb[VS_CONN_A_RCVBUF];
		rcvbuf = a ? mnl_attr_get_u64(a) : conn.rcvbuf;
		if (rcvbuf > conn.rcvbuf_max)
			return vs_nl_refuse(info, a, EINVAL, "conn.rcvbuf (VS_CONN_A_RCVBUF): "
					    "%llu bytes is more than this daemon's maximum, %llu "
					    "bytes (vschedd --rcvbuf-max)",
					    (unsigned long long)rcvbuf,
					    (unsigned long long)conn.rcvbuf_max);
		/*
		 * The queue is the connection's own; a hold stops the periodic
		 * cycles of every client, so it is the admin's, as the
		 * commands that change state are.
		 */
		a = tb[VS_CONN_A_HOLD];
		if (a && !info->ctx->admin)
			return vs_nl_refuse(info, a, EPERM, "conn.hold (VS_CONN_A_HOLD): holding "
					    "periodic cycles needs the admin permission (root or "
					    "the admin group)");
		conn.rcvbuf = rcvbuf;
		if (a)
			conn.hold = mnl_attr_get_u8(a);
		return core->host->conn_set(core, info, &conn);
	}
	nlh = vs_genl_reply_put(info, 0);
	if (!nlh)
		goto nospace;
	room = vs_nl_reply_room(info->reply, nlh);
	nest = mnl_attr_nest_start_check(nlh, room, VS_A_CONN);
	if (!nest || !mnl_attr_put_u64_check(nlh, room, VS_CONN_A_RCVBUF, conn.rcvbuf) ||
	    !mnl_attr_put_u64_check(nlh, room, VS_CONN_A_RCVBUF_MAX, conn.rcvbuf_max) ||
	    !mnl_attr_put_u32_check(nlh, room, VS_CONN_A_PORTID, conn.portid) ||
	    !vs_nla_put_u8(nlh, room, VS_CONN_A_HOLD, conn.hold))
		goto nospace;
	mnl_attr_nest_end(nlh, nest);
	vs_nl_reply_finish(info->reply, nlh);
	return 0;
nospace:
	/* On failure the dispatcher takes back the message begun. */
	return vs_extack_fail(info->extack, EMSGSIZE, "the connection does not fit the reply");
}

/* ---- reset ---- */

/*
 * Every object goes, in the order the core allows: tasks first (nodes and
 * PodGroups refuse to go while they hold some), then VolcanoJobs, PodGroups
 * (queues refuse to go while they hold some), queues, nodes and priority
 * classes. Nothing here can fail once the tasks are gone.
 *
 * The controllers keep nothing of their own: their state is in the objects
 * (a VolcanoJob's phase, retries, counters and the finished replicas it
 * kept; a queue's state and whether its parent closed it), and goes with
 * them. No hook is told: a reset is no controller's doing.
 */
int vs_nl_reset_doit(struct vs_genl_info *info)
{
	struct vs_cluster *cl = core_of(info)->cl;
	struct vs_err *err = &info->extack->err;
	struct vs_hypernode *hn, *hn_tmp;
	struct vs_prioclass *pc, *pc_tmp;
	struct vs_queue *queue, *q_tmp;
	struct vs_node *node, *n_tmp;
	struct vs_vjob *vjob, *v_tmp;
	struct vs_task *task, *t_tmp;
	struct vs_job *job, *j_tmp;
	int ret = 0;

	list_for_each_entry(job, &cl->jobs, list)
		list_for_each_entry_safe(task, t_tmp, &job->tasks, job_node)
			vs_task_del(cl, task);
	list_for_each_entry_safe(vjob, v_tmp, &cl->vjobs, list)
		vs_vjob_del(cl, vjob);
	list_for_each_entry_safe(job, j_tmp, &cl->jobs, list)
		ret = ret ? ret : vs_job_del(cl, job, err);
	list_for_each_entry_safe(queue, q_tmp, &cl->queues, list)
		ret = ret ? ret : vs_queue_del(cl, queue, err);
	list_for_each_entry_safe(node, n_tmp, &cl->nodes, list)
		ret = ret ? ret : vs_node_del(cl, node, err);
	list_for_each_entry_safe(pc, pc_tmp, &cl->prioclasses, list)
		vs_prioclass_del(cl, pc);
	list_for_each_entry_safe_reverse(hn, hn_tmp, &cl->hypernodes.list, list)
		vs_hypernode_del(cl, hn);
	/* Told even when it stopped: what was forgotten is not known one by one. */
	vs_nl_event(core_of(info), VS_EVENT_RESET, 0, NULL);
	if (ret)
		return vs_extack_fail(info->extack, ret, "the reset stopped");
	return 0;
}
