// SPDX-License-Identifier: Apache-2.0
/* The tests' registry (testreg.h). */
#include "registry/builtin.h"
#include "testreg.h"

struct vs_registry *vs_test_registry(void)
{
	static struct vs_registry reg;
	static bool filled;

	if (!filled) {
		vs_registry_builtin(&reg);
		filled = true;
	}
	return &reg;
}
