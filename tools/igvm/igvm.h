/* SPDX-License-Identifier: MIT */
/*
 * The IGVM file format (Independent Guest Virtual Machine, as published by
 * its maintainers in the igvm_defs crate, format version 1): a fixed
 * header, a variable header of 8-byte-aligned TLV structures, then file
 * data. The format itself is abi/igvm.h; here the tool's own API.
 */
#ifndef TOOLS_IGVM_H
#define TOOLS_IGVM_H

#include <stdint.h>

#include "abi/igvm.h"

#include "model/igvm_reader.h"

/** A type's name, or NULL. */
const char *igvm_type_name(uint32_t type);

#endif /* TOOLS_IGVM_H */
