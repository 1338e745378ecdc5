/* SPDX-License-Identifier: MIT */
#ifndef TOOLS_SIM_VTPM_MSSIM_H
#define TOOLS_SIM_VTPM_MSSIM_H

/** csvsm-sim vtpm ARGS (after "vtpm"). */
int vtpm_mssim_main(int argc, char **argv);

#endif /* TOOLS_SIM_VTPM_MSSIM_H */
