/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vsctl's commands, "vsctl GROUP COMMAND [OPTIONS]". Each takes the
 * arguments after its name (argv[0] names it, "vsctl scenario run", for
 * getopt's messages) and returns the program's exit status: 0 success,
 * 1 a failure it reported, 2 a usage error.
 */
#ifndef VSCTL_H
#define VSCTL_H

#include <jansson.h>
#include <stdio.h>

int vsctl_scenario_run(int argc, char **argv);

/*
 * KIND list | show | del, for node, queue, podgroup, task, job, prioclass and
 * hypernode (objects_cmd.c).
 */
int vsctl_obj_list(int argc, char **argv);
int vsctl_obj_show(int argc, char **argv);
int vsctl_obj_del(int argc, char **argv);

/*
 * KIND add | set, node cordon | uncordon, queue open | close, task status,
 * job abort | restart | resume | terminate | complete (edit_cmd.c).
 */
int vsctl_obj_add(int argc, char **argv);
int vsctl_obj_set(int argc, char **argv);
int vsctl_node_cordon(int argc, char **argv);
int vsctl_node_uncordon(int argc, char **argv);
int vsctl_queue_open(int argc, char **argv);
int vsctl_queue_close(int argc, char **argv);
int vsctl_task_status(int argc, char **argv);
int vsctl_job_abort(int argc, char **argv);
int vsctl_job_restart(int argc, char **argv);
int vsctl_job_resume(int argc, char **argv);
int vsctl_job_terminate(int argc, char **argv);
int vsctl_job_complete(int argc, char **argv);

/* The daemon's own commands (ctl_cmd.c). */
int vsctl_conf_show(int argc, char **argv);
int vsctl_conf_set(int argc, char **argv);
int vsctl_conf_check(int argc, char **argv);
int vsctl_cycle_run(int argc, char **argv);
int vsctl_stats_show(int argc, char **argv);
int vsctl_stats_pools(int argc, char **argv);
int vsctl_dump_cmd(int argc, char **argv);
int vsctl_top(int argc, char **argv);

/* "cycle 12: 40 binds, ..." and a line per action, from a VS_A_CYCLE as JSON. */
void vsctl_print_cycle(const json_t *cy);
int vsctl_watch(int argc, char **argv);
int vsctl_monitor(int argc, char **argv);

/* Why a PodGroup, task or node is where it is (explain_cmd.c). */
int vsctl_explain(int argc, char **argv);

/* Kubernetes manifests, in one batch (apply_cmd.c). */
int vsctl_apply(int argc, char **argv);
int vsctl_delete(int argc, char **argv);

#endif /* VSCTL_H */
