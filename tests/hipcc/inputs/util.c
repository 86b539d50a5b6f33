/* SPDX-License-Identifier: MIT */
/* C for the multi-input plan. */
int util_helper(void) { return 2; }
