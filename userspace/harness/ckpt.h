/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A daemon's state written as its own checkpoint ("vsctl dump FILE"): the
 * objects a VS_CMD_DUMP answers with, each reply rewritten as the request
 * that makes its object, in the file format vschedd writes and restores
 * (Documentation/vschedd.md, "Checkpoints"), made by the core's writer:
 * under FILE.tmp, synced, renamed.
 */
#ifndef HARNESS_CKPT_H
#define HARNESS_CKPT_H

#include <stdint.h>
#include <linux/netlink.h>

#include "lib/vsnl.h"

struct harness_ckpt;

/* FILE.tmp opened; NULL with @err saying why. */
struct harness_ckpt *harness_ckpt_open(const char *path, struct vsnl_err *err);

/* One reply of the dump, written as a request. 0, or -errno with @err. */
int harness_ckpt_add_reply(struct harness_ckpt *c, const struct nlmsghdr *nlh,
			   struct vsnl_err *err);

/*
 * The checkpoint completed and renamed to FILE: its requests and bytes in
 * *@nr_msgs and *@bytes. @c is freed either way; -errno with @err on error.
 */
int harness_ckpt_commit(struct harness_ckpt *c, uint64_t *nr_msgs, uint64_t *bytes,
			struct vsnl_err *err);

/* FILE.tmp removed, FILE untouched, @c freed. */
void harness_ckpt_abort(struct harness_ckpt *c);

#endif /* HARNESS_CKPT_H */
