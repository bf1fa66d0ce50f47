// SPDX-License-Identifier: Apache-2.0

// Package crdgen names the API types whose CRDs controller-gen writes
// (go.mod says why), so that the module requires them.
package crdgen

import (
	_ "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
	_ "volcano.sh/apis/pkg/apis/topology/v1alpha1"
)
