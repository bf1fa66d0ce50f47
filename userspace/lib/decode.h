/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The protocol's lists read into C, once for every client: the entries of
 * a resource list, the labels of a label set, a taint. The renderer builds
 * its JSON from them (render.c), "vsctl KIND set" the object it changes
 * (vsctl/edit_cmd.c). A reader that needs a reply checked whole parses it
 * with the codec first (codec.h); these skip what they cannot read, so
 * that a newer daemon's replies still read.
 */
#ifndef VS_LIB_DECODE_H
#define VS_LIB_DECODE_H

#include <stdbool.h>
#include <linux/netlink.h>

#include "lib/compiler.h"

/*
 * Each entry of the resource list @nest (attribute set res): its name,
 * "cpu", "memory", "pods" or a scalar's ("nvidia.com/gpu"), and its value
 * in the protocol's units (quantity.h: vsnl_res_milli()), in the order of
 * the message. Returns 0, or the first nonzero value of @fn, which stops
 * the walk.
 */
typedef int (*vsnl_res_fn)(const char *dim, u64 value, void *arg);
int vsnl_read_res(const struct nlattr *nest, vsnl_res_fn fn, void *arg);

/*
 * Each label of the label set @nest (attribute set labels), its value ""
 * when it has none, as vsnl_read_res() walks; an item without a key is
 * skipped.
 */
typedef int (*vsnl_label_fn)(const char *key, const char *value, void *arg);
int vsnl_read_labels(const struct nlattr *nest, vsnl_label_fn fn, void *arg);

/* A taint: its value NULL when it has none, its effect VS_TAINT_EFFECT_*. */
struct vsnl_taint {
	const char *key, *value;
	u32 effect;
};

/* The taint @nest (attribute set taint) into @t: false when it has no key. */
bool vsnl_read_taint(const struct nlattr *nest, struct vsnl_taint *t);

#endif /* VS_LIB_DECODE_H */
