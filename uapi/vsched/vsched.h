/* SPDX-License-Identifier: Apache-2.0 WITH Linux-syscall-note */
/*
 * vsched's control protocol: a generic netlink family spoken over an
 * AF_UNIX SOCK_SEQPACKET socket, one netlink message (or a batch of them)
 * per datagram.
 *
 * The wire format is exactly netlink's: struct nlmsghdr, struct genlmsghdr,
 * then struct nlattr TLVs, 4-byte aligned, in host byte order, nested
 * attributes flagged NLA_F_NESTED. Requests set NLM_F_REQUEST and may set
 * NLM_F_ACK; a GET with NLM_F_DUMP is answered with NLM_F_MULTI parts and
 * NLMSG_DONE; errors are NLMSG_ERROR with a negative errno and the extended
 * ack attributes NLMSGERR_ATTR_MSG (text) and NLMSGERR_ATTR_OFFS (offset of
 * the offending attribute in the request).
 *
 * There is no netlink controller behind a Unix socket to resolve the family
 * name, so the family has the fixed message type VSCHED_GENL_ID;
 * CTRL_CMD_GETFAMILY sent to GENL_ID_CTRL is nonetheless answered (family
 * id, version, multicast group ids), so that generic netlink tooling works.
 *
 * Documentation/protocol.md is the reference: every command's attributes,
 * flags, replies and errors. This header is the only file vsched's daemon
 * and its clients share; it uses nothing but <linux/types.h>.
 *
 * Conventions:
 *   - Names (nodes, queues, priority classes) are NUL-terminated strings
 *     of at most VS_NAME_MAX bytes with the NUL; namespaced objects carry
 *     VS_*_A_NAMESPACE and VS_*_A_NAME.
 *   - Quantities are integers in Volcano's units: cpu in millicores,
 *     memory in bytes, pods as a count, and every other (scalar) resource,
 *     ephemeral-storage included, in milli-units of its quantity
 *     (Kubernetes' "1" is 1000, "1Ki" is 1024000).
 *   - A flag attribute (NLA_FLAG) is true by its presence.
 *   - Attributes a command does not take are refused (EINVAL, with the
 *     offset); attributes marked "read-only" appear only in replies.
 */
#ifndef _UAPI_VSCHED_VSCHED_H
#define _UAPI_VSCHED_VSCHED_H

#include <linux/types.h>

#define VSCHED_GENL_NAME	"vsched"
#define VSCHED_GENL_VERSION	1
/* The family's nlmsg_type: the first id after the controller's (GENL_ID_CTRL). */
#define VSCHED_GENL_ID		0x20

/* Where vschedd listens unless told otherwise (flag --socket, or the environment). */
#define VSCHED_SOCKET_DEFAULT	"/run/vsched/vsched.sock"
#define VSCHED_SOCKET_ENV	"VSCHED_SOCKET"

/* Limits every side can rely on. */
#define VS_NAME_MAX		254	/* a DNS subdomain (253) and its NUL */
#define VS_LABEL_VALUE_MAX	64	/* a label value (63) and its NUL */
#define VS_MSG_MAX		(1 << 20)	/* the largest datagram either side sends */
#define VS_NEST_MAX		8	/* the deepest nesting a request may use */
/* A PodGroup condition's texts with their NUL, as Kubernetes bounds a condition's. */
#define VS_COND_REASON_MAX	1025
#define VS_COND_MESSAGE_MAX	32769
#define VS_COND_ID_MAX		254

/* Multicast groups, by name (their ids are in CTRL_CMD_GETFAMILY's reply). */
#define VSCHED_MCGRP_DECISIONS	"decisions"	/* binds and evictions, a batch per cycle */
#define VSCHED_MCGRP_EVENTS	"events"	/* object changes */
#define VSCHED_MCGRP_CYCLES	"cycles"	/* per-cycle statistics */
#define VSCHED_MCGRP_STATUS	"status"	/* what a bridge writes back: PodGroup, pod, queue status */

enum vs_mcgrp {
	VS_MCGRP_DECISIONS = 1,
	VS_MCGRP_EVENTS,
	VS_MCGRP_CYCLES,
	VS_MCGRP_STATUS,
	__VS_MCGRP_MAX
};
#define VS_MCGRP_MAX (__VS_MCGRP_MAX - 1)

/* ---- commands ---- */

enum vs_cmd {
	VS_CMD_UNSPEC,

	/*
	 * Objects. NEW creates (EEXIST if the name is taken; with
	 * NLM_F_REPLACE it replaces an existing object's spec instead, as
	 * "vsctl apply" does). SET changes the attributes given and keeps
	 * the rest (ENOENT if absent). DEL removes (ENOENT if absent; a
	 * PodGroup with tasks: EBUSY). GET returns one object, or all of
	 * them with NLM_F_DUMP (VS_A_FILTER_* narrows a dump).
	 */
	VS_CMD_NODE_NEW,
	VS_CMD_NODE_SET,
	VS_CMD_NODE_DEL,
	VS_CMD_NODE_GET,
	VS_CMD_QUEUE_NEW,
	VS_CMD_QUEUE_SET,
	VS_CMD_QUEUE_DEL,
	VS_CMD_QUEUE_GET,
	VS_CMD_PODGROUP_NEW,
	VS_CMD_PODGROUP_SET,
	VS_CMD_PODGROUP_DEL,
	VS_CMD_PODGROUP_GET,
	VS_CMD_TASK_NEW,
	VS_CMD_TASK_SET,
	VS_CMD_TASK_DEL,
	VS_CMD_TASK_GET,
	VS_CMD_VJOB_NEW,
	VS_CMD_VJOB_SET,
	VS_CMD_VJOB_DEL,
	VS_CMD_VJOB_GET,
	VS_CMD_PRIOCLASS_NEW,
	VS_CMD_PRIOCLASS_SET,
	VS_CMD_PRIOCLASS_DEL,
	VS_CMD_PRIOCLASS_GET,

	/*
	 * The outside world reports a task's fate: VS_A_TASK with its
	 * namespace, name and VS_TASK_A_EVENT (enum vs_task_event).
	 */
	VS_CMD_TASK_STATUS,

	/* Whoever binds answers each bind decision: VS_A_BIND_RESULT. */
	VS_CMD_BIND_RESULT,

	/* The scheduler configuration: VS_A_CONF (get replies, set takes). */
	VS_CMD_CONF_GET,
	VS_CMD_CONF_SET,

	/* Run one scheduling cycle now; the reply carries VS_A_CYCLE. */
	VS_CMD_CYCLE_RUN,

	/* VS_A_STATS: counters, the last cycle, the pools. */
	VS_CMD_STATS_GET,

	/* Why a task or PodGroup is where it is: VS_A_EXPLAIN. */
	VS_CMD_EXPLAIN,

	/*
	 * A batch: every message between BEGIN and END (same datagram or
	 * not) is checked and held, and END applies them all or none, as
	 * nftables applies a batch. The error of a refused batch names the
	 * message (its sequence number) and the object.
	 */
	VS_CMD_BATCH_BEGIN,
	VS_CMD_BATCH_END,

	/* Join or leave a multicast group: VS_A_MCGRP (enum vs_mcgrp). */
	VS_CMD_SUBSCRIBE,
	VS_CMD_UNSUBSCRIBE,

	/* Forget every object (admin): for tests and "vsctl scenario run --socket". */
	VS_CMD_RESET,

	/* Notifications (daemon to subscribers only). */
	VS_CMD_DECISIONS,	/* VS_A_DECISION, repeated; VS_A_CYCLE_ID */
	VS_CMD_EVENT,		/* VS_A_EVENT_KIND and the object */
	VS_CMD_CYCLE,		/* VS_A_CYCLE */

	/*
	 * A user's command to a VolcanoJob (Volcano's bus Command): VS_A_COMMAND
	 * with the job's namespace and name, the action (AbortJob...EnqueueJob)
	 * and, for RestartTask and RestartPod, the task and the pod.
	 */
	VS_CMD_VJOB_COMMAND,

	/* A user's command to a queue: VS_A_COMMAND with its name, OpenQueue or CloseQueue. */
	VS_CMD_QUEUE_COMMAND,

	/*
	 * The requester's own connection, as a socket option: VS_A_CONN. GET
	 * answers with it; SET takes VS_CONN_A_RCVBUF, the most notifications
	 * the daemon queues for the connection before it drops them (ENOBUFS),
	 * as SO_RCVBUF sizes a netlink socket's receive queue. Open to anyone,
	 * bounded by the daemon's maximum.
	 */
	VS_CMD_CONN_GET,
	VS_CMD_CONN_SET,

	/*
	 * A notification of the status group (daemon to subscribers only):
	 * VS_A_EVENT_KIND and the object, what a bridge writes back to the
	 * API server (VS_EVENT_STATUS of a PodGroup or a queue,
	 * VS_EVENT_UNSCHEDULABLE of a task).
	 */
	VS_CMD_STATUS,

	/*
	 * NLM_F_DUMP only, admin only: the state as a checkpoint holds it
	 * (checkpoint.h), taken whole when the dump starts. Each part's
	 * messages are the checkpoint's requests as they are (their own
	 * command, VS_CMD_CONF_SET, VS_CMD_NODE_NEW...), with NLM_F_MULTI:
	 * written one after the other under a struct vs_ckpt_header, they are
	 * a checkpoint ("vsctl dump"). One such dump at a time (EBUSY).
	 */
	VS_CMD_DUMP,

	__VS_CMD_MAX
};
#define VS_CMD_MAX (__VS_CMD_MAX - 1)

/* ---- top-level attributes ---- */

enum vs_attr {
	VS_A_UNSPEC,
	VS_A_NODE,		/* nest: enum vs_node_attr */
	VS_A_QUEUE,		/* nest: enum vs_queue_attr */
	VS_A_PODGROUP,		/* nest: enum vs_pg_attr */
	VS_A_TASK,		/* nest: enum vs_task_attr */
	VS_A_VJOB,		/* nest: enum vs_vjob_attr */
	VS_A_PRIOCLASS,		/* nest: enum vs_pc_attr */
	VS_A_CONF,		/* nest: enum vs_conf_attr */
	VS_A_STATS,		/* nest: enum vs_stats_attr (read-only) */
	VS_A_CYCLE,		/* nest: enum vs_cycle_attr (read-only) */
	VS_A_DECISION,		/* nest: enum vs_decision_attr (read-only) */
	VS_A_BIND_RESULT,	/* nest: enum vs_bind_result_attr */
	VS_A_EXPLAIN,		/* nest: enum vs_explain_attr */
	VS_A_MCGRP,		/* u32: enum vs_mcgrp */
	VS_A_CYCLE_ID,		/* u64: the cycle a notification belongs to */
	VS_A_EVENT_KIND,	/* u32: enum vs_event_kind */
	VS_A_FILTER_NAMESPACE,	/* string: dumps of namespaced objects */
	VS_A_FILTER_QUEUE,	/* string: PodGroup dumps */
	VS_A_FILTER_PODGROUP,	/* string: task dumps (with the namespace) */
	VS_A_FILTER_NODE,	/* string: task dumps */
	VS_A_FILTER_STATUS,	/* u32 bit mask of 1 << enum vs_task_status: task dumps */
	VS_A_COMMAND,		/* nest: enum vs_command_attr */
	VS_A_CONN,		/* nest: enum vs_conn_attr */
	__VS_A_MAX
};
#define VS_A_MAX (__VS_A_MAX - 1)

/* ---- shared nested sets ---- */

/* A resource list (allocatable, requests, capability...). */
enum vs_res_attr {
	VS_RES_A_UNSPEC,
	VS_RES_A_CPU,		/* u64 millicores */
	VS_RES_A_MEMORY,	/* u64 bytes */
	VS_RES_A_PODS,		/* u64 */
	VS_RES_A_SCALAR,	/* nest, repeated: enum vs_scalar_attr */
	__VS_RES_A_MAX
};
#define VS_RES_A_MAX (__VS_RES_A_MAX - 1)

/* One other resource: "nvidia.com/gpu", "ephemeral-storage"... */
enum vs_scalar_attr {
	VS_SCALAR_A_UNSPEC,
	VS_SCALAR_A_NAME,	/* string: a qualified resource name */
	VS_SCALAR_A_VALUE,	/* u64: milli-units of the quantity */
	__VS_SCALAR_A_MAX
};
#define VS_SCALAR_A_MAX (__VS_SCALAR_A_MAX - 1)

/* A key and a value: labels, node selectors, match labels. */
enum vs_kv_attr {
	VS_KV_A_UNSPEC,
	VS_KV_A_KEY,		/* string: a qualified label key */
	VS_KV_A_VALUE,		/* string: a label value, may be "" */
	__VS_KV_A_MAX
};
#define VS_KV_A_MAX (__VS_KV_A_MAX - 1)

/* A set of labels: VS_LABELS_A_ITEM repeated, each a nest of enum vs_kv_attr. */
enum vs_labels_attr {
	VS_LABELS_A_UNSPEC,
	VS_LABELS_A_ITEM,
	__VS_LABELS_A_MAX
};
#define VS_LABELS_A_MAX (__VS_LABELS_A_MAX - 1)

enum vs_taint_effect_uapi {
	VS_TAINT_EFFECT_NO_SCHEDULE,
	VS_TAINT_EFFECT_PREFER_NO_SCHEDULE,
	VS_TAINT_EFFECT_NO_EXECUTE,
	VS_TAINT_EFFECT_ANY,		/* tolerations only: every effect */
};

enum vs_taint_attr {
	VS_TAINT_A_UNSPEC,
	VS_TAINT_A_KEY,		/* string */
	VS_TAINT_A_VALUE,	/* string */
	VS_TAINT_A_EFFECT,	/* u32: enum vs_taint_effect_uapi */
	__VS_TAINT_A_MAX
};
#define VS_TAINT_A_MAX (__VS_TAINT_A_MAX - 1)

enum vs_toleration_op_uapi {
	VS_TOLERATION_OP_EQUAL,
	VS_TOLERATION_OP_EXISTS,
};

enum vs_toleration_attr {
	VS_TOL_A_UNSPEC,
	VS_TOL_A_KEY,		/* string; absent: every key (Exists only) */
	VS_TOL_A_OPERATOR,	/* u32: enum vs_toleration_op_uapi, default Equal */
	VS_TOL_A_VALUE,		/* string */
	VS_TOL_A_EFFECT,	/* u32: enum vs_taint_effect_uapi, default any */
	VS_TOL_A_SECONDS,	/* s64: tolerationSeconds */
	__VS_TOL_A_MAX
};
#define VS_TOL_A_MAX (__VS_TOL_A_MAX - 1)

/* ---- affinity (Kubernetes' Affinity, field by field) ---- */

enum vs_sel_op_uapi {
	VS_SEL_OP_IN,
	VS_SEL_OP_NOT_IN,
	VS_SEL_OP_EXISTS,
	VS_SEL_OP_DOES_NOT_EXIST,
	VS_SEL_OP_GT,
	VS_SEL_OP_LT,
};

/* A NodeSelectorRequirement or LabelSelectorRequirement. */
enum vs_selreq_attr {
	VS_SELREQ_A_UNSPEC,
	VS_SELREQ_A_KEY,	/* string */
	VS_SELREQ_A_OP,		/* u32: enum vs_sel_op_uapi */
	VS_SELREQ_A_VALUE,	/* string, repeated */
	__VS_SELREQ_A_MAX
};
#define VS_SELREQ_A_MAX (__VS_SELREQ_A_MAX - 1)

/* A NodeSelectorTerm: its requirements are ANDed. */
enum vs_nsterm_attr {
	VS_NSTERM_A_UNSPEC,
	VS_NSTERM_A_EXPR,	/* nest, repeated: enum vs_selreq_attr, on labels */
	VS_NSTERM_A_FIELD,	/* nest, repeated: enum vs_selreq_attr, on metadata.name */
	VS_NSTERM_A_WEIGHT,	/* s32 1..100: preferred terms only */
	__VS_NSTERM_A_MAX
};
#define VS_NSTERM_A_MAX (__VS_NSTERM_A_MAX - 1)

/* A LabelSelector. */
enum vs_lsel_attr {
	VS_LSEL_A_UNSPEC,
	VS_LSEL_A_MATCH_LABELS,	/* nest: enum vs_labels_attr */
	VS_LSEL_A_EXPR,		/* nest, repeated: enum vs_selreq_attr */
	__VS_LSEL_A_MAX
};
#define VS_LSEL_A_MAX (__VS_LSEL_A_MAX - 1)

/* A (Weighted)PodAffinityTerm. */
enum vs_podterm_attr {
	VS_PODTERM_A_UNSPEC,
	VS_PODTERM_A_SELECTOR,		/* nest: enum vs_lsel_attr; absent matches no pod */
	VS_PODTERM_A_NAMESPACE,		/* string, repeated */
	VS_PODTERM_A_NS_SELECTOR,	/* nest: enum vs_lsel_attr */
	VS_PODTERM_A_TOPOLOGY_KEY,	/* string, required */
	VS_PODTERM_A_WEIGHT,		/* s32 1..100: preferred terms only */
	__VS_PODTERM_A_MAX
};
#define VS_PODTERM_A_MAX (__VS_PODTERM_A_MAX - 1)

enum vs_affinity_attr {
	VS_AFF_A_UNSPEC,
	VS_AFF_A_NODE_REQUIRED,		/* nest, repeated: enum vs_nsterm_attr (ORed) */
	VS_AFF_A_NODE_PREFERRED,	/* nest, repeated: enum vs_nsterm_attr with weight */
	VS_AFF_A_POD_REQUIRED,		/* nest, repeated: enum vs_podterm_attr */
	VS_AFF_A_POD_PREFERRED,		/* nest, repeated: enum vs_podterm_attr with weight */
	VS_AFF_A_ANTI_REQUIRED,		/* nest, repeated: enum vs_podterm_attr */
	VS_AFF_A_ANTI_PREFERRED,	/* nest, repeated: enum vs_podterm_attr with weight */
	__VS_AFF_A_MAX
};
#define VS_AFF_A_MAX (__VS_AFF_A_MAX - 1)

/* ---- nodes ---- */

enum vs_node_attr {
	VS_NODE_A_UNSPEC,
	VS_NODE_A_NAME,			/* string, the key */
	VS_NODE_A_ALLOCATABLE,		/* nest: enum vs_res_attr */
	VS_NODE_A_LABELS,		/* nest: enum vs_labels_attr */
	VS_NODE_A_TAINT,		/* nest, repeated: enum vs_taint_attr */
	VS_NODE_A_UNSCHEDULABLE,	/* u8 0/1: spec.unschedulable (cordon) */
	VS_NODE_A_READY,		/* u8 0/1: the Ready condition, default 1 */
	/* read-only: */
	VS_NODE_A_IDLE,			/* nest: enum vs_res_attr */
	VS_NODE_A_USED,			/* nest: enum vs_res_attr */
	VS_NODE_A_RELEASING,		/* nest: enum vs_res_attr */
	VS_NODE_A_PIPELINED,		/* nest: enum vs_res_attr */
	VS_NODE_A_NR_TASKS,		/* u32 */
	__VS_NODE_A_MAX
};
#define VS_NODE_A_MAX (__VS_NODE_A_MAX - 1)

/* ---- queues ---- */

enum vs_queue_state_uapi {
	VS_QUEUE_STATE_OPEN,
	VS_QUEUE_STATE_CLOSING,
	VS_QUEUE_STATE_CLOSED,
	VS_QUEUE_STATE_UNKNOWN,
};

enum vs_queue_attr {
	VS_QUEUE_A_UNSPEC,
	VS_QUEUE_A_NAME,		/* string, the key */
	VS_QUEUE_A_WEIGHT,		/* u32 >= 1, default 1 */
	VS_QUEUE_A_CAPABILITY,		/* nest: enum vs_res_attr; absent: no limit */
	VS_QUEUE_A_GUARANTEE,		/* nest: enum vs_res_attr */
	VS_QUEUE_A_DESERVED,		/* nest: enum vs_res_attr */
	VS_QUEUE_A_RECLAIMABLE,		/* u8 0/1, default 1 */
	VS_QUEUE_A_PRIORITY,		/* s32 */
	VS_QUEUE_A_STATE,		/* u32: enum vs_queue_state_uapi, default Open */
	VS_QUEUE_A_PARENT,		/* string */
	/* read-only: */
	VS_QUEUE_A_ALLOCATED,		/* nest: enum vs_res_attr */
	VS_QUEUE_A_REQUEST,		/* nest: enum vs_res_attr */
	VS_QUEUE_A_NR_PODGROUPS,	/* nest: u32 per phase, attribute = enum vs_pg_phase_uapi + 1 */
	/*
	 * What the last cycle's proportion or capacity plugin made of the
	 * queue (Volcano's queue metrics); absent before one ran. Zero for a
	 * queue with no job in that cycle.
	 */
	VS_QUEUE_A_CYCLE_DESERVED,	/* nest: enum vs_res_attr */
	VS_QUEUE_A_SHARE,		/* u64: the share in millionths (1000000: all it deserves) */
	VS_QUEUE_A_OVERUSED,		/* u8 0/1 */
	/*
	 * u64: metadata.creationTimestamp, s since 1970. It orders queues, jobs
	 * and tasks that the plugins leave equal (then the order they reached
	 * the daemon); absent or 0: the latest the daemon has been given.
	 * Taken by NEW only.
	 */
	VS_QUEUE_A_CREATED,
	__VS_QUEUE_A_MAX
};
#define VS_QUEUE_A_MAX (__VS_QUEUE_A_MAX - 1)

/* ---- PodGroups ---- */

enum vs_pg_phase_uapi {
	VS_PG_PHASE_PENDING,
	VS_PG_PHASE_RUNNING,
	VS_PG_PHASE_UNKNOWN,
	VS_PG_PHASE_INQUEUE,
	VS_PG_PHASE_COMPLETED,
};

enum vs_pg_cond_uapi {
	VS_PG_COND_TYPE_UNSCHEDULABLE,
	VS_PG_COND_TYPE_SCHEDULED,
};

/* A role's minimum (minTaskMember): the role "" is the tasks without one. */
enum vs_role_min_attr {
	VS_ROLE_MIN_A_UNSPEC,
	VS_ROLE_MIN_A_ROLE,		/* string */
	VS_ROLE_MIN_A_MIN,		/* u32 */
	__VS_ROLE_MIN_A_MAX
};
#define VS_ROLE_MIN_A_MAX (__VS_ROLE_MIN_A_MAX - 1)

enum vs_cond_attr {
	VS_COND_A_UNSPEC,
	VS_COND_A_TYPE,			/* u32: enum vs_pg_cond_uapi */
	VS_COND_A_STATUS,		/* u8 0/1 */
	VS_COND_A_REASON,		/* string */
	VS_COND_A_MESSAGE,		/* string */
	VS_COND_A_TRANSITION,		/* u64, read-only: the cycle that set it, 0 for a given one */
	VS_COND_A_TRANSITION_ID,	/* string: a given condition's transitionID */
	VS_COND_A_TIME,			/* u64: a given condition's lastTransitionTime, s since 1970 */
	__VS_COND_A_MAX
};
#define VS_COND_A_MAX (__VS_COND_A_MAX - 1)

enum vs_pg_attr {
	VS_PG_A_UNSPEC,
	VS_PG_A_NAMESPACE,		/* string, the key with the name */
	VS_PG_A_NAME,			/* string */
	VS_PG_A_QUEUE,			/* string, default "default" */
	VS_PG_A_MIN_MEMBER,		/* u32, default 1 */
	VS_PG_A_MIN_TASK_MEMBER,	/* nest, repeated: enum vs_role_min_attr */
	VS_PG_A_MIN_RESOURCES,		/* nest: enum vs_res_attr */
	VS_PG_A_PRIORITY_CLASS,		/* string */
	VS_PG_A_PHASE,			/* u32: enum vs_pg_phase_uapi, default Pending */
	/* read-only: */
	VS_PG_A_CONDITION,		/* nest, repeated: enum vs_cond_attr */
	VS_PG_A_NR_TASKS,		/* nest: u32 per status, attribute = enum vs_task_status_uapi + 1 */
	VS_PG_A_ALLOCATED,		/* nest: enum vs_res_attr */
	/*
	 * string, the status group's VS_EVENT_STATUS only, while the phase is
	 * Pending or Inqueue: Volcano's JobInfo.FitError() of the cycle ("pod
	 * group is not ready, 2 Pending, 3 minAvailable; Pending: 2
	 * Unschedulable. Origin reason is p0: 0/4 nodes are unavailable: ...").
	 */
	VS_PG_A_FIT_ERROR,
	VS_PG_A_CREATED,		/* u64: as VS_QUEUE_A_CREATED */
	__VS_PG_A_MAX
};
#define VS_PG_A_MAX (__VS_PG_A_MAX - 1)

/* ---- tasks (Pods) ---- */

enum vs_task_status_uapi {
	VS_TASK_STATUS_PENDING,
	VS_TASK_STATUS_ALLOCATED,
	VS_TASK_STATUS_PIPELINED,
	VS_TASK_STATUS_BINDING,
	VS_TASK_STATUS_BOUND,
	VS_TASK_STATUS_RUNNING,
	VS_TASK_STATUS_RELEASING,
	VS_TASK_STATUS_SUCCEEDED,
	VS_TASK_STATUS_FAILED,
	VS_TASK_STATUS_UNKNOWN,
};

/* What the outside world reports with VS_CMD_TASK_STATUS. */
enum vs_task_event {
	VS_TASK_EVENT_RUNNING,		/* the pod runs on its node */
	VS_TASK_EVENT_SUCCEEDED,
	VS_TASK_EVENT_FAILED,		/* VS_TASK_A_EXIT_CODE may say how */
	VS_TASK_EVENT_DELETING,		/* deletionTimestamp set: Releasing */
	VS_TASK_EVENT_DELETED,		/* gone: the task is removed */
};

enum vs_preemption_policy_uapi {
	VS_PREEMPTION_LOWER_PRIORITY,	/* PreemptLowerPriority, the default */
	VS_PREEMPTION_NEVER,
};

enum vs_task_attr {
	VS_TASK_A_UNSPEC,
	VS_TASK_A_NAMESPACE,		/* string, the key with the name */
	VS_TASK_A_NAME,			/* string */
	VS_TASK_A_PODGROUP,		/* string, in the same namespace; absent: one is made */
	VS_TASK_A_ROLE,			/* string: volcano.sh/task-spec */
	VS_TASK_A_STATUS,		/* u32: enum vs_task_status_uapi, default Pending */
	VS_TASK_A_NODE,			/* string: where it runs (statuses that hold a node) */
	VS_TASK_A_REQUEST,		/* nest: enum vs_res_attr, the containers' sum */
	VS_TASK_A_INIT_REQUEST,		/* nest: enum vs_res_attr, the init containers' */
	VS_TASK_A_PRIORITY,		/* s32, default 1 */
	VS_TASK_A_PRIORITY_CLASS,	/* string */
	VS_TASK_A_PREEMPTABLE,		/* u8 0/1: volcano.sh/preemptable */
	VS_TASK_A_PREEMPTION_POLICY,	/* u32: enum vs_preemption_policy_uapi */
	VS_TASK_A_LABELS,		/* nest: enum vs_labels_attr */
	VS_TASK_A_NODE_SELECTOR,	/* nest: enum vs_labels_attr */
	VS_TASK_A_TOLERATION,		/* nest, repeated: enum vs_toleration_attr */
	VS_TASK_A_AFFINITY,		/* nest: enum vs_affinity_attr */
	VS_TASK_A_EVENT,		/* u32: enum vs_task_event (VS_CMD_TASK_STATUS only) */
	VS_TASK_A_EXIT_CODE,		/* s32 (VS_CMD_TASK_STATUS, failed) */
	VS_TASK_A_BIND_FAILURES,	/* u32, r/o: failed binds in a row */
	VS_TASK_A_BIND_ERROR,		/* string, r/o: why the last bind failed */
	/*
	 * string: the pod's scheduling.volcano.sh/queue-name (NEW of a task
	 * without PODGROUP: the queue of the PodGroup made for it; default
	 * "default"). Ignored when PODGROUP is given: the PodGroup's queue is
	 * the task's.
	 */
	VS_TASK_A_QUEUE,
	/*
	 * The status group's VS_EVENT_UNSCHEDULABLE only: the pod's
	 * PodScheduled=False condition, reason ("Unschedulable",
	 * "Schedulable") and message, as Volcano's TaskSchedulingReason.
	 */
	VS_TASK_A_SCHED_REASON,		/* string */
	VS_TASK_A_SCHED_MESSAGE,	/* string */
	VS_TASK_A_CREATED,		/* u64: as VS_QUEUE_A_CREATED */
	__VS_TASK_A_MAX
};
#define VS_TASK_A_MAX (__VS_TASK_A_MAX - 1)

/* ---- VolcanoJobs (batch.volcano.sh/v1alpha1 Job) ---- */

enum vs_vjob_phase_uapi {
	VS_VJOB_PHASE_PENDING,
	VS_VJOB_PHASE_ABORTING,
	VS_VJOB_PHASE_ABORTED,
	VS_VJOB_PHASE_RUNNING,
	VS_VJOB_PHASE_RESTARTING,
	VS_VJOB_PHASE_COMPLETING,
	VS_VJOB_PHASE_COMPLETED,
	VS_VJOB_PHASE_TERMINATING,
	VS_VJOB_PHASE_TERMINATED,
	VS_VJOB_PHASE_FAILED,
};

/* A lifecycle policy: an event (or an exit code) and the action it triggers. */
enum vs_policy_attr {
	VS_POLICY_A_UNSPEC,
	VS_POLICY_A_EVENT,		/* string: "PodFailed", "*", ... */
	VS_POLICY_A_EXIT_CODE,		/* s32, instead of an event */
	VS_POLICY_A_ACTION,		/* string: "RestartJob", "AbortJob", ... */
	__VS_POLICY_A_MAX
};
#define VS_POLICY_A_MAX (__VS_POLICY_A_MAX - 1)

/* One entry of spec.tasks. */
enum vs_vtask_attr {
	VS_VTASK_A_UNSPEC,
	VS_VTASK_A_NAME,		/* string */
	VS_VTASK_A_REPLICAS,		/* u32 >= 1 */
	VS_VTASK_A_MIN_AVAILABLE,	/* u32, default replicas */
	VS_VTASK_A_REQUEST,		/* nest: enum vs_res_attr */
	VS_VTASK_A_LABELS,		/* nest: enum vs_labels_attr */
	VS_VTASK_A_NODE_SELECTOR,	/* nest: enum vs_labels_attr */
	VS_VTASK_A_TOLERATION,		/* nest, repeated: enum vs_toleration_attr */
	VS_VTASK_A_POLICY,		/* nest, repeated: enum vs_policy_attr */
	__VS_VTASK_A_MAX
};
#define VS_VTASK_A_MAX (__VS_VTASK_A_MAX - 1)

enum vs_vjob_attr {
	VS_VJOB_A_UNSPEC,
	VS_VJOB_A_NAMESPACE,		/* string, the key with the name */
	VS_VJOB_A_NAME,			/* string */
	VS_VJOB_A_QUEUE,		/* string, default "default" */
	VS_VJOB_A_PRIORITY_CLASS,	/* string */
	VS_VJOB_A_MIN_AVAILABLE,	/* u32, default the sum of the tasks' MIN_AVAILABLE */
	VS_VJOB_A_MAX_RETRY,		/* u32, default 3 */
	VS_VJOB_A_TASK,			/* nest, repeated: enum vs_vtask_attr */
	VS_VJOB_A_POLICY,		/* nest, repeated: enum vs_policy_attr */
	/* read-only: */
	VS_VJOB_A_PHASE,		/* u32: enum vs_vjob_phase_uapi */
	VS_VJOB_A_RETRY_COUNT,		/* u32 */
	/* restore-only: a checkpoint's, refused in a client's request */
	VS_VJOB_A_STATE,		/* nest: enum vs_vjob_state_attr */
	__VS_VJOB_A_MAX
};
#define VS_VJOB_A_MAX (__VS_VJOB_A_MAX - 1)

/*
 * What the job controller keeps of a VolcanoJob beyond its spec, as a
 * checkpoint carries it (Documentation/admin-guide.md, "Checkpoints"): a
 * job restored with it goes on where it was, its PodGroup and tasks
 * (restored before it) its own again.
 */
enum vs_vjob_state_attr {
	VS_VJSTATE_A_UNSPEC,
	VS_VJSTATE_A_PHASE,		/* u32: enum vs_vjob_phase_uapi */
	VS_VJSTATE_A_RETRY_COUNT,	/* u32 */
	VS_VJSTATE_A_VERSION,		/* u32: bumped by each kill of the whole job */
	VS_VJSTATE_A_MIN_AVAILABLE,	/* u32: the status' minAvailable */
	VS_VJSTATE_A_PENDING,		/* u32: the status' task counts, */
	VS_VJSTATE_A_RUNNING,		/* u32   as the controller last */
	VS_VJSTATE_A_SUCCEEDED,		/* u32   wrote them */
	VS_VJSTATE_A_FAILED,		/* u32 */
	VS_VJSTATE_A_TERMINATING,	/* u32 */
	VS_VJSTATE_A_UNKNOWN,		/* u32 */
	VS_VJSTATE_A_PODGROUP,		/* flag: it owns the PodGroup of its name */
	VS_VJSTATE_A_KEPT,		/* nest, repeated: enum vs_vjob_kept_attr */
	__VS_VJSTATE_A_MAX
};
#define VS_VJSTATE_A_MAX (__VS_VJSTATE_A_MAX - 1)

/* The finished replicas of one task group the controller took out with the PodGroup. */
enum vs_vjob_kept_attr {
	VS_KEPT_A_UNSPEC,
	VS_KEPT_A_TASK,			/* string: the task group's name */
	VS_KEPT_A_SUCCEEDED,		/* u32, repeated: a replica's index */
	VS_KEPT_A_FAILED,		/* u32, repeated: a replica's index */
	__VS_KEPT_A_MAX
};
#define VS_KEPT_A_MAX (__VS_KEPT_A_MAX - 1)

/* ---- priority classes ---- */

enum vs_pc_attr {
	VS_PC_A_UNSPEC,
	VS_PC_A_NAME,			/* string, the key */
	VS_PC_A_VALUE,			/* s32 */
	VS_PC_A_GLOBAL_DEFAULT,		/* u8 0/1 */
	VS_PC_A_PREEMPTION_POLICY,	/* u32: enum vs_preemption_policy_uapi */
	__VS_PC_A_MAX
};
#define VS_PC_A_MAX (__VS_PC_A_MAX - 1)

/* ---- configuration ---- */

enum vs_conf_attr {
	VS_CONF_A_UNSPEC,
	VS_CONF_A_TEXT,			/* string: a volcano-scheduler.conf, YAML */
	VS_CONF_A_SOURCE,		/* string: its name in error messages ("file.conf") */
	VS_CONF_A_CHECK_ONLY,		/* flag: check, change nothing (vsctl conf check) */
	VS_CONF_A_PERIOD_MS,		/* u32: the scheduling period, default 1000 */
	__VS_CONF_A_MAX
};
#define VS_CONF_A_MAX (__VS_CONF_A_MAX - 1)

/* ---- cycles, decisions, statistics ---- */

enum vs_cycle_attr {
	VS_CYCLE_A_UNSPEC,
	VS_CYCLE_A_ID,			/* u64, from 1 */
	VS_CYCLE_A_DURATION_NS,		/* u64 */
	VS_CYCLE_A_BINDS,		/* u32 */
	VS_CYCLE_A_EVICTS,		/* u32 */
	VS_CYCLE_A_PENDING,		/* u32: tasks still pending after it */
	VS_CYCLE_A_ACTION,		/* nest, repeated: enum vs_action_stat_attr */
	__VS_CYCLE_A_MAX
};
#define VS_CYCLE_A_MAX (__VS_CYCLE_A_MAX - 1)

enum vs_action_stat_attr {
	VS_ACTSTAT_A_UNSPEC,
	VS_ACTSTAT_A_NAME,		/* string */
	VS_ACTSTAT_A_DURATION_NS,	/* u64 */
	__VS_ACTSTAT_A_MAX
};
#define VS_ACTSTAT_A_MAX (__VS_ACTSTAT_A_MAX - 1)

enum vs_decision_kind {
	VS_DECISION_BIND,
	VS_DECISION_EVICT,
	/*
	 * The task waits on the node for resources its evictions release:
	 * nothing for a binder to do. The pipeline ends with the cycle; the
	 * next cycles consider the task again.
	 */
	VS_DECISION_PIPELINE,
};

enum vs_decision_attr {
	VS_DECISION_A_UNSPEC,
	VS_DECISION_A_KIND,		/* u32: enum vs_decision_kind */
	VS_DECISION_A_NAMESPACE,	/* string */
	VS_DECISION_A_NAME,		/* string: the task */
	VS_DECISION_A_NODE,		/* string: where to bind, or where it runs */
	VS_DECISION_A_REASON,		/* string: evictions: why ("preempt", "reclaim") */
	__VS_DECISION_A_MAX
};
#define VS_DECISION_A_MAX (__VS_DECISION_A_MAX - 1)

enum vs_bind_result_attr {
	VS_BIND_A_UNSPEC,
	VS_BIND_A_NAMESPACE,		/* string */
	VS_BIND_A_NAME,			/* string */
	VS_BIND_A_NODE,			/* string: the node of the decision */
	VS_BIND_A_ERROR,		/* s32: 0 bound, else a negative errno */
	VS_BIND_A_MESSAGE,		/* string: why it failed */
	__VS_BIND_A_MAX
};
#define VS_BIND_A_MAX (__VS_BIND_A_MAX - 1)

enum vs_event_kind {
	VS_EVENT_NEW,
	VS_EVENT_SET,
	VS_EVENT_DEL,
	VS_EVENT_STATUS,		/* a task's status or a PodGroup's phase changed */
	VS_EVENT_RESET,			/* VS_CMD_RESET forgot every object; no object */
	/*
	 * The status group (VS_CMD_STATUS): a task left Pending (or Allocated or Pipelined
	 * but not yet bound) by a cycle, whose PodScheduled condition is not
	 * what was last told: VS_A_TASK with its namespace, name,
	 * VS_TASK_A_SCHED_REASON and VS_TASK_A_SCHED_MESSAGE.
	 */
	VS_EVENT_UNSCHEDULABLE,
};

enum vs_stats_attr {
	VS_STATS_A_UNSPEC,
	VS_STATS_A_CYCLES,		/* u64 */
	VS_STATS_A_BINDS,		/* u64 */
	VS_STATS_A_EVICTS,		/* u64 */
	VS_STATS_A_BIND_FAILURES,	/* u64 */
	VS_STATS_A_NR_NODES,		/* u32 */
	VS_STATS_A_NR_QUEUES,		/* u32 */
	VS_STATS_A_NR_PODGROUPS,	/* u32 */
	VS_STATS_A_NR_TASKS,		/* u32 */
	VS_STATS_A_LAST_CYCLE,		/* nest: enum vs_cycle_attr */
	VS_STATS_A_POOL,		/* nest, repeated: enum vs_pool_attr */
	VS_STATS_A_RSS_BYTES,		/* u64 */
	VS_STATS_A_NR_VJOBS,		/* u32 */
	VS_STATS_A_NR_PRIOCLASSES,	/* u32 */
	VS_STATS_A_DISCARDED_OPS,	/* u64: operations undone by Statement discards */
	/* Volcano's scheduler metrics (Documentation/vsctl.md, "vsctl stats"): */
	VS_STATS_A_HIST,		/* nest, repeated: enum vs_hist_attr */
	VS_STATS_A_ATTEMPTS_SCHEDULED,	/* u64: tasks placed by a committed decision */
	VS_STATS_A_ATTEMPTS_UNSCHED,	/* u64: tasks tried and left Pending, unschedulable */
	VS_STATS_A_PREEMPT_ATTEMPTS,	/* u64: nodes preempt tried to free for a task */
	VS_STATS_A_PREEMPT_VICTIMS,	/* u64: the last attempt's candidate victims */
	VS_STATS_A_EVICT_TX_PREEMPT,	/* u64: preempt's committed transactions with evictions */
	VS_STATS_A_EVICT_TX_RECLAIM,	/* u64: reclaim's */
	VS_STATS_A_UNSCHED_JOBS,	/* u64: jobs the last cycle left not ready */
	VS_STATS_A_UNSCHED_TASKS,	/* u64: what those jobs lack of minMember, summed */
	VS_STATS_A_ALLOCATABLE,		/* nest: enum vs_res_attr, the nodes' sum */
	VS_STATS_A_USED,		/* nest: enum vs_res_attr, the nodes' sum */
	VS_STATS_A_RECENT_CYCLE,	/* nest, repeated: enum vs_cycle_attr, newest last */
	VS_STATS_A_HEAP_BYTES,		/* u64: the heap held, as the allocator counts it */
	VS_STATS_A_MAX_MEMORY,		/* u64: the cap on it (vschedd --max-memory); absent: none */
	VS_STATS_A_CONN_REFUSED,	/* u64: connections closed at accept, out of descriptors */
	__VS_STATS_A_MAX
};
#define VS_STATS_A_MAX (__VS_STATS_A_MAX - 1)

/* One object pool, as /proc/slabinfo shows a cache. */
enum vs_pool_attr {
	VS_POOL_A_UNSPEC,
	VS_POOL_A_NAME,			/* string */
	VS_POOL_A_OBJ_SIZE,		/* u32 */
	VS_POOL_A_ACTIVE,		/* u64: objects in use */
	VS_POOL_A_TOTAL,		/* u64: objects in slabs */
	VS_POOL_A_SLABS,		/* u64 */
	VS_POOL_A_BYTES,		/* u64: the memory of its slabs */
	__VS_POOL_A_MAX
};
#define VS_POOL_A_MAX (__VS_POOL_A_MAX - 1)

/*
 * One latency histogram (VS_STATS_A_HIST), in milliseconds: Volcano's
 * metric name without its "volcano_" prefix, its labels, and the number of
 * observations per bucket. The bounds are Prometheus'
 * ExponentialBucketsRange(MIN_US / 1000, MAX_US / 1000, n) for n buckets
 * before the last, which counts what is above them all (+Inf).
 */
enum vs_hist_attr {
	VS_HIST_A_UNSPEC,
	VS_HIST_A_NAME,			/* string: "e2e_scheduling_latency_milliseconds" */
	VS_HIST_A_LABELS,		/* nest: enum vs_labels_attr ("action": "allocate") */
	VS_HIST_A_MIN_US,		/* u32 */
	VS_HIST_A_MAX_US,		/* u32 */
	VS_HIST_A_COUNT,		/* u64 */
	VS_HIST_A_SUM_NS,		/* u64 */
	VS_HIST_A_BUCKET,		/* u64, repeated: not cumulative, in order, +Inf last */
	__VS_HIST_A_MAX
};
#define VS_HIST_A_MAX (__VS_HIST_A_MAX - 1)

/* ---- explanations ---- */

/*
 * VS_CMD_EXPLAIN asks about one object: a PodGroup or a task (with its
 * namespace), or a node. The reply carries the request's attributes back
 * with the read-only ones.
 */
#define VS_EXPLAIN_SCORES_MAX	1000

enum vs_explain_attr {
	VS_EXPLAIN_A_UNSPEC,
	VS_EXPLAIN_A_NAMESPACE,		/* string: of the PodGroup or task */
	VS_EXPLAIN_A_PODGROUP,		/* string: explain a PodGroup... */
	VS_EXPLAIN_A_TASK,		/* string: ...or one task... */
	/* read-only: */
	VS_EXPLAIN_A_REASON,		/* string: "Unschedulable", "QueueOverused", ... */
	VS_EXPLAIN_A_MESSAGE,		/* string: one line, kube-scheduler's words for fit errors */
	VS_EXPLAIN_A_STEP,		/* string, repeated: the decision path, one line each */
	VS_EXPLAIN_A_NODE,		/* string: ...or a node (no namespace) */
	VS_EXPLAIN_A_STATUS,		/* string, read-only: "Pending", "Inqueue", "Ready"... */
	VS_EXPLAIN_A_CYCLE,		/* u64, read-only: the cycle it comes from; absent: none */
	VS_EXPLAIN_A_SCORES,		/* u32: with TASK, also score the best N nodes (1..1000) */
	__VS_EXPLAIN_A_MAX
};
#define VS_EXPLAIN_A_MAX (__VS_EXPLAIN_A_MAX - 1)

/* ---- commands (VS_CMD_VJOB_COMMAND, VS_CMD_QUEUE_COMMAND) ---- */

/* What a command asks: Volcano's bus actions, with the core's values. */
enum vs_action_uapi {
	VS_ACTION_ABORT_JOB,
	VS_ACTION_RESTART_JOB,
	VS_ACTION_RESTART_TASK,		/* the task group VS_COMMAND_A_TASK */
	VS_ACTION_RESTART_POD,		/* the pod VS_COMMAND_A_POD of VS_COMMAND_A_TASK */
	VS_ACTION_TERMINATE_JOB,
	VS_ACTION_COMPLETE_JOB,
	VS_ACTION_RESUME_JOB,
	VS_ACTION_SYNC_JOB,
	VS_ACTION_ENQUEUE_JOB,
	VS_ACTION_SYNC_QUEUE,		/* the controllers' own, not a user's command */
	VS_ACTION_OPEN_QUEUE,
	VS_ACTION_CLOSE_QUEUE,
};

enum vs_command_attr {
	VS_COMMAND_A_UNSPEC,
	VS_COMMAND_A_NAMESPACE,		/* string: the VolcanoJob's (job commands only) */
	VS_COMMAND_A_NAME,		/* string: the VolcanoJob or the queue */
	VS_COMMAND_A_ACTION,		/* u32: enum vs_action_uapi */
	VS_COMMAND_A_TASK,		/* string: RestartTask, RestartPod: the task group */
	VS_COMMAND_A_POD,		/* string: RestartPod: the pod (<job>-<task>-<index>) */
	__VS_COMMAND_A_MAX
};
#define VS_COMMAND_A_MAX (__VS_COMMAND_A_MAX - 1)

/* ---- the connection (VS_CMD_CONN_GET, VS_CMD_CONN_SET) ---- */

/* The smallest receive queue a connection may ask for: one notification datagram. */
#define VS_CONN_RCVBUF_MIN	(64u << 10)

enum vs_conn_attr {
	VS_CONN_A_UNSPEC,
	/*
	 * u64, bytes: notifications that would take what waits for the
	 * connection past this are dropped, and it gets ENOBUFS. At least
	 * VS_CONN_RCVBUF_MIN, at most VS_CONN_A_RCVBUF_MAX.
	 */
	VS_CONN_A_RCVBUF,
	/* read-only: */
	VS_CONN_A_RCVBUF_MAX,		/* u64: the most RCVBUF may be (--rcvbuf-max) */
	VS_CONN_A_PORTID,		/* u32: the connection's port id */
	/*
	 * u8, 0 or 1: while any connection holds, periodic cycles are
	 * skipped (cycles on request still run). A client that loads a
	 * whole cluster in several batches (vskube's resync) keeps the
	 * scheduler from deciding on half of it. Released by 0, or when
	 * the connection closes.
	 */
	VS_CONN_A_HOLD,
	__VS_CONN_A_MAX
};
#define VS_CONN_A_MAX (__VS_CONN_A_MAX - 1)

#endif /* _UAPI_VSCHED_VSCHED_H */
