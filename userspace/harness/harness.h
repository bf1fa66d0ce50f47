/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The harness: the userspace code that runs the core in-process, and the
 * one userspace directory that includes kernel/ headers and links
 * libvscore.a (Documentation/architecture.md, "Userspace"). Programs call
 * it through this header:
 *
 *  - scenarios (scenario.h): a scenario file loaded into a fresh cluster,
 *    its cycles run with the bind pipeline's standalone binder and its
 *    decisions compared with its expectations ("vsctl scenario run");
 *  - vsbench's in-process commands and synthetic clusters (bench.h): the
 *    generator, "vsbench cluster", "cycle", "run" and "sim", the export of
 *    a generated cluster as a scenario;
 *  - a scheduler configuration checked as the daemon checks it (conf.h:
 *    "vsctl conf check", where no daemon runs);
 *  - a daemon's state written as its own checkpoint by the core's writer
 *    (ckpt.h: "vsctl dump").
 *
 * The types it hands out are still the core's (a scenario's cluster, the
 * generator's): the programs' clients of the daemon (vsctl's
 * scenario_remote.c, vsbench's load.c and socket.c) send those objects with
 * the core's fills until they move to the generated codec.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include "harness/bench.h"
#include "harness/ckpt.h"
#include "harness/conf.h"
#include "harness/scenario.h"

#endif /* HARNESS_H */
