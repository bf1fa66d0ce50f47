/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vsctl's commands, "vsctl GROUP COMMAND [OPTIONS]". Each takes the
 * arguments after its name (argv[0] names it, "vsctl scenario run", for
 * getopt's messages) and returns the program's exit status: 0 success,
 * 1 a failure it reported, 2 a usage error.
 */
#ifndef VSCTL_H
#define VSCTL_H

int vsctl_scenario_run(int argc, char **argv);

#endif /* VSCTL_H */
