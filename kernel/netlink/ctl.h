/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The control commands: the scheduler's configuration (VS_CMD_CONF_GET,
 * VS_CMD_CONF_SET), cycles run on request (VS_CMD_CYCLE_RUN), statistics
 * (VS_CMD_STATS_GET), subscriptions, VS_CMD_RESET (ctl.c), and what the
 * outside world reports about tasks: VS_CMD_TASK_STATUS and
 * VS_CMD_BIND_RESULT (status.c).
 *
 * They act on the struct vs_nl_core of the request context (handlers.h).
 * Without a scheduler (core->sched NULL) the configuration and cycle
 * commands answer EOPNOTSUPP; without the program around the core
 * (core->host NULL) so do subscriptions. What these commands keep between
 * requests (the last cycle, the scheduling period, a count of failed binds)
 * is a struct vs_nl_ctl in the core, zeroes to start with.
 */
#ifndef VS_NETLINK_CTL_H
#define VS_NETLINK_CTL_H

#include "netlink/family.h"
#include "sched/session.h"

struct vs_nl_core;

/* The scheduling period when VS_CMD_CONF_SET has not set one: Volcano's schedule-period. */
#define VS_NL_PERIOD_DEFAULT_MS		1000
/* The longest period VS_CONF_A_PERIOD_MS may set: a day. */
#define VS_NL_PERIOD_MAX_MS		86400000

/* A cycle keeps the duration of its first VS_NL_CYCLE_ACTIONS actions. */
#define VS_NL_CYCLE_ACTIONS		VS_SESSION_ACTIONS_TIMED
#define VS_NL_ACTION_NAME_MAX		32
/* VS_CMD_STATS_GET tells the last cycles, this many (vsctl top shows them). */
#define VS_NL_RECENT_CYCLES		10

struct vs_nl_action_stat {
	char name[VS_NL_ACTION_NAME_MAX];	/* a copy: the configuration may change */
	u64 duration_ns;
};

/* One scheduling cycle, as VS_A_CYCLE tells it (enum vs_cycle_attr). */
struct vs_nl_cycle {
	u64 id;				/* the session's number, from 1; 0: no cycle */
	u64 duration_ns;		/* opening the session to closing it */
	u32 binds;			/* tasks the cycle sent to Binding */
	u32 evicts;
	u32 pending;			/* tasks still Pending after it */
	u32 nr_actions;			/* in actions[], at most VS_NL_CYCLE_ACTIONS */
	struct vs_nl_action_stat actions[VS_NL_CYCLE_ACTIONS];
};

struct vs_nl_ctl {
	/*
	 * The period VS_CMD_CONF_SET gave (VS_CONF_A_PERIOD_MS), or the
	 * daemon's --period; 0 until then, which is the default period unless
	 * @on_request says that cycles run only on request (--period 0). The
	 * daemon reads it when it arms its timer for the next cycle.
	 */
	u32 period_ms;
	bool on_request;
	u64 bind_failures;		/* VS_CMD_BIND_RESULT with an error */
	u64 conn_refused;		/* the daemon's connections refused at accept */
	struct vs_nl_cycle last_cycle;	/* VS_STATS_A_LAST_CYCLE */
	/* The last cycles, oldest first from recent_next (VS_STATS_A_RECENT_CYCLE). */
	struct vs_nl_cycle recent[VS_NL_RECENT_CYCLES];
	u32 nr_recent, recent_next;
	/* A VS_CMD_DUMP holds its image (checkpoint.c): one at a time. */
	bool dumping;
};

/* The scheduling period in force, in milliseconds; 0: cycles only on request. */
u32 vs_nl_period_ms(const struct vs_nl_core *core);

/*
 * The configuration in force as VS_CMD_CONF_GET answers it (a VS_A_CONF
 * nest: its text, source and the period) into @nlh, a buffer of @cap
 * bytes; core->sched must be set. As a @request (VS_CMD_CONF_SET), a
 * period of 0 (cycles on request only), which no request sets, is left
 * out. 0, or -EMSGSIZE / -ENOMEM with @err.
 */
int vs_nl_conf_put(const struct vs_nl_core *core, struct nlmsghdr *nlh, size_t cap,
		   bool request, struct vs_err *err);

/* Now on core->clock_ns, else CLOCK_MONOTONIC, in ns. */
u64 vs_nl_now_ns(const struct vs_nl_core *core);

/*
 * Run one scheduling cycle on core->sched (vs_sched_run_cycle()'s work, with
 * each action timed) and keep its numbers in core->ctl.last_cycle, which
 * VS_CMD_STATS_GET reports. The daemon runs its periodic cycles through
 * this too, and sends core->ctl.last_cycle to the "cycles" group with
 * vs_nl_put_cycle(). -EOPNOTSUPP without a scheduler; an action's failure
 * is returned after the session is closed (the cycle still counts).
 */
int vs_nl_cycle_run(struct vs_nl_core *core, struct vs_err *err);

/*
 * Append @cy to the message @nlh (in a buffer of @cap bytes) as a nest of
 * type @type, VS_A_CYCLE or VS_STATS_A_LAST_CYCLE: true, or false with the
 * message as it was when it does not fit (fill.h's rules).
 */
bool vs_nl_put_cycle(struct nlmsghdr *nlh, size_t cap, u16 type, const struct vs_nl_cycle *cy);

/* Answer a request with a message of its command carrying @cy as VS_A_CYCLE. */
int vs_nl_cycle_reply(struct vs_genl_info *info, const struct vs_nl_cycle *cy);

/*
 * Refuse the request because of @attr (its offset goes to the extack; NULL:
 * none): @errnum, and the message unless the core has said why already.
 * Returns the negative errno, for "return vs_nl_refuse(...)".
 */
__printf(4, 5)
int vs_nl_refuse(struct vs_genl_info *info, const struct nlattr *attr, int errnum,
		 const char *fmt, ...);

/* The handlers, for vs_genl_ops[] (policies.c). */
int vs_nl_conf_get_doit(struct vs_genl_info *info);
int vs_nl_conf_set_doit(struct vs_genl_info *info);
int vs_nl_cycle_run_doit(struct vs_genl_info *info);
int vs_nl_stats_get_doit(struct vs_genl_info *info);
int vs_nl_explain_doit(struct vs_genl_info *info);	/* explain.c */
int vs_nl_subscribe_doit(struct vs_genl_info *info);	/* and VS_CMD_UNSUBSCRIBE */
int vs_nl_reset_doit(struct vs_genl_info *info);
int vs_nl_conn_doit(struct vs_genl_info *info);		/* and VS_CMD_CONN_SET */
int vs_nl_task_status_doit(struct vs_genl_info *info);	/* status.c */
int vs_nl_bind_result_doit(struct vs_genl_info *info);	/* status.c */

#endif /* VS_NETLINK_CTL_H */
