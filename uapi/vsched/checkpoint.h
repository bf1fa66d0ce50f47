/* SPDX-License-Identifier: Apache-2.0 WITH Linux-syscall-note */
/*
 * A checkpoint of vschedd's state (Documentation/admin-guide.md,
 * "Checkpoints"): what "vschedd --checkpoint" writes and restores at start,
 * and what "vsctl dump" writes.
 *
 * A file is this header, then the body: a replayable sequence of vsched's
 * requests (vsched.h), each a whole netlink message with NLM_F_REQUEST,
 * one after the other at NLMSG_ALIGN()ed offsets:
 *
 *   VS_CMD_CONF_SET        the configuration in force and the period
 *   VS_CMD_PRIOCLASS_NEW   every priority class,
 *   VS_CMD_QUEUE_NEW       queue,
 *   VS_CMD_NODE_NEW        node,
 *   VS_CMD_PODGROUP_NEW    PodGroup (its phase and conditions with it),
 *   VS_CMD_TASK_NEW        task (its status and node with it),
 *   VS_CMD_VJOB_NEW        VolcanoJob, with VS_VJOB_A_STATE
 *
 * each kind in the core's order of creation. The checksums are zlib's
 * crc32() (CRC-32 of IEEE 802.3); every integer is in host byte order, as
 * the protocol's are: a checkpoint is read on a machine of the writer's
 * byte order.
 */
#ifndef _UAPI_VSCHED_CHECKPOINT_H
#define _UAPI_VSCHED_CHECKPOINT_H

#include <linux/types.h>

#define VS_CKPT_MAGIC		"VSCKPT\r\n"	/* 8 bytes, no NUL; \r\n shows a text mangling */
#define VS_CKPT_MAGIC_LEN	8
#define VS_CKPT_VERSION		1

struct vs_ckpt_header {
	__u8 magic[VS_CKPT_MAGIC_LEN];
	__u32 version;			/* VS_CKPT_VERSION */
	__u32 header_len;		/* sizeof(struct vs_ckpt_header) */
	__u64 body_len;			/* the bytes after the header: the file is that long */
	__u64 nr_msgs;			/* the messages in the body */
	__u64 time_ns;			/* when it was written (CLOCK_REALTIME) */
	__u32 body_crc;			/* of the body */
	__u32 header_crc;		/* of the header before this field */
};

#endif /* _UAPI_VSCHED_CHECKPOINT_H */
