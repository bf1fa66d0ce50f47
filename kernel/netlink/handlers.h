/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The handlers of vsched's commands, plugged into vs_genl_ops[]
 * (policies.c). They find the core they act on in the request context:
 * ctx->priv points at a struct vs_nl_core.
 */
#ifndef VS_NETLINK_HANDLERS_H
#define VS_NETLINK_HANDLERS_H

#include "controllers/controllers.h"
#include "controllers/hnctl.h"
#include "core/arena.h"
#include "core/cluster.h"
#include "netlink/ctl.h"
#include "netlink/events.h"
#include "netlink/family.h"

struct vs_sched;

struct vs_nl_core {
	struct vs_cluster *cl;
	struct vs_arena *arena;		/* request scratch, rewound after each request */
	struct vs_sched *sched;		/* NULL: object commands only (no configuration, cycles) */
	/*
	 * The program around the core (the daemon): what only it keeps, such
	 * as subscriptions and the binder. NULL: the commands that need it
	 * are answered EOPNOTSUPP.
	 */
	const struct vs_nl_host_ops *host;
	void *host_priv;
	/*
	 * The clock of bind backoffs and cycles (CLOCK_MONOTONIC, ns); NULL:
	 * the system's. Tests set their own to step time.
	 */
	u64 (*clock_ns)(void);
	struct vs_nl_ctl ctl;		/* what the control commands keep (ctl.h) */
	/*
	 * Told what the controllers did on their own (the tasks and PodGroups
	 * they made or removed, the VolcanoJobs and queues whose state they
	 * changed); NULL: nobody listens. The daemon sets vs_nl_event_hooks
	 * with the core as their context, which tell them as events. Inside
	 * a batch they hear what is applied, and nothing of an undo: whoever
	 * listens holds what they said until VS_CMD_BATCH_END is answered.
	 */
	const struct vs_ctl_hooks *hooks;
	void *hooks_priv;
	/* The pods this scheduler places (vschedd --scheduler-name); NULL: "volcano". */
	const char *scheduler;
	/*
	 * Label discovery's types (vschedd --controller-conf; ctlconf.h), and
	 * the count of node and HyperNode events (cl->hypernodes.events) it
	 * last ran on, valid once topology_synced.
	 */
	struct vs_hnctl_conf topology;
	u64 topology_seen;
	bool topology_synced;
	/*
	 * The events group's messages made by the handlers and the hooks,
	 * waiting for the daemon to send them (events.h); events.on false
	 * (nobody listens, or no daemon): none is made.
	 */
	struct vs_nl_events events;
	/*
	 * The status group's, made when a cycle closes (writeback.h), sent
	 * with the events; status.on false: none is made.
	 */
	struct vs_nl_events status;
};

/* What VS_CMD_CONN_GET tells of the requester's connection. */
struct vs_nl_conn {
	u64 rcvbuf;			/* the most notifications queued for it, in bytes */
	u64 rcvbuf_max;			/* the most rcvbuf may be */
	u32 portid;
	bool hold;			/* it holds periodic cycles (VS_CONN_A_HOLD) */
};

struct vs_nl_host_ops {
	/* VS_CMD_SUBSCRIBE (@join) and VS_CMD_UNSUBSCRIBE of @group by the requester. */
	int (*subscribe)(struct vs_nl_core *core, struct vs_genl_info *info,
			 unsigned int group, bool join);
	/*
	 * VS_CMD_CYCLE_RUN: one cycle now (vs_nl_cycle_run()), with what
	 * follows a cycle in the daemon (decisions to subscribers, standalone
	 * binds confirmed). When it returns 0 and added nothing to
	 * info->reply, the request is answered with core->ctl.last_cycle.
	 */
	int (*cycle_run)(struct vs_nl_core *core, struct vs_genl_info *info);
	/*
	 * VS_CMD_CONN_GET: the requester's connection into @conn. Then, for
	 * VS_CMD_CONN_SET, conn_set() with @conn as it is to be: what the
	 * request gave (a receive queue the handler checked against
	 * conn->rcvbuf_max, a hold) over what conn_get() said. Either may
	 * refuse (the daemon's own requests have no connection).
	 */
	int (*conn_get)(struct vs_nl_core *core, struct vs_genl_info *info,
			struct vs_nl_conn *conn);
	int (*conn_set)(struct vs_nl_core *core, struct vs_genl_info *info,
			const struct vs_nl_conn *conn);
};

/*
 * The controllers' context on @core's cluster, with its hooks: what every
 * handler that calls a controller builds (Documentation/controllers.md,
 * "When the daemon calls what"). It keeps nothing between calls.
 */
void vs_nl_ctl_init(const struct vs_nl_core *core, struct vs_ctl *ctl);

/*
 * NEW (NLM_F_REPLACE too), SET, DEL and GET of nodes, queues, PodGroups,
 * tasks, VolcanoJobs and priority classes, through the controllers.
 */
int vs_nl_obj_new_doit(struct vs_genl_info *info);
int vs_nl_obj_set_doit(struct vs_genl_info *info);
int vs_nl_obj_del_doit(struct vs_genl_info *info);
int vs_nl_obj_get_doit(struct vs_genl_info *info);
int vs_nl_obj_get_dumpit(struct vs_genl_info *info);

/* VS_CMD_VJOB_COMMAND and VS_CMD_QUEUE_COMMAND: a user's command, to its controller. */
int vs_nl_vjob_command_doit(struct vs_genl_info *info);
int vs_nl_queue_command_doit(struct vs_genl_info *info);

#endif /* VS_NETLINK_HANDLERS_H */
