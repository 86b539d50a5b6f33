/* SPDX-License-Identifier: MIT */
/* Work that any backend may do on the host: an AH_CMD_SET over host-visible
 * memory (the CPU device's memory, or host memory on a GPU's stream), and
 * the rows of an AH_CMD_COPY_3D between host-visible buffers. */
#ifndef AH_HOST_OPS_H
#define AH_HOST_OPS_H

#include "backend.h"

/* Fills cmd->set's rows with its 1, 2 or 4-byte element. Any thread. */
void ah_host_set(const struct ah_cmd *cmd);
/* Runs an AH_CMD_COPY_3D with memmove, row by row. Any thread. */
void ah_host_copy3d(const struct ah_cmd *cmd);

#endif
