/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_prioclass: a scheduling.k8s.io PriorityClass. Jobs and tasks
 * name one; its value becomes their priority. At most one class is the
 * global default, whose value applies to jobs that name none.
 */
#ifndef VS_CORE_PRIOCLASS_H
#define VS_CORE_PRIOCLASS_H

#include "core/compiler.h"
#include "core/list.h"
#include "core/rbtree.h"
#include "core/task.h"

/* Kubernetes reserves values above this for system classes. */
#define VS_PRIO_USER_MAX	1000000000

struct vs_prioclass {
	const char *name;		/* interned */
	u64 seq;
	struct hlist_node hnode;
	struct rb_node byname;	/* cluster->prioclass_names */
	struct list_head list;		/* cluster->prioclasses */

	s32 value;
	bool global_default;
	enum vs_preemption_policy preemption_policy;
};

/* ---- the priority class in the cluster (prioclass.c) ---- */

struct vs_cluster;

struct vs_prioclass_spec {
	const char *name;
	s32 value;
	bool global_default;
	enum vs_preemption_policy preemption_policy;
};

/* A second global default is refused, as Kubernetes refuses it. */
int vs_prioclass_add(struct vs_cluster *cl, const struct vs_prioclass_spec *spec,
		     struct vs_prioclass **out, struct vs_err *err);
int vs_prioclass_update(struct vs_cluster *cl, struct vs_prioclass *pc,
			const struct vs_prioclass_spec *spec, struct vs_err *err);
void vs_prioclass_del(struct vs_cluster *cl, struct vs_prioclass *pc);
struct vs_prioclass *vs_prioclass_find(const struct vs_cluster *cl, const char *name);

/* The global default class, or NULL. */
struct vs_prioclass *vs_prioclass_default(const struct vs_cluster *cl);

#endif /* VS_CORE_PRIOCLASS_H */
