/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry the tests' schedulers use (sched/framework.h): the built-in
 * actions and plugins, and whatever mock a test adds to it. Criterion runs
 * each test in a process of its own, so a test's additions end with it.
 */
#ifndef VS_TESTREG_H
#define VS_TESTREG_H

#include "sched/framework.h"

struct vs_registry *vs_test_registry(void);

#endif /* VS_TESTREG_H */
