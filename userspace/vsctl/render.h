/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Replies of vsched's family as JSON, for "vsctl ... -o json" and for the
 * tables built from it.
 *
 * The shape comes from the family's own attribute policies (the tables the
 * daemon validates with, kernel/netlink/policies.c), as the kernel's YNL
 * renders from its specs: every attribute is named as the policy names it,
 * a repeated one becomes an array, a nest an object. A few sets read better
 * in Kubernetes' words and are rendered so: resources as quantities
 * ({"cpu": "500m", "memory": "4Gi", "nvidia.com/gpu": "1"}), labels as a
 * map, enums by name ("Running"), booleans as true and false.
 */
#ifndef VSCTL_RENDER_H
#define VSCTL_RENDER_H

#include <jansson.h>
#include <linux/netlink.h>

#include "netlink/policy.h"
#include "vsched/vsched.h"

/*
 * The attributes of a generic netlink message of vsched's family (after its
 * genlmsghdr) as an object. NULL when memory runs out; attributes the
 * policy does not know are skipped, so that a newer daemon's replies still
 * render.
 */
json_t *vsctl_render_msg(const struct nlmsghdr *nlh);

/* The attributes of @nest, whose set is @policy[0..@maxattr], as an object. */
json_t *vsctl_render_nest(const struct nlattr *nest, const struct vs_nla_policy *policy,
			  u16 maxattr);

/*
 * The events of VS_CMD_TASK_STATUS (enum vs_task_event) by value, as they
 * are rendered and as "vsctl task status" reads them: "running"...
 */
#define VSCTL_NR_TASK_EVENTS	(VS_TASK_EVENT_DELETED + 1)
extern const char *const vsctl_task_events[VSCTL_NR_TASK_EVENTS];

/*
 * A JSON value as text for a table cell: strings bare, "" for NULL, objects
 * of strings (resources, labels) as "cpu=2,memory=4Gi", other values as
 * compact JSON.
 */
char *vsctl_render_cell(const json_t *v);

/*
 * The quantity @dim of a resources object as the replies render them
 * ("cpu": "500m"), back in the protocol's units: millicores and
 * milli-units of the other resources, bytes of memory, pods; 0 when it is
 * absent or not a quantity.
 */
double vsctl_quantity(const json_t *res, const char *dim);

/* The integer @key of @obj, 0 when it is absent or not an integer. */
u64 vsctl_u64(const json_t *obj, const char *key);

#endif /* VSCTL_RENDER_H */
