/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The handlers of vsched's commands, plugged into vs_genl_ops[]
 * (policies.c). They find the core they act on in the request context:
 * ctx->priv points at a struct vs_nl_core.
 */
#ifndef VS_NETLINK_HANDLERS_H
#define VS_NETLINK_HANDLERS_H

#include "core/arena.h"
#include "core/cluster.h"
#include "netlink/family.h"

struct vs_nl_core {
	struct vs_cluster *cl;
	struct vs_arena *arena;		/* request scratch, rewound after each request */
};

/* NEW (NLM_F_REPLACE too), SET, DEL and GET of nodes, queues, PodGroups, tasks, priority classes. */
int vs_nl_obj_new_doit(struct vs_genl_info *info);
int vs_nl_obj_set_doit(struct vs_genl_info *info);
int vs_nl_obj_del_doit(struct vs_genl_info *info);
int vs_nl_obj_get_doit(struct vs_genl_info *info);
int vs_nl_obj_get_dumpit(struct vs_genl_info *info);

#endif /* VS_NETLINK_HANDLERS_H */
