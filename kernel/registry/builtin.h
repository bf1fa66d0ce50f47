/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The built-in actions and plugins as a registry (sched/framework.h), for
 * the programs to hand their scheduler. It lives above actions/ and plugins/,
 * the only place that names them all.
 */
#ifndef VS_REGISTRY_BUILTIN_H
#define VS_REGISTRY_BUILTIN_H

#include "sched/framework.h"

/*
 * Fill @reg with every built-in action and plugin, in the order "vsctl"
 * lists them (the metrics' order); a caller may then add its own (tests).
 * @reg is emptied first.
 */
void vs_registry_builtin(struct vs_registry *reg);

/* A registry of the built-ins alone, filled at the first call and never changed after. */
const struct vs_registry *vs_builtin_registry(void);

#endif /* VS_REGISTRY_BUILTIN_H */
