/* SPDX-License-Identifier: MIT */
/*
 * Inside the PSP's launch: the parameter-area directives
 * (psp_launch_area.c), which the directive walk (psp_launch.c) hands on.
 * Each returns NULL, or the refusal. Not an interface.
 */
#ifndef SNPMODEL_PSP_LAUNCH_AREA_H
#define SNPMODEL_PSP_LAUNCH_AREA_H

#include <stdint.h>

#include "psp_launch_page.h"

const char *launch_area_declare(struct launch *l, const uint8_t *body);
const char *launch_area_parameter(struct launch *l, uint32_t type,
				  const uint8_t *body);
const char *launch_area_insert(struct launch *l, const uint8_t *body);

#endif /* SNPMODEL_PSP_LAUNCH_AREA_H */
