/* SPDX-License-Identifier: MIT */
#ifndef TOOLS_SIM_ATTEST_CMD_H
#define TOOLS_SIM_ATTEST_CMD_H

/** csvsm-sim attest --nonce HEX --out DIR [--single-vtpm] (after "attest"). */
int attest_cmd_main(int argc, char **argv);

#endif /* TOOLS_SIM_ATTEST_CMD_H */
