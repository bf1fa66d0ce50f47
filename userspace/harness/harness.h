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
 *    (ckpt.h: "vsctl dump");
 *  - a cluster it built (a scenario's, the generator's) as the requests
 *    that make it in a daemon, written by the core's fills (encode.h): what
 *    the programs' clients of the daemon send (vsctl's scenario_remote.c,
 *    vsbench's load.c and socket.c).
 *
 * The types scenario.h and bench.h hand out are still the core's (a
 * scenario's cluster, the generator's).
 */
#ifndef HARNESS_H
#define HARNESS_H

#include "harness/bench.h"
#include "harness/ckpt.h"
#include "harness/conf.h"
#include "harness/encode.h"
#include "harness/scenario.h"

#endif /* HARNESS_H */
