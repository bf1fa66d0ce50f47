/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vsbench's commands. Each takes the arguments after its name and returns
 * the program's exit status.
 */
#ifndef VSBENCH_H
#define VSBENCH_H

int vsbench_cluster(int argc, char **argv);

#endif /* VSBENCH_H */
