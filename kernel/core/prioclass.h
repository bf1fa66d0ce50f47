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
#include "core/task.h"

/* Kubernetes reserves values above this for system classes. */
#define VS_PRIO_USER_MAX	1000000000

struct vs_prioclass {
	const char *name;		/* interned */
	u64 seq;
	struct hlist_node hnode;
	struct list_head list;		/* cluster->prioclasses */

	s32 value;
	bool global_default;
	enum vs_preemption_policy preemption_policy;
};

#endif /* VS_CORE_PRIOCLASS_H */
