/* SPDX-License-Identifier: MIT */
/* The register dump of an exception the SVSM did not expect (trap.h). */
#include "svsm/log.h"

#include "arch.h"
#include "trap.h"

static const char *const exc_names[32] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM",
	"#DF", "CSO", "#TS", "#NP", "#SS", "#GP", "#PF", "15",
	"#MF", "#AC", "#MC", "#XM", "#VE", "#CP", "22",	 "23",
	"24",  "25",  "26",  "27",  "#HV", "#VC", "#SX", "31",
};

void x86_trap_dump(const struct trap_frame *f, unsigned cpu_index)
{
	LOG_ERROR("exception %s (vector %llu) on CPU %u, error code %llx",
		  f->vector < 32 ? exc_names[f->vector] : "?",
		  (unsigned long long)f->vector, cpu_index,
		  (unsigned long long)f->error);
	LOG_ERROR("RIP %016llx CS %04llx RFLAGS %08llx CR2 %016llx",
		  (unsigned long long)f->rip, (unsigned long long)f->cs,
		  (unsigned long long)f->rflags,
		  (unsigned long long)read_cr2());
	LOG_ERROR("RSP %016llx SS %04llx CR3 %016llx CR4 %08llx",
		  (unsigned long long)f->rsp, (unsigned long long)f->ss,
		  (unsigned long long)read_cr3(),
		  (unsigned long long)read_cr4());
	LOG_ERROR("RAX %016llx RBX %016llx RCX %016llx",
		  (unsigned long long)f->rax, (unsigned long long)f->rbx,
		  (unsigned long long)f->rcx);
	LOG_ERROR("RDX %016llx RSI %016llx RDI %016llx",
		  (unsigned long long)f->rdx, (unsigned long long)f->rsi,
		  (unsigned long long)f->rdi);
	LOG_ERROR("RBP %016llx R8  %016llx R9  %016llx",
		  (unsigned long long)f->rbp, (unsigned long long)f->r8,
		  (unsigned long long)f->r9);
	LOG_ERROR("R10 %016llx R11 %016llx R12 %016llx",
		  (unsigned long long)f->r10, (unsigned long long)f->r11,
		  (unsigned long long)f->r12);
	LOG_ERROR("R13 %016llx R14 %016llx R15 %016llx",
		  (unsigned long long)f->r13, (unsigned long long)f->r14,
		  (unsigned long long)f->r15);
}
