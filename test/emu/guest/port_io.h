/* SPDX-License-Identifier: MIT */
/*
 * Port I/O for the test guest: the instructions themselves. At VMPL1 under
 * SEV-ES each one is a #VC the guest's handler turns into a GHCB IOIO
 * request (vc.c); the hypervisor decides what answers.
 */
#ifndef GUEST_PORT_IO_H
#define GUEST_PORT_IO_H

#include <stdint.h>

static inline void out8(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void out16(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void out32(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t in8(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint32_t in32(uint16_t port)
{
	uint32_t v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

#endif /* GUEST_PORT_IO_H */
