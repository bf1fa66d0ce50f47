/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The controllers' configuration: Volcano's volcano-controller.conf (the
 * volcano-controller-configmap's data), of which vsched reads
 * networkTopologyDiscovery, and the point where label discovery
 * (controllers/hnctl.h) runs: between requests and before each cycle,
 * when a node or a HyperNode changed since it last ran.
 *
 * The reader is here rather than in controllers/ because the YAML reader
 * is the scheduler configuration's (sched/conf.h), a sibling layer.
 */
#ifndef VS_NETLINK_CTLCONF_H
#define VS_NETLINK_CTLCONF_H

#include "controllers/hnctl.h"

struct vs_nl_core;

/*
 * Read @len bytes of @text (named @source in messages) into @out, empty
 * on entry. Everything is checked; a refusal is "SOURCE:LINE: reason" and
 * leaves @out empty.
 */
int vs_nl_ctlconf_parse(const char *text, size_t len, const char *source,
			struct vs_hnctl_conf *out, struct vs_err *err);

/* The same of the regular file @path. */
int vs_nl_ctlconf_load_file(const char *path, struct vs_hnctl_conf *out, struct vs_err *err);

/* @conf becomes the core's (it takes what @conf holds, and leaves it empty). */
void vs_nl_topology_set(struct vs_nl_core *core, struct vs_hnctl_conf *conf);
void vs_nl_topology_release(struct vs_nl_core *core);

/*
 * Label discovery, when the core has types and a node or HyperNode
 * changed since it last ran; not while a transaction is open (a batch's).
 * A failure is the caller's to log; it is tried again once a node or a
 * HyperNode changes again.
 */
int vs_nl_topology_sync(struct vs_nl_core *core, struct vs_err *err);

#endif /* VS_NETLINK_CTLCONF_H */
