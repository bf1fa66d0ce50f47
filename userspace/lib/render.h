/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Replies of vsched's family as JSON: what "vsctl ... -o json" prints, what
 * vsctl's tables and the Prometheus view of the scheduler's metrics
 * (lib/sched_metrics.h, for vsctl stats and vskube's /metrics) are built from.
 *
 * The shape comes from the family's own attribute policies, as the
 * generated codec has them (lib/codec_gen.h, made from the spec the
 * daemon's policies are made from), as the kernel's YNL renders from its
 * specs: every attribute is named as the policy names it,
 * a repeated one becomes an array, a nest an object. A few sets read better
 * in Kubernetes' words and are rendered so: resources as quantities
 * ({"cpu": "500m", "memory": "4Gi", "nvidia.com/gpu": "1"}), labels as a
 * map, enums by name ("Running"), booleans as true and false, times
 * (creationTimestamp, lastTransitionTime) as RFC 3339 ("2026-11-23T10:00:00Z").
 */
#ifndef VSNL_RENDER_H
#define VSNL_RENDER_H

#include <stdio.h>
#include <jansson.h>
#include <linux/netlink.h>

#include "lib/codec.h"
#include "lib/compiler.h"
#include "vsched/vsched.h"

/*
 * The attributes of a generic netlink message of vsched's family (after its
 * genlmsghdr) as an object. NULL when memory runs out; attributes the
 * policy does not know are skipped, so that a newer daemon's replies still
 * render.
 */
json_t *vsnl_render_msg(const struct nlmsghdr *nlh);

/* The attributes of @nest, whose attribute set is @set, as an object. */
json_t *vsnl_render_nest(const struct nlattr *nest, const struct vsnl_codec_set *set);

/*
 * Callbacks for vsnl_request() (lib/vsnl.h) that keep what they render.
 * vsnl_render_keep(): the rendering of the (last) reply, in *(json_t **)@arg.
 * vsnl_render_collect(): the @key object of every reply ("queue" for
 * VS_A_QUEUE, a dump's objects), appended to @items; @arg is a struct
 * vsnl_collect.
 */
int vsnl_render_keep(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg);

struct vsnl_collect {
	const char *key;
	json_t *items;
};

int vsnl_render_collect(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg);

/*
 * A JSON value as text for a table cell: strings bare, "" for NULL, objects
 * of strings (resources, labels) as "cpu=2,memory=4Gi", other values as
 * compact JSON.
 */
char *vsnl_render_cell(const json_t *v);

/*
 * An explanation (the "explain" object of a VS_CMD_EXPLAIN reply) as text:
 * "Task:     ns/p1", its status, reason, message and cycle, then its steps
 * indented, a line each: "vsctl explain" and "vsctl scenario run" print it.
 */
void vsnl_render_explain(FILE *out, const char *kind, const char *name, const json_t *ex);

/*
 * @v in the canonical form of a Kubernetes quantity, as the replies render
 * it: @milli 3 for millicores and milli-units ("500m"), 0 for whole units,
 * with binary suffixes ("4Gi") when @binary and they fit, decimal ones
 * ("2k") else; INT64_MAX is "unlimited". Returns the length snprintf would.
 */
int vsnl_quantity_fmt(char *buf, size_t len, s64 v, unsigned int milli, bool binary);

/*
 * The quantity @dim of a resources object as the replies render them
 * ("cpu": "500m"), back in the protocol's units: millicores and
 * milli-units of the other resources, bytes of memory, pods; 0 when it is
 * absent or not a quantity.
 */
double vsnl_quantity(const json_t *res, const char *dim);

/* The integer @key of @obj, 0 when it is absent or not an integer. */
u64 vsnl_u64(const json_t *obj, const char *key);

#endif /* VSNL_RENDER_H */
