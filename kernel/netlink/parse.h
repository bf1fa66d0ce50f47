/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attributes as object specs: what NEW and SET requests carry, turned into
 * the core's struct vs_*_spec (uapi/vsched/vsched.h).
 *
 * The request has passed its command's policy already (types, lengths, NUL
 * termination, nesting, ranges), so these functions trust the shape of
 * what they read and check only meaning: names and values the core would
 * refuse are refused by the core's own constructors, with its messages.
 *
 * Everything a spec points to (label arrays, strings) lives in @arena,
 * which the caller rewinds after the request. For SET, the caller first
 * fills the spec from the existing object (vs_nl_*_spec_of()) and the
 * parse then overrides only the attributes present.
 */
#ifndef VS_NETLINK_PARSE_H
#define VS_NETLINK_PARSE_H

#include <linux/netlink.h>

#include "core/arena.h"
#include "controllers/controllers.h"
#include "core/cluster.h"

/*
 * The last occurrence of each attribute type 1..@max of @nest in
 * tb[0..@max], NULL where absent (types above @max are skipped).
 */
void vs_nl_nest_tb(const struct nlattr *nest, const struct nlattr **tb, u16 max);

/*
 * A resource list. Scalar names are registered as dimensions of @cl
 * (vs_cluster_dim_get(): journalled in its open transaction); more
 * distinct names than the core has dimensions is -ENOSPC.
 */
int vs_nl_parse_res(struct vs_cluster *cl, const struct nlattr *nest, struct vs_res *out,
		    struct vs_err *err);

/* The same, the names in a table of no cluster: a client's, to read a reply. */
int vs_nl_parse_res_names(struct vs_res_dims *dims, const struct nlattr *nest, struct vs_res *out,
			  struct vs_err *err);

int vs_nl_parse_node(struct vs_cluster *cl, const struct nlattr *nest,
		     struct vs_arena *arena, struct vs_node_spec *spec, struct vs_err *err);
int vs_nl_parse_queue(struct vs_cluster *cl, const struct nlattr *nest,
		      struct vs_arena *arena, struct vs_queue_spec *spec, struct vs_err *err);
int vs_nl_parse_podgroup(struct vs_cluster *cl, const struct nlattr *nest,
			 struct vs_arena *arena, struct vs_job_spec *spec, struct vs_err *err);
int vs_nl_parse_task(struct vs_cluster *cl, const struct nlattr *nest,
		     struct vs_arena *arena, struct vs_task_spec *spec, struct vs_err *err);
/*
 * vs_nl_parse_task(), and into @pod what the request says of the pod beyond
 * the task (its queue annotation, scheduler, admission) for the controllers.
 */
int vs_nl_parse_pod(struct vs_cluster *cl, const struct nlattr *nest, struct vs_arena *arena,
		    struct vs_task_spec *spec, struct vs_ctl_pod *pod, struct vs_err *err);
int vs_nl_parse_vjob(struct vs_cluster *cl, const struct nlattr *nest,
		     struct vs_arena *arena, struct vs_vjob_spec *spec, struct vs_err *err);
/*
 * A checkpoint's VS_VJOB_A_STATE (validated): into @st, its arrays in
 * @arena. What it says is checked against the job by vs_jobctl_restore().
 */
int vs_nl_parse_vjob_state(const struct nlattr *nest, struct vs_arena *arena,
			   struct vs_vjob_state *st, struct vs_err *err);
int vs_nl_parse_prioclass(const struct nlattr *nest, struct vs_arena *arena,
			  struct vs_prioclass_spec *spec, struct vs_err *err);
/*
 * A HyperNode; @whole for a NEW, which needs its tier (its members, one
 * at least, the core requires). Members given replace the spec's.
 */
int vs_nl_parse_hypernode(const struct nlattr *nest, struct vs_arena *arena, bool whole,
			  struct vs_hypernode_spec *spec, struct vs_err *err);

/* The spec an existing object was made from, for SET to start with. */
int vs_nl_node_spec_of(const struct vs_node *node, struct vs_arena *arena,
		       struct vs_node_spec *spec);
void vs_nl_queue_spec_of(const struct vs_queue *queue, struct vs_queue_spec *spec);
int vs_nl_podgroup_spec_of(const struct vs_job *job, struct vs_arena *arena,
			   struct vs_job_spec *spec);
void vs_nl_prioclass_spec_of(const struct vs_prioclass *pc, struct vs_prioclass_spec *spec);
int vs_nl_hypernode_spec_of(const struct vs_hypernode *hn, struct vs_arena *arena,
			    struct vs_hypernode_spec *spec);

#endif /* VS_NETLINK_PARSE_H */
