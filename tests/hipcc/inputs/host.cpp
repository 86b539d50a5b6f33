// SPDX-License-Identifier: MIT
// Host C++ for the multi-input plan.
int host_helper() { return 1; }
