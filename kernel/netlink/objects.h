/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The object commands (NEW, SET, DEL, GET) of every object type, on a
 * cluster, independent of where the request came from.
 *
 * Each function takes the object's nest from a request that has passed its
 * policy, and either does all of what it asks or nothing: the core's
 * constructors and updates check everything before they change anything.
 */
#ifndef VS_NETLINK_OBJECTS_H
#define VS_NETLINK_OBJECTS_H

#include <linux/netlink.h>

#include "controllers/controllers.h"
#include "core/arena.h"
#include "core/cluster.h"

/* One object type: its top-level attribute, its name, its key attributes. */
struct vs_nl_objtype;

/* The type whose top-level attribute is @attr (VS_A_NODE...), or NULL. */
const struct vs_nl_objtype *vs_nl_objtype(u16 attr);

/* What an object command does; its value is the command's offset from the type's NEW. */
enum vs_nl_verb {
	VS_NL_NEW,
	VS_NL_SET,
	VS_NL_DEL,
	VS_NL_GET,
	VS_NL_NR_VERBS
};

/* The type of an object command (VS_CMD_NODE_NEW ... VS_CMD_HYPERNODE_GET), or NULL. */
const struct vs_nl_objtype *vs_nl_objtype_cmd(u8 cmd);

/* What @cmd, a command of @ot's, does; VS_NL_NR_VERBS if it is none of @ot's. */
enum vs_nl_verb vs_nl_obj_verb(const struct vs_nl_objtype *ot, u8 cmd);

/* "node", "task"...: the type's name in messages. */
const char *vs_nl_objtype_what(const struct vs_nl_objtype *ot);

/*
 * The object a nest names, for messages: "task ns/p1", "node n1" (the type
 * alone when the key is incomplete). Returns what snprintf() would.
 */
int vs_nl_obj_describe(const struct vs_nl_objtype *ot, const struct nlattr *nest, char *buf,
		       size_t len);

/* The object a nest names, or NULL; -EINVAL in @ret when the key is incomplete. */
void *vs_nl_obj_find(const struct vs_nl_objtype *ot, struct vs_cluster *cl,
		     const struct nlattr *nest, struct vs_err *err, int *ret);

/*
 * NEW: create the object (-EEXIST if its key is taken, unless @replace:
 * then the existing object's spec is replaced by the one given, with the
 * defaults for attributes left out). SET: change the attributes given
 * (-ENOENT if absent). DEL: remove it (-ENOENT if absent). A task's spec
 * never changes, as a pod's does not: SET or a replacing NEW of an
 * existing task is -EOPNOTSUPP; delete it and create it again. The same
 * holds for a VolcanoJob, which the core cannot update yet.
 *
 * With @ctl (on @cl), the controllers are called as the daemon calls them
 * (Documentation/controllers.md, "When the daemon calls what"): a new
 * VolcanoJob is admitted and gets its PodGroup, a task without a PodGroup
 * gets one, a new PodGroup's queue must be Open, a new queue follows its
 * parent, and deletions go through the controllers. Without (NULL), only
 * the core's own calls: what an undo uses to put objects back as they were.
 */
int vs_nl_obj_new(const struct vs_nl_objtype *ot, struct vs_cluster *cl, struct vs_ctl *ctl,
		  const struct nlattr *nest, bool replace, struct vs_arena *arena,
		  struct vs_err *err);
int vs_nl_obj_set(const struct vs_nl_objtype *ot, struct vs_cluster *cl, struct vs_ctl *ctl,
		  const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err);
int vs_nl_obj_del(const struct vs_nl_objtype *ot, struct vs_cluster *cl, struct vs_ctl *ctl,
		  const struct nlattr *nest, struct vs_err *err);

/* Put @obj into a message (fill.h's rules: all of it or nothing). */
bool vs_nl_obj_put(const struct vs_nl_objtype *ot, struct nlmsghdr *nlh, size_t cap,
		   const void *obj);

/* The same, as the NEW request that makes it again (fill.h's _spec fills). */
bool vs_nl_obj_put_spec(const struct vs_nl_objtype *ot, struct nlmsghdr *nlh, size_t cap,
			const void *obj);

/*
 * Walk the objects of a type in creation order, for checkpoints (which
 * must make them again in that order): the first object after @prev
 * (NULL: the first of all).
 */
void *vs_nl_obj_next(const struct vs_nl_objtype *ot, struct vs_cluster *cl, void *prev);

/* The top-level attribute of a type (VS_A_NODE...). */
u16 vs_nl_objtype_attr(const struct vs_nl_objtype *ot);

/*
 * The creation sequences of @obj into pos[0..1] (of the PodGroup first for
 * tasks): where it stands in the walk of vs_nl_obj_next().
 */
void vs_nl_obj_pos(const struct vs_nl_objtype *ot, const void *obj, u64 *pos);

/*
 * The objects of a type in name order (namespace, then name), as kubectl
 * lists them (core/nametree.h), for listings. A dump keeps the key of the
 * last object it sent and resumes at the first after it, so objects added
 * or deleted between its parts make it neither skip nor repeat another.
 */
const struct vs_name_tree *vs_nl_obj_names(const struct vs_nl_objtype *ot,
					   const struct vs_cluster *cl);

/*
 * Whether @obj passes a dump's filters (VS_A_FILTER_*, NULL where not
 * given): namespace for PodGroups, tasks and VolcanoJobs, queue for
 * PodGroups, PodGroup, node and status mask for tasks.
 */
bool vs_nl_obj_match(const struct vs_nl_objtype *ot, const void *obj,
		     const struct nlattr *const *attrs);

#endif /* VS_NETLINK_OBJECTS_H */
