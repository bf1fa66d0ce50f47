// SPDX-License-Identifier: Apache-2.0
/*
 * vsched's family: the attribute policy of every nest and command of
 * uapi/vsched/vsched.h, and the ops table that pairs each command with its
 * policy, its permission and its handlers. These tables are the protocol:
 * Documentation/protocol.md describes them, and what a request may carry is
 * exactly what they accept.
 *
 * Handlers are plugged into vs_genl_ops[] (.doit, .dumpit); a command
 * without one is answered EOPNOTSUPP "not implemented yet".
 *
 * Several tables start from a default for every attribute of their set (all
 * refused, by name) and then give the entries the command takes: a later
 * designated initialiser replaces an earlier one, as in the kernel's
 * syscall tables, so -Woverride-init is off for this file only.
 */
#include <stdint.h>

#include "netlink/batch.h"
#include "netlink/checkpoint.h"
#include "netlink/ctl.h"
#include "netlink/family.h"
#include "netlink/handlers.h"
#include "vsched/vsched.h"

#pragma GCC diagnostic ignored "-Woverride-init"

/*
 * String limits, with the NUL. Names are DNS subdomains (VS_NAME_MAX);
 * qualified names (label and taint keys, resource names, topology keys)
 * are a DNS subdomain prefix, a slash and a 63-character name; free text
 * (a bind failure) is cut at VS_TEXT_MAX; a configuration file is limited
 * only by an attribute's 16-bit length.
 */
#define VS_QNAME_MAX		(253 + 1 + 63 + 1)
#define VS_TEXT_MAX		4096
#define VS_PATH_MAX		4096

/* Kubernetes' int32 fields, and the largest amount of a resource (below VS_RES_INF). */
#define VS_INT32_MAX		2147483647LL
#define VS_RES_VALUE_MAX	(9223372036854775807LL - 1)

#define REQ			VS_NLA_F_REQUIRED
#define MULTI			VS_NLA_F_MULTI
#define RO			VS_NLA_F_RO

/* A u8 that is 0 or 1, an enum of u32 values 0..max. */
#define BOOL(_attr, _name, _flags)	VS_NLA_RANGE(_attr, _name, VS_NLA_U8, 0, 1, _flags)
#define ENUM(_attr, _name, _max, _flags) VS_NLA_RANGE(_attr, _name, VS_NLA_U32, 0, _max, _flags)

/* ---- shared sets ---- */

static const struct vs_nla_policy scalar_policy[VS_SCALAR_A_MAX + 1] = {
	VS_NLA_STR(VS_SCALAR_A_NAME, "name", VS_QNAME_MAX, .flags = REQ),
	VS_NLA_RANGE(VS_SCALAR_A_VALUE, "value", VS_NLA_U64, 0, VS_RES_VALUE_MAX, REQ),
};

static const struct vs_nla_policy res_policy[VS_RES_A_MAX + 1] = {
	VS_NLA_RANGE(VS_RES_A_CPU, "cpu", VS_NLA_U64, 0, VS_RES_VALUE_MAX, 0),
	VS_NLA_RANGE(VS_RES_A_MEMORY, "memory", VS_NLA_U64, 0, VS_RES_VALUE_MAX, 0),
	VS_NLA_RANGE(VS_RES_A_PODS, "pods", VS_NLA_U64, 0, VS_RES_VALUE_MAX, 0),
	VS_NLA_NEST(VS_RES_A_SCALAR, "scalar", scalar_policy, VS_SCALAR_A_MAX, .flags = MULTI),
};

static const struct vs_nla_policy kv_policy[VS_KV_A_MAX + 1] = {
	VS_NLA_STR(VS_KV_A_KEY, "key", VS_QNAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_KV_A_VALUE, "value", VS_LABEL_VALUE_MAX),
};

static const struct vs_nla_policy labels_policy[VS_LABELS_A_MAX + 1] = {
	VS_NLA_NEST(VS_LABELS_A_ITEM, "item", kv_policy, VS_KV_A_MAX, .flags = MULTI),
};

static const struct vs_nla_policy taint_policy[VS_TAINT_A_MAX + 1] = {
	VS_NLA_STR(VS_TAINT_A_KEY, "key", VS_QNAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_TAINT_A_VALUE, "value", VS_LABEL_VALUE_MAX),
	ENUM(VS_TAINT_A_EFFECT, "effect", VS_TAINT_EFFECT_NO_EXECUTE, REQ),
};

static const struct vs_nla_policy toleration_policy[VS_TOL_A_MAX + 1] = {
	VS_NLA_STR(VS_TOL_A_KEY, "key", VS_QNAME_MAX),
	ENUM(VS_TOL_A_OPERATOR, "operator", VS_TOLERATION_OP_EXISTS, 0),
	VS_NLA_STR(VS_TOL_A_VALUE, "value", VS_LABEL_VALUE_MAX),
	ENUM(VS_TOL_A_EFFECT, "effect", VS_TAINT_EFFECT_ANY, 0),
	VS_NLA_INT(VS_TOL_A_SECONDS, "tolerationSeconds", VS_NLA_S64),
};

/* ---- affinity ---- */

/* On labels: values are label values. */
static const struct vs_nla_policy selreq_policy[VS_SELREQ_A_MAX + 1] = {
	VS_NLA_STR(VS_SELREQ_A_KEY, "key", VS_QNAME_MAX, .flags = REQ),
	ENUM(VS_SELREQ_A_OP, "operator", VS_SEL_OP_LT, REQ),
	VS_NLA_STR(VS_SELREQ_A_VALUE, "values", VS_LABEL_VALUE_MAX, .flags = MULTI),
};

/* On fields (metadata.name): values are node names. */
static const struct vs_nla_policy selfield_policy[VS_SELREQ_A_MAX + 1] = {
	VS_NLA_STR(VS_SELREQ_A_KEY, "key", VS_NAME_MAX, .flags = REQ),
	ENUM(VS_SELREQ_A_OP, "operator", VS_SEL_OP_LT, REQ),
	VS_NLA_STR(VS_SELREQ_A_VALUE, "values", VS_NAME_MAX, .flags = MULTI),
};

#define NSTERM_ENTRIES								\
	VS_NLA_NEST(VS_NSTERM_A_EXPR, "matchExpressions", selreq_policy, VS_SELREQ_A_MAX,	\
		    .flags = MULTI),						\
	VS_NLA_NEST(VS_NSTERM_A_FIELD, "matchFields", selfield_policy, VS_SELREQ_A_MAX,	\
		    .flags = MULTI)

static const struct vs_nla_policy nsterm_policy[VS_NSTERM_A_MAX + 1] = {
	NSTERM_ENTRIES,
	VS_NLA_REJECTED(VS_NSTERM_A_WEIGHT, "weight"),
};

static const struct vs_nla_policy nsterm_weighted_policy[VS_NSTERM_A_MAX + 1] = {
	NSTERM_ENTRIES,
	VS_NLA_RANGE(VS_NSTERM_A_WEIGHT, "weight", VS_NLA_S32, 1, 100, REQ),
};

static const struct vs_nla_policy lsel_policy[VS_LSEL_A_MAX + 1] = {
	VS_NLA_NEST(VS_LSEL_A_MATCH_LABELS, "matchLabels", labels_policy, VS_LABELS_A_MAX),
	VS_NLA_NEST(VS_LSEL_A_EXPR, "matchExpressions", selreq_policy, VS_SELREQ_A_MAX,
		    .flags = MULTI),
};

#define PODTERM_ENTRIES								\
	VS_NLA_NEST(VS_PODTERM_A_SELECTOR, "labelSelector", lsel_policy, VS_LSEL_A_MAX),	\
	VS_NLA_STR(VS_PODTERM_A_NAMESPACE, "namespaces", VS_NAME_MAX, .flags = MULTI),	\
	VS_NLA_NEST(VS_PODTERM_A_NS_SELECTOR, "namespaceSelector", lsel_policy,		\
		    VS_LSEL_A_MAX),						\
	VS_NLA_STR(VS_PODTERM_A_TOPOLOGY_KEY, "topologyKey", VS_QNAME_MAX, .flags = REQ)

static const struct vs_nla_policy podterm_policy[VS_PODTERM_A_MAX + 1] = {
	PODTERM_ENTRIES,
	VS_NLA_REJECTED(VS_PODTERM_A_WEIGHT, "weight"),
};

static const struct vs_nla_policy podterm_weighted_policy[VS_PODTERM_A_MAX + 1] = {
	PODTERM_ENTRIES,
	VS_NLA_RANGE(VS_PODTERM_A_WEIGHT, "weight", VS_NLA_S32, 1, 100, REQ),
};

static const struct vs_nla_policy affinity_policy[VS_AFF_A_MAX + 1] = {
	VS_NLA_NEST(VS_AFF_A_NODE_REQUIRED, "nodeRequired", nsterm_policy, VS_NSTERM_A_MAX,
		    .flags = MULTI),
	VS_NLA_NEST(VS_AFF_A_NODE_PREFERRED, "nodePreferred", nsterm_weighted_policy,
		    VS_NSTERM_A_MAX, .flags = MULTI),
	VS_NLA_NEST(VS_AFF_A_POD_REQUIRED, "podRequired", podterm_policy, VS_PODTERM_A_MAX,
		    .flags = MULTI),
	VS_NLA_NEST(VS_AFF_A_POD_PREFERRED, "podPreferred", podterm_weighted_policy,
		    VS_PODTERM_A_MAX, .flags = MULTI),
	VS_NLA_NEST(VS_AFF_A_ANTI_REQUIRED, "antiRequired", podterm_policy, VS_PODTERM_A_MAX,
		    .flags = MULTI),
	VS_NLA_NEST(VS_AFF_A_ANTI_PREFERRED, "antiPreferred", podterm_weighted_policy,
		    VS_PODTERM_A_MAX, .flags = MULTI),
};

/* ---- read-only counts: attribute = enum value + 1 ---- */

/* A count of objects in one phase or status, by the phase's name. */
#define COUNT(_idx, _name)	[_idx] = { .type = VS_NLA_U32, .name = (_name), .id = (_name) }

static const struct vs_nla_policy phase_counts_policy[VS_PG_PHASE_COMPLETED + 2] = {
	COUNT(VS_PG_PHASE_PENDING + 1, "Pending"),
	COUNT(VS_PG_PHASE_RUNNING + 1, "Running"),
	COUNT(VS_PG_PHASE_UNKNOWN + 1, "Unknown"),
	COUNT(VS_PG_PHASE_INQUEUE + 1, "Inqueue"),
	COUNT(VS_PG_PHASE_COMPLETED + 1, "Completed"),
};

static const struct vs_nla_policy status_counts_policy[VS_TASK_STATUS_UNKNOWN + 2] = {
	COUNT(VS_TASK_STATUS_PENDING + 1, "Pending"),
	COUNT(VS_TASK_STATUS_ALLOCATED + 1, "Allocated"),
	COUNT(VS_TASK_STATUS_PIPELINED + 1, "Pipelined"),
	COUNT(VS_TASK_STATUS_BINDING + 1, "Binding"),
	COUNT(VS_TASK_STATUS_BOUND + 1, "Bound"),
	COUNT(VS_TASK_STATUS_RUNNING + 1, "Running"),
	COUNT(VS_TASK_STATUS_RELEASING + 1, "Releasing"),
	COUNT(VS_TASK_STATUS_SUCCEEDED + 1, "Succeeded"),
	COUNT(VS_TASK_STATUS_FAILED + 1, "Failed"),
	COUNT(VS_TASK_STATUS_UNKNOWN + 1, "Unknown"),
};

/* ---- nodes ---- */

/* Every node attribute refused by name: the start of the tables that take a few. */
#define NODE_REJECTED								\
	VS_NLA_REJECTED(VS_NODE_A_NAME, "name"),				\
	VS_NLA_REJECTED(VS_NODE_A_ALLOCATABLE, "allocatable"),			\
	VS_NLA_REJECTED(VS_NODE_A_LABELS, "labels"),				\
	VS_NLA_REJECTED(VS_NODE_A_TAINT, "taints"),				\
	VS_NLA_REJECTED(VS_NODE_A_UNSCHEDULABLE, "unschedulable"),		\
	VS_NLA_REJECTED(VS_NODE_A_READY, "ready"),				\
	VS_NLA_REJECTED(VS_NODE_A_IDLE, "idle"),				\
	VS_NLA_REJECTED(VS_NODE_A_USED, "used"),				\
	VS_NLA_REJECTED(VS_NODE_A_RELEASING, "releasing"),			\
	VS_NLA_REJECTED(VS_NODE_A_PIPELINED, "pipelined"),			\
	VS_NLA_REJECTED(VS_NODE_A_NR_TASKS, "nrTasks")

static const struct vs_nla_policy node_policy[VS_NODE_A_MAX + 1] = {
	VS_NLA_STR(VS_NODE_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	VS_NLA_NEST(VS_NODE_A_ALLOCATABLE, "allocatable", res_policy, VS_RES_A_MAX),
	VS_NLA_NEST(VS_NODE_A_LABELS, "labels", labels_policy, VS_LABELS_A_MAX),
	VS_NLA_NEST(VS_NODE_A_TAINT, "taints", taint_policy, VS_TAINT_A_MAX, .flags = MULTI),
	BOOL(VS_NODE_A_UNSCHEDULABLE, "unschedulable", 0),
	BOOL(VS_NODE_A_READY, "ready", 0),
	VS_NLA_NEST(VS_NODE_A_IDLE, "idle", res_policy, VS_RES_A_MAX, .flags = RO),
	VS_NLA_NEST(VS_NODE_A_USED, "used", res_policy, VS_RES_A_MAX, .flags = RO),
	VS_NLA_NEST(VS_NODE_A_RELEASING, "releasing", res_policy, VS_RES_A_MAX, .flags = RO),
	VS_NLA_NEST(VS_NODE_A_PIPELINED, "pipelined", res_policy, VS_RES_A_MAX, .flags = RO),
	VS_NLA_INT(VS_NODE_A_NR_TASKS, "nrTasks", VS_NLA_U32, .flags = RO),
};

static const struct vs_nla_policy node_key_policy[VS_NODE_A_MAX + 1] = {
	NODE_REJECTED,
	VS_NLA_STR(VS_NODE_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
};

/* ---- queues ---- */

#define QUEUE_REJECTED								\
	VS_NLA_REJECTED(VS_QUEUE_A_NAME, "name"),				\
	VS_NLA_REJECTED(VS_QUEUE_A_WEIGHT, "weight"),				\
	VS_NLA_REJECTED(VS_QUEUE_A_CAPABILITY, "capability"),			\
	VS_NLA_REJECTED(VS_QUEUE_A_GUARANTEE, "guarantee"),			\
	VS_NLA_REJECTED(VS_QUEUE_A_DESERVED, "deserved"),			\
	VS_NLA_REJECTED(VS_QUEUE_A_RECLAIMABLE, "reclaimable"),			\
	VS_NLA_REJECTED(VS_QUEUE_A_PRIORITY, "priority"),			\
	VS_NLA_REJECTED(VS_QUEUE_A_STATE, "state"),				\
	VS_NLA_REJECTED(VS_QUEUE_A_PARENT, "parent"),				\
	VS_NLA_REJECTED(VS_QUEUE_A_ALLOCATED, "allocated"),			\
	VS_NLA_REJECTED(VS_QUEUE_A_REQUEST, "request"),				\
	VS_NLA_REJECTED(VS_QUEUE_A_NR_PODGROUPS, "nrPodGroups"),		\
	VS_NLA_REJECTED(VS_QUEUE_A_CYCLE_DESERVED, "cycleDeserved"),		\
	VS_NLA_REJECTED(VS_QUEUE_A_SHARE, "sharePpm"),			\
	VS_NLA_REJECTED(VS_QUEUE_A_OVERUSED, "overused"),			\
	VS_NLA_REJECTED(VS_QUEUE_A_CREATED, "creationTimestamp")

static const struct vs_nla_policy queue_policy[VS_QUEUE_A_MAX + 1] = {
	VS_NLA_STR(VS_QUEUE_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	VS_NLA_RANGE(VS_QUEUE_A_WEIGHT, "weight", VS_NLA_U32, 1, VS_INT32_MAX, 0),
	VS_NLA_NEST(VS_QUEUE_A_CAPABILITY, "capability", res_policy, VS_RES_A_MAX),
	VS_NLA_NEST(VS_QUEUE_A_GUARANTEE, "guarantee", res_policy, VS_RES_A_MAX),
	VS_NLA_NEST(VS_QUEUE_A_DESERVED, "deserved", res_policy, VS_RES_A_MAX),
	BOOL(VS_QUEUE_A_RECLAIMABLE, "reclaimable", 0),
	VS_NLA_INT(VS_QUEUE_A_PRIORITY, "priority", VS_NLA_S32),
	ENUM(VS_QUEUE_A_STATE, "state", VS_QUEUE_STATE_UNKNOWN, 0),
	VS_NLA_STR(VS_QUEUE_A_PARENT, "parent", VS_NAME_MAX),
	VS_NLA_NEST(VS_QUEUE_A_ALLOCATED, "allocated", res_policy, VS_RES_A_MAX, .flags = RO),
	VS_NLA_NEST(VS_QUEUE_A_REQUEST, "request", res_policy, VS_RES_A_MAX, .flags = RO),
	VS_NLA_NEST(VS_QUEUE_A_NR_PODGROUPS, "nrPodGroups", phase_counts_policy,
		    VS_PG_PHASE_COMPLETED + 1, .flags = RO),
	VS_NLA_NEST(VS_QUEUE_A_CYCLE_DESERVED, "cycleDeserved", res_policy, VS_RES_A_MAX,
		    .flags = RO),
	VS_NLA_INT(VS_QUEUE_A_SHARE, "sharePpm", VS_NLA_U64, .flags = RO),
	BOOL(VS_QUEUE_A_OVERUSED, "overused", RO),
	VS_NLA_INT(VS_QUEUE_A_CREATED, "creationTimestamp", VS_NLA_U64),
};

static const struct vs_nla_policy queue_key_policy[VS_QUEUE_A_MAX + 1] = {
	QUEUE_REJECTED,
	VS_NLA_STR(VS_QUEUE_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
};

/* ---- PodGroups ---- */

static const struct vs_nla_policy role_min_policy[VS_ROLE_MIN_A_MAX + 1] = {
	VS_NLA_STR(VS_ROLE_MIN_A_ROLE, "role", VS_NAME_MAX),
	VS_NLA_RANGE(VS_ROLE_MIN_A_MIN, "min", VS_NLA_U32, 0, VS_INT32_MAX, REQ),
};

static const struct vs_nla_policy cond_policy[VS_COND_A_MAX + 1] = {
	ENUM(VS_COND_A_TYPE, "type", VS_PG_COND_TYPE_SCHEDULED, REQ),
	BOOL(VS_COND_A_STATUS, "status", 0),
	VS_NLA_STR(VS_COND_A_REASON, "reason", VS_COND_REASON_MAX),
	VS_NLA_STR(VS_COND_A_MESSAGE, "message", VS_COND_MESSAGE_MAX),
	VS_NLA_INT(VS_COND_A_TRANSITION, "transition", VS_NLA_U64, .flags = RO),
	VS_NLA_STR(VS_COND_A_TRANSITION_ID, "transitionID", VS_COND_ID_MAX),
	VS_NLA_INT(VS_COND_A_TIME, "lastTransitionTime", VS_NLA_U64),
};

#define PG_REJECTED								\
	VS_NLA_REJECTED(VS_PG_A_NAMESPACE, "namespace"),			\
	VS_NLA_REJECTED(VS_PG_A_NAME, "name"),					\
	VS_NLA_REJECTED(VS_PG_A_QUEUE, "queue"),				\
	VS_NLA_REJECTED(VS_PG_A_MIN_MEMBER, "minMember"),			\
	VS_NLA_REJECTED(VS_PG_A_MIN_TASK_MEMBER, "minTaskMember"),		\
	VS_NLA_REJECTED(VS_PG_A_MIN_RESOURCES, "minResources"),			\
	VS_NLA_REJECTED(VS_PG_A_PRIORITY_CLASS, "priorityClassName"),		\
	VS_NLA_REJECTED(VS_PG_A_PHASE, "phase"),				\
	VS_NLA_REJECTED(VS_PG_A_CONDITION, "conditions"),			\
	VS_NLA_REJECTED(VS_PG_A_NR_TASKS, "nrTasks"),				\
	VS_NLA_REJECTED(VS_PG_A_ALLOCATED, "allocated"),			\
	VS_NLA_REJECTED(VS_PG_A_FIT_ERROR, "fitError"),				\
	VS_NLA_REJECTED(VS_PG_A_CREATED, "creationTimestamp")

static const struct vs_nla_policy pg_policy[VS_PG_A_MAX + 1] = {
	VS_NLA_STR(VS_PG_A_NAMESPACE, "namespace", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_PG_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_PG_A_QUEUE, "queue", VS_NAME_MAX),
	VS_NLA_RANGE(VS_PG_A_MIN_MEMBER, "minMember", VS_NLA_U32, 0, VS_INT32_MAX, 0),
	VS_NLA_NEST(VS_PG_A_MIN_TASK_MEMBER, "minTaskMember", role_min_policy,
		    VS_ROLE_MIN_A_MAX, .flags = MULTI),
	VS_NLA_NEST(VS_PG_A_MIN_RESOURCES, "minResources", res_policy, VS_RES_A_MAX),
	VS_NLA_STR(VS_PG_A_PRIORITY_CLASS, "priorityClassName", VS_NAME_MAX),
	ENUM(VS_PG_A_PHASE, "phase", VS_PG_PHASE_COMPLETED, 0),
	VS_NLA_NEST(VS_PG_A_CONDITION, "conditions", cond_policy, VS_COND_A_MAX, .flags = MULTI),
	VS_NLA_NEST(VS_PG_A_NR_TASKS, "nrTasks", status_counts_policy,
		    VS_TASK_STATUS_UNKNOWN + 1, .flags = RO),
	VS_NLA_NEST(VS_PG_A_ALLOCATED, "allocated", res_policy, VS_RES_A_MAX, .flags = RO),
	VS_NLA_STR(VS_PG_A_FIT_ERROR, "fitError", 0, .flags = RO),
	VS_NLA_INT(VS_PG_A_CREATED, "creationTimestamp", VS_NLA_U64),
};

static const struct vs_nla_policy pg_key_policy[VS_PG_A_MAX + 1] = {
	PG_REJECTED,
	VS_NLA_STR(VS_PG_A_NAMESPACE, "namespace", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_PG_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
};

/* ---- tasks ---- */

#define TASK_REJECTED								\
	VS_NLA_REJECTED(VS_TASK_A_NAMESPACE, "namespace"),			\
	VS_NLA_REJECTED(VS_TASK_A_NAME, "name"),				\
	VS_NLA_REJECTED(VS_TASK_A_PODGROUP, "podgroup"),			\
	VS_NLA_REJECTED(VS_TASK_A_ROLE, "role"),				\
	VS_NLA_REJECTED(VS_TASK_A_STATUS, "status"),				\
	VS_NLA_REJECTED(VS_TASK_A_NODE, "node"),				\
	VS_NLA_REJECTED(VS_TASK_A_REQUEST, "request"),				\
	VS_NLA_REJECTED(VS_TASK_A_INIT_REQUEST, "initRequest"),			\
	VS_NLA_REJECTED(VS_TASK_A_PRIORITY, "priority"),			\
	VS_NLA_REJECTED(VS_TASK_A_PRIORITY_CLASS, "priorityClassName"),		\
	VS_NLA_REJECTED(VS_TASK_A_PREEMPTABLE, "preemptable"),			\
	VS_NLA_REJECTED(VS_TASK_A_PREEMPTION_POLICY, "preemptionPolicy"),	\
	VS_NLA_REJECTED(VS_TASK_A_LABELS, "labels"),				\
	VS_NLA_REJECTED(VS_TASK_A_NODE_SELECTOR, "nodeSelector"),		\
	VS_NLA_REJECTED(VS_TASK_A_TOLERATION, "tolerations"),			\
	VS_NLA_REJECTED(VS_TASK_A_AFFINITY, "affinity"),			\
	VS_NLA_REJECTED(VS_TASK_A_EVENT, "event"),				\
	VS_NLA_REJECTED(VS_TASK_A_EXIT_CODE, "exitCode"),			\
	VS_NLA_REJECTED(VS_TASK_A_BIND_FAILURES, "bindFailures"),		\
	VS_NLA_REJECTED(VS_TASK_A_BIND_ERROR, "bindError"),			\
	VS_NLA_REJECTED(VS_TASK_A_QUEUE, "queue"),				\
	VS_NLA_REJECTED(VS_TASK_A_SCHED_REASON, "schedReason"),			\
	VS_NLA_REJECTED(VS_TASK_A_SCHED_MESSAGE, "schedMessage"),		\
	VS_NLA_REJECTED(VS_TASK_A_CREATED, "creationTimestamp")

/*
 * A task's spec; EVENT and EXIT_CODE belong to VS_CMD_TASK_STATUS alone. A
 * task without a PODGROUP gets one from the podgroup controller, in QUEUE.
 */
#define TASK_SPEC								\
	TASK_REJECTED,								\
	VS_NLA_STR(VS_TASK_A_NAMESPACE, "namespace", VS_NAME_MAX, .flags = REQ),	\
	VS_NLA_STR(VS_TASK_A_NAME, "name", VS_NAME_MAX, .flags = REQ),		\
	VS_NLA_STR(VS_TASK_A_PODGROUP, "podgroup", VS_NAME_MAX),		\
	VS_NLA_STR(VS_TASK_A_QUEUE, "queue", VS_NAME_MAX),			\
	VS_NLA_STR(VS_TASK_A_ROLE, "role", VS_NAME_MAX),			\
	ENUM(VS_TASK_A_STATUS, "status", VS_TASK_STATUS_UNKNOWN, 0),		\
	VS_NLA_STR(VS_TASK_A_NODE, "node", VS_NAME_MAX),			\
	VS_NLA_NEST(VS_TASK_A_REQUEST, "request", res_policy, VS_RES_A_MAX),	\
	VS_NLA_NEST(VS_TASK_A_INIT_REQUEST, "initRequest", res_policy, VS_RES_A_MAX),	\
	VS_NLA_INT(VS_TASK_A_PRIORITY, "priority", VS_NLA_S32),			\
	VS_NLA_STR(VS_TASK_A_PRIORITY_CLASS, "priorityClassName", VS_NAME_MAX),	\
	BOOL(VS_TASK_A_PREEMPTABLE, "preemptable", 0),				\
	ENUM(VS_TASK_A_PREEMPTION_POLICY, "preemptionPolicy", VS_PREEMPTION_NEVER, 0),	\
	VS_NLA_NEST(VS_TASK_A_LABELS, "labels", labels_policy, VS_LABELS_A_MAX),	\
	VS_NLA_NEST(VS_TASK_A_NODE_SELECTOR, "nodeSelector", labels_policy,	\
		    VS_LABELS_A_MAX),						\
	VS_NLA_NEST(VS_TASK_A_TOLERATION, "tolerations", toleration_policy,	\
		    VS_TOL_A_MAX, .flags = MULTI),				\
	VS_NLA_NEST(VS_TASK_A_AFFINITY, "affinity", affinity_policy, VS_AFF_A_MAX),	\
	VS_NLA_INT(VS_TASK_A_BIND_FAILURES, "bindFailures", VS_NLA_U32, .flags = RO),	\
	VS_NLA_STR(VS_TASK_A_BIND_ERROR, "bindError", VS_ERR_MSG_MAX, .flags = RO),	\
	VS_NLA_STR(VS_TASK_A_SCHED_REASON, "schedReason", VS_NAME_MAX, .flags = RO),	\
	VS_NLA_STR(VS_TASK_A_SCHED_MESSAGE, "schedMessage", 0, .flags = RO),	\
	VS_NLA_INT(VS_TASK_A_CREATED, "creationTimestamp", VS_NLA_U64)

static const struct vs_nla_policy task_policy[VS_TASK_A_MAX + 1] = {
	TASK_SPEC,
};

static const struct vs_nla_policy task_key_policy[VS_TASK_A_MAX + 1] = {
	TASK_REJECTED,
	VS_NLA_STR(VS_TASK_A_NAMESPACE, "namespace", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_TASK_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
};

static const struct vs_nla_policy task_status_policy[VS_TASK_A_MAX + 1] = {
	TASK_REJECTED,
	VS_NLA_STR(VS_TASK_A_NAMESPACE, "namespace", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_TASK_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	ENUM(VS_TASK_A_EVENT, "event", VS_TASK_EVENT_DELETED, REQ),
	VS_NLA_INT(VS_TASK_A_EXIT_CODE, "exitCode", VS_NLA_S32),
};

/* ---- VolcanoJobs ---- */

static const struct vs_nla_policy lifecycle_policy[VS_POLICY_A_MAX + 1] = {
	VS_NLA_STR(VS_POLICY_A_EVENT, "event", VS_NAME_MAX),
	VS_NLA_INT(VS_POLICY_A_EXIT_CODE, "exitCode", VS_NLA_S32),
	VS_NLA_STR(VS_POLICY_A_ACTION, "action", VS_NAME_MAX, .flags = REQ),
};

static const struct vs_nla_policy vtask_policy[VS_VTASK_A_MAX + 1] = {
	VS_NLA_STR(VS_VTASK_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	VS_NLA_RANGE(VS_VTASK_A_REPLICAS, "replicas", VS_NLA_U32, 1, VS_INT32_MAX, 0),
	VS_NLA_RANGE(VS_VTASK_A_MIN_AVAILABLE, "minAvailable", VS_NLA_U32, 0, VS_INT32_MAX, 0),
	VS_NLA_NEST(VS_VTASK_A_REQUEST, "request", res_policy, VS_RES_A_MAX),
	VS_NLA_NEST(VS_VTASK_A_LABELS, "labels", labels_policy, VS_LABELS_A_MAX),
	VS_NLA_NEST(VS_VTASK_A_NODE_SELECTOR, "nodeSelector", labels_policy, VS_LABELS_A_MAX),
	VS_NLA_NEST(VS_VTASK_A_TOLERATION, "tolerations", toleration_policy, VS_TOL_A_MAX,
		    .flags = MULTI),
	VS_NLA_NEST(VS_VTASK_A_POLICY, "policies", lifecycle_policy, VS_POLICY_A_MAX,
		    .flags = MULTI),
};

#define VJOB_REJECTED								\
	VS_NLA_REJECTED(VS_VJOB_A_NAMESPACE, "namespace"),			\
	VS_NLA_REJECTED(VS_VJOB_A_NAME, "name"),				\
	VS_NLA_REJECTED(VS_VJOB_A_QUEUE, "queue"),				\
	VS_NLA_REJECTED(VS_VJOB_A_PRIORITY_CLASS, "priorityClassName"),		\
	VS_NLA_REJECTED(VS_VJOB_A_MIN_AVAILABLE, "minAvailable"),		\
	VS_NLA_REJECTED(VS_VJOB_A_MAX_RETRY, "maxRetry"),			\
	VS_NLA_REJECTED(VS_VJOB_A_TASK, "tasks"),				\
	VS_NLA_REJECTED(VS_VJOB_A_POLICY, "policies"),				\
	VS_NLA_REJECTED(VS_VJOB_A_PHASE, "phase"),				\
	VS_NLA_REJECTED(VS_VJOB_A_RETRY_COUNT, "retryCount"),			\
	VS_NLA_REJECTED(VS_VJOB_A_STATE, "state")

static const struct vs_nla_policy kept_policy[VS_KEPT_A_MAX + 1] = {
	VS_NLA_STR(VS_KEPT_A_TASK, "task", VS_NAME_MAX, .flags = REQ),
	VS_NLA_RANGE(VS_KEPT_A_SUCCEEDED, "succeeded", VS_NLA_U32, 0, VS_INT32_MAX, MULTI),
	VS_NLA_RANGE(VS_KEPT_A_FAILED, "failed", VS_NLA_U32, 0, VS_INT32_MAX, MULTI),
};

#define STATE_COUNT(_attr, _name) VS_NLA_RANGE(_attr, _name, VS_NLA_U32, 0, VS_INT32_MAX, 0)

static const struct vs_nla_policy vjob_state_policy[VS_VJSTATE_A_MAX + 1] = {
	ENUM(VS_VJSTATE_A_PHASE, "phase", VS_VJOB_PHASE_FAILED, REQ),
	STATE_COUNT(VS_VJSTATE_A_RETRY_COUNT, "retryCount"),
	VS_NLA_INT(VS_VJSTATE_A_VERSION, "version", VS_NLA_U32),
	STATE_COUNT(VS_VJSTATE_A_MIN_AVAILABLE, "minAvailable"),
	STATE_COUNT(VS_VJSTATE_A_PENDING, "pending"),
	STATE_COUNT(VS_VJSTATE_A_RUNNING, "running"),
	STATE_COUNT(VS_VJSTATE_A_SUCCEEDED, "succeeded"),
	STATE_COUNT(VS_VJSTATE_A_FAILED, "failed"),
	STATE_COUNT(VS_VJSTATE_A_TERMINATING, "terminating"),
	STATE_COUNT(VS_VJSTATE_A_UNKNOWN, "unknown"),
	VS_NLA_INT(VS_VJSTATE_A_PODGROUP, "podgroup", VS_NLA_FLAG),
	VS_NLA_NEST(VS_VJSTATE_A_KEPT, "kept", kept_policy, VS_KEPT_A_MAX, .flags = MULTI),
};

#undef STATE_COUNT

static const struct vs_nla_policy vjob_policy[VS_VJOB_A_MAX + 1] = {
	VS_NLA_STR(VS_VJOB_A_NAMESPACE, "namespace", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_VJOB_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_VJOB_A_QUEUE, "queue", VS_NAME_MAX),
	VS_NLA_STR(VS_VJOB_A_PRIORITY_CLASS, "priorityClassName", VS_NAME_MAX),
	VS_NLA_RANGE(VS_VJOB_A_MIN_AVAILABLE, "minAvailable", VS_NLA_U32, 0, VS_INT32_MAX, 0),
	VS_NLA_RANGE(VS_VJOB_A_MAX_RETRY, "maxRetry", VS_NLA_U32, 0, VS_INT32_MAX, 0),
	VS_NLA_NEST(VS_VJOB_A_TASK, "tasks", vtask_policy, VS_VTASK_A_MAX, .flags = MULTI),
	VS_NLA_NEST(VS_VJOB_A_POLICY, "policies", lifecycle_policy, VS_POLICY_A_MAX,
		    .flags = MULTI),
	ENUM(VS_VJOB_A_PHASE, "phase", VS_VJOB_PHASE_FAILED, RO),
	VS_NLA_INT(VS_VJOB_A_RETRY_COUNT, "retryCount", VS_NLA_U32, .flags = RO),
	VS_NLA_NEST(VS_VJOB_A_STATE, "state", vjob_state_policy, VS_VJSTATE_A_MAX,
		    .flags = VS_NLA_F_RESTORE),
};

static const struct vs_nla_policy vjob_key_policy[VS_VJOB_A_MAX + 1] = {
	VJOB_REJECTED,
	VS_NLA_STR(VS_VJOB_A_NAMESPACE, "namespace", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_VJOB_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
};

/* ---- priority classes ---- */

static const struct vs_nla_policy pc_policy[VS_PC_A_MAX + 1] = {
	VS_NLA_STR(VS_PC_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	VS_NLA_INT(VS_PC_A_VALUE, "value", VS_NLA_S32),
	BOOL(VS_PC_A_GLOBAL_DEFAULT, "globalDefault", 0),
	ENUM(VS_PC_A_PREEMPTION_POLICY, "preemptionPolicy", VS_PREEMPTION_NEVER, 0),
};

static const struct vs_nla_policy pc_key_policy[VS_PC_A_MAX + 1] = {
	VS_NLA_STR(VS_PC_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	VS_NLA_REJECTED(VS_PC_A_VALUE, "value"),
	VS_NLA_REJECTED(VS_PC_A_GLOBAL_DEFAULT, "globalDefault"),
	VS_NLA_REJECTED(VS_PC_A_PREEMPTION_POLICY, "preemptionPolicy"),
};

/* ---- configuration, bind results, explanations ---- */

static const struct vs_nla_policy conf_policy[VS_CONF_A_MAX + 1] = {
	VS_NLA_STR(VS_CONF_A_TEXT, "text", 0),
	VS_NLA_STR(VS_CONF_A_SOURCE, "source", VS_PATH_MAX),
	VS_NLA_INT(VS_CONF_A_CHECK_ONLY, "checkOnly", VS_NLA_FLAG),
	VS_NLA_RANGE(VS_CONF_A_PERIOD_MS, "periodMs", VS_NLA_U32, 1, VS_NL_PERIOD_MAX_MS, 0),
};

static const struct vs_nla_policy bind_result_policy[VS_BIND_A_MAX + 1] = {
	VS_NLA_STR(VS_BIND_A_NAMESPACE, "namespace", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_BIND_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_BIND_A_NODE, "node", VS_NAME_MAX),
	/* 0, or a negative errno: the kernel's errnos end at 4095. */
	VS_NLA_RANGE(VS_BIND_A_ERROR, "error", VS_NLA_S32, -4095, 0, REQ),
	VS_NLA_STR(VS_BIND_A_MESSAGE, "message", VS_TEXT_MAX),
};

/*
 * Users' commands: each takes only the actions of its controller (Volcano's
 * bus actions but SyncQueue, which is the controllers' own).
 */
static const struct vs_nla_policy vjob_command_policy[VS_COMMAND_A_MAX + 1] = {
	VS_NLA_STR(VS_COMMAND_A_NAMESPACE, "namespace", VS_NAME_MAX, .flags = REQ),
	VS_NLA_STR(VS_COMMAND_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	ENUM(VS_COMMAND_A_ACTION, "action", VS_ACTION_ENQUEUE_JOB, REQ),
	VS_NLA_STR(VS_COMMAND_A_TASK, "task", VS_NAME_MAX),
	VS_NLA_STR(VS_COMMAND_A_POD, "pod", VS_NAME_MAX),
};

static const struct vs_nla_policy queue_command_policy[VS_COMMAND_A_MAX + 1] = {
	VS_NLA_REJECTED(VS_COMMAND_A_NAMESPACE, "namespace"),
	VS_NLA_STR(VS_COMMAND_A_NAME, "name", VS_NAME_MAX, .flags = REQ),
	VS_NLA_RANGE(VS_COMMAND_A_ACTION, "action", VS_NLA_U32, VS_ACTION_OPEN_QUEUE,
		     VS_ACTION_CLOSE_QUEUE, REQ),
	VS_NLA_REJECTED(VS_COMMAND_A_TASK, "task"),
	VS_NLA_REJECTED(VS_COMMAND_A_POD, "pod"),
};

static const struct vs_nla_policy explain_policy[VS_EXPLAIN_A_MAX + 1] = {
	VS_NLA_STR(VS_EXPLAIN_A_NAMESPACE, "namespace", VS_NAME_MAX),
	VS_NLA_STR(VS_EXPLAIN_A_PODGROUP, "podgroup", VS_NAME_MAX),
	VS_NLA_STR(VS_EXPLAIN_A_TASK, "task", VS_NAME_MAX),
	VS_NLA_STR(VS_EXPLAIN_A_REASON, "reason", VS_NAME_MAX, .flags = RO),
	VS_NLA_STR(VS_EXPLAIN_A_MESSAGE, "message", 0, .flags = RO),
	VS_NLA_STR(VS_EXPLAIN_A_STEP, "steps", 0, .flags = RO | MULTI),
	VS_NLA_STR(VS_EXPLAIN_A_NODE, "node", VS_NAME_MAX),
	VS_NLA_STR(VS_EXPLAIN_A_STATUS, "status", VS_NAME_MAX, .flags = RO),
	VS_NLA_INT(VS_EXPLAIN_A_CYCLE, "cycle", VS_NLA_U64, .flags = RO),
	VS_NLA_RANGE(VS_EXPLAIN_A_SCORES, "scores", VS_NLA_U32, 1, VS_EXPLAIN_SCORES_MAX, 0),
};

/* ---- replies only: cycles, decisions, statistics ---- */

static const struct vs_nla_policy action_stat_policy[VS_ACTSTAT_A_MAX + 1] = {
	VS_NLA_STR(VS_ACTSTAT_A_NAME, "name", VS_NAME_MAX),
	VS_NLA_INT(VS_ACTSTAT_A_DURATION_NS, "durationNs", VS_NLA_U64),
};

static const struct vs_nla_policy cycle_policy[VS_CYCLE_A_MAX + 1] = {
	VS_NLA_INT(VS_CYCLE_A_ID, "id", VS_NLA_U64),
	VS_NLA_INT(VS_CYCLE_A_DURATION_NS, "durationNs", VS_NLA_U64),
	VS_NLA_INT(VS_CYCLE_A_BINDS, "binds", VS_NLA_U32),
	VS_NLA_INT(VS_CYCLE_A_EVICTS, "evicts", VS_NLA_U32),
	VS_NLA_INT(VS_CYCLE_A_PENDING, "pending", VS_NLA_U32),
	VS_NLA_NEST(VS_CYCLE_A_ACTION, "actions", action_stat_policy, VS_ACTSTAT_A_MAX,
		    .flags = MULTI),
};

static const struct vs_nla_policy decision_policy[VS_DECISION_A_MAX + 1] = {
	ENUM(VS_DECISION_A_KIND, "kind", VS_DECISION_PIPELINE, 0),
	VS_NLA_STR(VS_DECISION_A_NAMESPACE, "namespace", VS_NAME_MAX),
	VS_NLA_STR(VS_DECISION_A_NAME, "name", VS_NAME_MAX),
	VS_NLA_STR(VS_DECISION_A_NODE, "node", VS_NAME_MAX),
	VS_NLA_STR(VS_DECISION_A_REASON, "reason", VS_NAME_MAX),
};

static const struct vs_nla_policy pool_policy[VS_POOL_A_MAX + 1] = {
	VS_NLA_STR(VS_POOL_A_NAME, "name", VS_NAME_MAX),
	VS_NLA_INT(VS_POOL_A_OBJ_SIZE, "objSize", VS_NLA_U32),
	VS_NLA_INT(VS_POOL_A_ACTIVE, "active", VS_NLA_U64),
	VS_NLA_INT(VS_POOL_A_TOTAL, "total", VS_NLA_U64),
	VS_NLA_INT(VS_POOL_A_SLABS, "slabs", VS_NLA_U64),
	VS_NLA_INT(VS_POOL_A_BYTES, "bytes", VS_NLA_U64),
};

static const struct vs_nla_policy hist_policy[VS_HIST_A_MAX + 1] = {
	VS_NLA_STR(VS_HIST_A_NAME, "name", VS_NAME_MAX),
	VS_NLA_NEST(VS_HIST_A_LABELS, "labels", labels_policy, VS_LABELS_A_MAX),
	VS_NLA_INT(VS_HIST_A_MIN_US, "minUs", VS_NLA_U32),
	VS_NLA_INT(VS_HIST_A_MAX_US, "maxUs", VS_NLA_U32),
	VS_NLA_INT(VS_HIST_A_COUNT, "count", VS_NLA_U64),
	VS_NLA_INT(VS_HIST_A_SUM_NS, "sumNs", VS_NLA_U64),
	VS_NLA_INT(VS_HIST_A_BUCKET, "buckets", VS_NLA_U64, .flags = MULTI),
};

static const struct vs_nla_policy stats_policy[VS_STATS_A_MAX + 1] = {
	VS_NLA_INT(VS_STATS_A_CYCLES, "cycles", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_BINDS, "binds", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_EVICTS, "evicts", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_BIND_FAILURES, "bindFailures", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_NR_NODES, "nrNodes", VS_NLA_U32),
	VS_NLA_INT(VS_STATS_A_NR_QUEUES, "nrQueues", VS_NLA_U32),
	VS_NLA_INT(VS_STATS_A_NR_PODGROUPS, "nrPodGroups", VS_NLA_U32),
	VS_NLA_INT(VS_STATS_A_NR_TASKS, "nrTasks", VS_NLA_U32),
	VS_NLA_NEST(VS_STATS_A_LAST_CYCLE, "lastCycle", cycle_policy, VS_CYCLE_A_MAX),
	VS_NLA_NEST(VS_STATS_A_POOL, "pools", pool_policy, VS_POOL_A_MAX, .flags = MULTI),
	VS_NLA_INT(VS_STATS_A_RSS_BYTES, "rssBytes", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_NR_VJOBS, "nrVolcanoJobs", VS_NLA_U32),
	VS_NLA_INT(VS_STATS_A_NR_PRIOCLASSES, "nrPriorityClasses", VS_NLA_U32),
	VS_NLA_INT(VS_STATS_A_DISCARDED_OPS, "discardedOps", VS_NLA_U64),
	VS_NLA_NEST(VS_STATS_A_HIST, "histograms", hist_policy, VS_HIST_A_MAX, .flags = MULTI),
	VS_NLA_INT(VS_STATS_A_ATTEMPTS_SCHEDULED, "attemptsScheduled", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_ATTEMPTS_UNSCHED, "attemptsUnschedulable", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_PREEMPT_ATTEMPTS, "preemptionAttempts", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_PREEMPT_VICTIMS, "preemptionVictims", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_EVICT_TX_PREEMPT, "evictionTransactionsPreempt", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_EVICT_TX_RECLAIM, "evictionTransactionsReclaim", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_UNSCHED_JOBS, "unschedulableJobs", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_UNSCHED_TASKS, "unschedulableTasks", VS_NLA_U64),
	VS_NLA_NEST(VS_STATS_A_ALLOCATABLE, "allocatable", res_policy, VS_RES_A_MAX),
	VS_NLA_NEST(VS_STATS_A_USED, "used", res_policy, VS_RES_A_MAX),
	VS_NLA_NEST(VS_STATS_A_RECENT_CYCLE, "recentCycles", cycle_policy, VS_CYCLE_A_MAX,
		    .flags = MULTI),
	VS_NLA_INT(VS_STATS_A_HEAP_BYTES, "heapBytes", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_MAX_MEMORY, "maxMemoryBytes", VS_NLA_U64),
	VS_NLA_INT(VS_STATS_A_CONN_REFUSED, "connectionsRefused", VS_NLA_U64),
};

/* The upper bound is the daemon's (--rcvbuf-max): the handler says it. */
static const struct vs_nla_policy conn_policy[VS_CONN_A_MAX + 1] = {
	VS_NLA_RANGE(VS_CONN_A_RCVBUF, "rcvbuf", VS_NLA_U64, VS_CONN_RCVBUF_MIN, INT64_MAX, 0),
	VS_NLA_INT(VS_CONN_A_RCVBUF_MAX, "rcvbufMax", VS_NLA_U64, .flags = RO),
	VS_NLA_INT(VS_CONN_A_PORTID, "portID", VS_NLA_U32, .flags = RO),
	BOOL(VS_CONN_A_HOLD, "hold", 0),
};

/* ---- the top level, per command ---- */

/*
 * Every top-level attribute as a command that takes none of them sees it:
 * refused by name, and the reply-only ones refused as read-only.
 */
#define TOP_DEFAULTS								\
	VS_NLA_REJECTED(VS_A_NODE, "node"),					\
	VS_NLA_REJECTED(VS_A_QUEUE, "queue"),					\
	VS_NLA_REJECTED(VS_A_PODGROUP, "podgroup"),				\
	VS_NLA_REJECTED(VS_A_TASK, "task"),					\
	VS_NLA_REJECTED(VS_A_VJOB, "vjob"),					\
	VS_NLA_REJECTED(VS_A_PRIOCLASS, "priorityclass"),			\
	VS_NLA_REJECTED(VS_A_CONF, "conf"),					\
	VS_NLA_NEST(VS_A_STATS, "stats", stats_policy, VS_STATS_A_MAX, .flags = RO),	\
	VS_NLA_NEST(VS_A_CYCLE, "cycle", cycle_policy, VS_CYCLE_A_MAX, .flags = RO),	\
	VS_NLA_NEST(VS_A_DECISION, "decision", decision_policy, VS_DECISION_A_MAX,	\
		    .flags = RO | MULTI),					\
	VS_NLA_REJECTED(VS_A_BIND_RESULT, "bindResult"),			\
	VS_NLA_REJECTED(VS_A_EXPLAIN, "explain"),				\
	VS_NLA_REJECTED(VS_A_MCGRP, "mcgrp"),					\
	VS_NLA_INT(VS_A_CYCLE_ID, "cycleID", VS_NLA_U64, .flags = RO),		\
	ENUM(VS_A_EVENT_KIND, "eventKind", VS_EVENT_UNSCHEDULABLE, RO),		\
	VS_NLA_REJECTED(VS_A_FILTER_NAMESPACE, "filterNamespace"),		\
	VS_NLA_REJECTED(VS_A_FILTER_QUEUE, "filterQueue"),			\
	VS_NLA_REJECTED(VS_A_FILTER_PODGROUP, "filterPodgroup"),		\
	VS_NLA_REJECTED(VS_A_FILTER_NODE, "filterNode"),			\
	VS_NLA_REJECTED(VS_A_FILTER_STATUS, "filterStatus"),			\
	VS_NLA_REJECTED(VS_A_COMMAND, "command"),				\
	VS_NLA_REJECTED(VS_A_CONN, "conn")

#define TOP(_attr, _name, _set, _maxattr)					\
	VS_NLA_NEST(_attr, _name, _set, _maxattr, .flags = REQ)

#define FILTER_NAMESPACE							\
	VS_NLA_STR(VS_A_FILTER_NAMESPACE, "filterNamespace", VS_NAME_MAX)

static const struct vs_nla_policy no_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
};

static const struct vs_nla_policy node_new_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_NODE, "node", node_policy, VS_NODE_A_MAX),
};

static const struct vs_nla_policy node_key_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_NODE, "node", node_key_policy, VS_NODE_A_MAX),
};

static const struct vs_nla_policy queue_new_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_QUEUE, "queue", queue_policy, VS_QUEUE_A_MAX),
};

static const struct vs_nla_policy queue_key_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_QUEUE, "queue", queue_key_policy, VS_QUEUE_A_MAX),
};

static const struct vs_nla_policy pg_new_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_PODGROUP, "podgroup", pg_policy, VS_PG_A_MAX),
};

static const struct vs_nla_policy pg_key_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_PODGROUP, "podgroup", pg_key_policy, VS_PG_A_MAX),
};

static const struct vs_nla_policy pg_dump_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	FILTER_NAMESPACE,
	VS_NLA_STR(VS_A_FILTER_QUEUE, "filterQueue", VS_NAME_MAX),
};

static const struct vs_nla_policy task_new_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_TASK, "task", task_policy, VS_TASK_A_MAX),
};

static const struct vs_nla_policy task_key_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_TASK, "task", task_key_policy, VS_TASK_A_MAX),
};

static const struct vs_nla_policy task_dump_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	FILTER_NAMESPACE,
	VS_NLA_STR(VS_A_FILTER_PODGROUP, "filterPodgroup", VS_NAME_MAX),
	VS_NLA_STR(VS_A_FILTER_NODE, "filterNode", VS_NAME_MAX),
	VS_NLA_RANGE(VS_A_FILTER_STATUS, "filterStatus", VS_NLA_U32, 0,
		     (1 << (VS_TASK_STATUS_UNKNOWN + 1)) - 1, 0),
};

static const struct vs_nla_policy task_status_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_TASK, "task", task_status_policy, VS_TASK_A_MAX),
};

static const struct vs_nla_policy vjob_new_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_VJOB, "vjob", vjob_policy, VS_VJOB_A_MAX),
};

static const struct vs_nla_policy vjob_key_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_VJOB, "vjob", vjob_key_policy, VS_VJOB_A_MAX),
};

static const struct vs_nla_policy vjob_dump_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	FILTER_NAMESPACE,
};

static const struct vs_nla_policy pc_new_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_PRIOCLASS, "priorityclass", pc_policy, VS_PC_A_MAX),
};

static const struct vs_nla_policy pc_key_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_PRIOCLASS, "priorityclass", pc_key_policy, VS_PC_A_MAX),
};

static const struct vs_nla_policy bind_result_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_BIND_RESULT, "bindResult", bind_result_policy, VS_BIND_A_MAX),
};

static const struct vs_nla_policy conf_set_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_CONF, "conf", conf_policy, VS_CONF_A_MAX),
};

static const struct vs_nla_policy explain_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_EXPLAIN, "explain", explain_policy, VS_EXPLAIN_A_MAX),
};

static const struct vs_nla_policy vjob_command_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_COMMAND, "command", vjob_command_policy, VS_COMMAND_A_MAX),
};

static const struct vs_nla_policy queue_command_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_COMMAND, "command", queue_command_policy, VS_COMMAND_A_MAX),
};

static const struct vs_nla_policy mcgrp_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	VS_NLA_RANGE(VS_A_MCGRP, "mcgrp", VS_NLA_U32, 1, VS_MCGRP_MAX, REQ),
};

static const struct vs_nla_policy conn_set_attrs[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	TOP(VS_A_CONN, "conn", conn_policy, VS_CONN_A_MAX),
};

/*
 * The replies' sets, for tests and for clients that check what they get:
 * everything an object's GET reply or notification may hold.
 */
const struct vs_nla_policy vs_genl_reply_policy[VS_A_MAX + 1] = {
	TOP_DEFAULTS,
	VS_NLA_NEST(VS_A_NODE, "node", node_policy, VS_NODE_A_MAX),
	VS_NLA_NEST(VS_A_QUEUE, "queue", queue_policy, VS_QUEUE_A_MAX),
	VS_NLA_NEST(VS_A_PODGROUP, "podgroup", pg_policy, VS_PG_A_MAX),
	VS_NLA_NEST(VS_A_TASK, "task", task_policy, VS_TASK_A_MAX),
	VS_NLA_NEST(VS_A_VJOB, "vjob", vjob_policy, VS_VJOB_A_MAX),
	VS_NLA_NEST(VS_A_PRIOCLASS, "priorityclass", pc_policy, VS_PC_A_MAX),
	VS_NLA_NEST(VS_A_CONF, "conf", conf_policy, VS_CONF_A_MAX),
	VS_NLA_NEST(VS_A_EXPLAIN, "explain", explain_policy, VS_EXPLAIN_A_MAX),
	VS_NLA_NEST(VS_A_CONN, "conn", conn_policy, VS_CONN_A_MAX),
};

/* ---- the ops ---- */

#define OP(_cmd, _flags)							\
	.cmd = (_cmd), .name = #_cmd, .flags = (_flags), .maxattr = VS_A_MAX

#define ADMIN_DO		(VS_OP_DO | VS_OP_ADMIN)
#define ADMIN_GROW		(VS_OP_DO | VS_OP_ADMIN | VS_OP_GROWS)
#define GET			(VS_OP_DO | VS_OP_DUMP)

static const struct vs_genl_op vs_genl_ops[] = {
	[VS_CMD_NODE_NEW]	= { OP(VS_CMD_NODE_NEW, ADMIN_GROW), .policy = node_new_attrs,
				    .doit = vs_nl_obj_new_doit },
	[VS_CMD_NODE_SET]	= { OP(VS_CMD_NODE_SET, ADMIN_GROW), .policy = node_new_attrs,
				    .doit = vs_nl_obj_set_doit },
	[VS_CMD_NODE_DEL]	= { OP(VS_CMD_NODE_DEL, ADMIN_DO), .policy = node_key_attrs,
				    .doit = vs_nl_obj_del_doit },
	[VS_CMD_NODE_GET]	= { OP(VS_CMD_NODE_GET, GET), .policy = node_key_attrs,
				    .dump_policy = no_attrs,
				    .doit = vs_nl_obj_get_doit, .dumpit = vs_nl_obj_get_dumpit },

	[VS_CMD_QUEUE_NEW]	= { OP(VS_CMD_QUEUE_NEW, ADMIN_GROW), .policy = queue_new_attrs,
				    .doit = vs_nl_obj_new_doit },
	[VS_CMD_QUEUE_SET]	= { OP(VS_CMD_QUEUE_SET, ADMIN_GROW), .policy = queue_new_attrs,
				    .doit = vs_nl_obj_set_doit },
	[VS_CMD_QUEUE_DEL]	= { OP(VS_CMD_QUEUE_DEL, ADMIN_DO), .policy = queue_key_attrs,
				    .doit = vs_nl_obj_del_doit },
	[VS_CMD_QUEUE_GET]	= { OP(VS_CMD_QUEUE_GET, GET), .policy = queue_key_attrs,
				    .dump_policy = no_attrs,
				    .doit = vs_nl_obj_get_doit, .dumpit = vs_nl_obj_get_dumpit },

	[VS_CMD_PODGROUP_NEW]	= { OP(VS_CMD_PODGROUP_NEW, ADMIN_GROW), .policy = pg_new_attrs,
				    .doit = vs_nl_obj_new_doit },
	[VS_CMD_PODGROUP_SET]	= { OP(VS_CMD_PODGROUP_SET, ADMIN_GROW), .policy = pg_new_attrs,
				    .doit = vs_nl_obj_set_doit },
	[VS_CMD_PODGROUP_DEL]	= { OP(VS_CMD_PODGROUP_DEL, ADMIN_DO), .policy = pg_key_attrs,
				    .doit = vs_nl_obj_del_doit },
	[VS_CMD_PODGROUP_GET]	= { OP(VS_CMD_PODGROUP_GET, GET), .policy = pg_key_attrs,
				    .dump_policy = pg_dump_attrs,
				    .doit = vs_nl_obj_get_doit, .dumpit = vs_nl_obj_get_dumpit },

	[VS_CMD_TASK_NEW]	= { OP(VS_CMD_TASK_NEW, ADMIN_GROW), .policy = task_new_attrs,
				    .doit = vs_nl_obj_new_doit },
	[VS_CMD_TASK_SET]	= { OP(VS_CMD_TASK_SET, ADMIN_GROW), .policy = task_new_attrs,
				    .doit = vs_nl_obj_set_doit },
	[VS_CMD_TASK_DEL]	= { OP(VS_CMD_TASK_DEL, ADMIN_DO), .policy = task_key_attrs,
				    .doit = vs_nl_obj_del_doit },
	[VS_CMD_TASK_GET]	= { OP(VS_CMD_TASK_GET, GET), .policy = task_key_attrs,
				    .dump_policy = task_dump_attrs,
				    .doit = vs_nl_obj_get_doit, .dumpit = vs_nl_obj_get_dumpit },

	[VS_CMD_VJOB_NEW]	= { OP(VS_CMD_VJOB_NEW, ADMIN_GROW), .policy = vjob_new_attrs,
				    .doit = vs_nl_obj_new_doit },
	[VS_CMD_VJOB_SET]	= { OP(VS_CMD_VJOB_SET, ADMIN_GROW), .policy = vjob_new_attrs,
				    .doit = vs_nl_obj_set_doit },
	[VS_CMD_VJOB_DEL]	= { OP(VS_CMD_VJOB_DEL, ADMIN_DO), .policy = vjob_key_attrs,
				    .doit = vs_nl_obj_del_doit },
	[VS_CMD_VJOB_GET]	= { OP(VS_CMD_VJOB_GET, GET), .policy = vjob_key_attrs,
				    .dump_policy = vjob_dump_attrs,
				    .doit = vs_nl_obj_get_doit, .dumpit = vs_nl_obj_get_dumpit },

	[VS_CMD_PRIOCLASS_NEW]	= { OP(VS_CMD_PRIOCLASS_NEW, ADMIN_GROW), .policy = pc_new_attrs,
				    .doit = vs_nl_obj_new_doit },
	[VS_CMD_PRIOCLASS_SET]	= { OP(VS_CMD_PRIOCLASS_SET, ADMIN_GROW), .policy = pc_new_attrs,
				    .doit = vs_nl_obj_set_doit },
	[VS_CMD_PRIOCLASS_DEL]	= { OP(VS_CMD_PRIOCLASS_DEL, ADMIN_DO), .policy = pc_key_attrs,
				    .doit = vs_nl_obj_del_doit },
	[VS_CMD_PRIOCLASS_GET]	= { OP(VS_CMD_PRIOCLASS_GET, GET), .policy = pc_key_attrs,
				    .dump_policy = no_attrs,
				    .doit = vs_nl_obj_get_doit, .dumpit = vs_nl_obj_get_dumpit },

	[VS_CMD_TASK_STATUS]	= { OP(VS_CMD_TASK_STATUS, ADMIN_DO),
				    .policy = task_status_attrs, .doit = vs_nl_task_status_doit },
	[VS_CMD_BIND_RESULT]	= { OP(VS_CMD_BIND_RESULT, ADMIN_DO),
				    .policy = bind_result_attrs, .doit = vs_nl_bind_result_doit },
	[VS_CMD_CONF_GET]	= { OP(VS_CMD_CONF_GET, VS_OP_DO), .policy = no_attrs,
				    .doit = vs_nl_conf_get_doit },
	[VS_CMD_CONF_SET]	= { OP(VS_CMD_CONF_SET, ADMIN_GROW), .policy = conf_set_attrs,
				    .doit = vs_nl_conf_set_doit },
	[VS_CMD_CYCLE_RUN]	= { OP(VS_CMD_CYCLE_RUN, ADMIN_DO), .policy = no_attrs,
				    .doit = vs_nl_cycle_run_doit },
	[VS_CMD_STATS_GET]	= { OP(VS_CMD_STATS_GET, VS_OP_DO), .policy = no_attrs,
				    .doit = vs_nl_stats_get_doit },
	[VS_CMD_EXPLAIN]	= { OP(VS_CMD_EXPLAIN, VS_OP_DO), .policy = explain_attrs,
				    .doit = vs_nl_explain_doit },
	[VS_CMD_BATCH_BEGIN]	= { OP(VS_CMD_BATCH_BEGIN, ADMIN_DO), .policy = no_attrs,
				    .doit = vs_nl_batch_doit },
	[VS_CMD_BATCH_END]	= { OP(VS_CMD_BATCH_END, ADMIN_DO), .policy = no_attrs,
				    .doit = vs_nl_batch_doit },
	[VS_CMD_SUBSCRIBE]	= { OP(VS_CMD_SUBSCRIBE, VS_OP_DO), .policy = mcgrp_attrs,
				    .doit = vs_nl_subscribe_doit },
	[VS_CMD_UNSUBSCRIBE]	= { OP(VS_CMD_UNSUBSCRIBE, VS_OP_DO), .policy = mcgrp_attrs,
				    .doit = vs_nl_subscribe_doit },
	[VS_CMD_RESET]		= { OP(VS_CMD_RESET, ADMIN_DO), .policy = no_attrs,
				    .doit = vs_nl_reset_doit },

	[VS_CMD_DECISIONS]	= { OP(VS_CMD_DECISIONS, VS_OP_NOTIFY) },
	[VS_CMD_EVENT]		= { OP(VS_CMD_EVENT, VS_OP_NOTIFY) },
	[VS_CMD_STATUS]		= { OP(VS_CMD_STATUS, VS_OP_NOTIFY) },
	[VS_CMD_CYCLE]		= { OP(VS_CMD_CYCLE, VS_OP_NOTIFY) },

	[VS_CMD_VJOB_COMMAND]	= { OP(VS_CMD_VJOB_COMMAND, ADMIN_GROW),
				    .policy = vjob_command_attrs,
				    .doit = vs_nl_vjob_command_doit },
	[VS_CMD_QUEUE_COMMAND]	= { OP(VS_CMD_QUEUE_COMMAND, ADMIN_DO),
				    .policy = queue_command_attrs,
				    .doit = vs_nl_queue_command_doit },

	/* A connection's own, as SO_RCVBUF is a socket's; a hold needs the admin (ctl.c). */
	[VS_CMD_CONN_GET]	= { OP(VS_CMD_CONN_GET, VS_OP_DO), .policy = no_attrs,
				    .doit = vs_nl_conn_doit },
	[VS_CMD_CONN_SET]	= { OP(VS_CMD_CONN_SET, VS_OP_DO), .policy = conn_set_attrs,
				    .doit = vs_nl_conn_doit },
	[VS_CMD_DUMP]		= { OP(VS_CMD_DUMP, VS_OP_DUMP | VS_OP_ADMIN), .policy = no_attrs,
				    .dumpit = vs_nl_dump_dumpit, .done = vs_nl_dump_done },
};

static const char *const vs_mcgrp_names[VS_MCGRP_MAX + 1] = {
	[VS_MCGRP_DECISIONS]	= VSCHED_MCGRP_DECISIONS,
	[VS_MCGRP_EVENTS]	= VSCHED_MCGRP_EVENTS,
	[VS_MCGRP_CYCLES]	= VSCHED_MCGRP_CYCLES,
	[VS_MCGRP_STATUS]	= VSCHED_MCGRP_STATUS,
};

const struct vs_genl_family vs_genl_vsched = {
	.name = VSCHED_GENL_NAME,
	.id = VSCHED_GENL_ID,
	.version = VSCHED_GENL_VERSION,
	.maxattr = VS_A_MAX,
	.ops = vs_genl_ops,
	.n_ops = ARRAY_SIZE(vs_genl_ops),
	.mcgrps = vs_mcgrp_names,
	.n_mcgrps = VS_MCGRP_MAX,
};
