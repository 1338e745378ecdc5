/* SPDX-License-Identifier: MIT */
/*
 * A host file as the SVSM's block device (struct vtpm_disk) for
 * csvsm-sim: the state a simulated boot writes outlives the process, as
 * emu's host file does for the emulated machine. The file is the host's:
 * tests replay, cut and corrupt it between runs.
 */
#ifndef TOOLS_SIM_FILE_DISK_H
#define TOOLS_SIM_FILE_DISK_H

#include <stdbool.h>

#include "svsm/vtpm_store.h"

/** Open (or create, 1 MiB of zeros) @path as the device; false on error. */
bool file_disk_open(const char *path);
void file_disk_close(void);

extern const struct vtpm_disk file_disk;

#endif /* TOOLS_SIM_FILE_DISK_H */
