/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every vsctl command that talks to vschedd shares: the connection,
 * one request and its answer, JSON on standard output, and the one way a
 * failure is reported. A refusal is said once, here, in the daemon's own
 * words (its extended ack) or the library's:
 *
 *	vsctl: error: node n9 not found
 *
 * and the command then exits 1 (usage errors, said by the commands
 * themselves before anything is sent, exit 2).
 */
#ifndef VSCTL_REQUEST_H
#define VSCTL_REQUEST_H

#include <jansson.h>

#include "lib/vsnl.h"

/* Print "vsctl: error: ..." for @ret (a negative errno) and @err; returns 1. */
int vsctl_fail(int ret, const struct vsnl_err *err);

/* Connect to @socket (NULL: $VSCHED_SOCKET, else the default); NULL once said why. */
struct vsnl *vsctl_connect(const char *socket);

/*
 * Send @m (consumed; NULL stands for a message that could not be built) on a
 * connection of its own and hand the replies to @cb (may be NULL). Returns
 * 0, or 1 once the failure is reported.
 */
int vsctl_request(const char *socket, struct nl_msg *m, vsnl_cb cb, void *arg);

/*
 * The -o option of a command whose only output besides text is JSON (-j is
 * the same): 0 for "-o json", else says so for @prog and returns 2.
 */
int vsctl_json_output(const char *prog, const char *optarg);

/* @v, indented, and a newline; 0, or 1 when it could not be written. */
int vsctl_print_json(const json_t *v);

/*
 * vsctl_request() for a dump, @m (consumed): the @key object of every
 * reply ("queue" for VS_A_QUEUE), as JSON, appended to the array @items
 * (vsnl_render_collect()). A reply kept whole: vsnl_render_keep().
 */
int vsctl_dump(const char *socket, struct nl_msg *m, const char *key, json_t *items);

#endif /* VSCTL_REQUEST_H */
