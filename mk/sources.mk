# Source lists. Every file under src/ except the platforms is platform-
# independent and must also build freestanding (freestanding-check).

CORE_SRCS := $(sort $(wildcard src/core/*.c src/core/protocol/*.c \
	src/mem/*.c src/lib/*.c src/snpmodel/*.c src/vtpm/*.c))
# TPM engines: libtpms with libcrypto. Hosted builds link the system
# libraries; the firmware links the same archives through the libc layer.
ENGINE_SRCS := $(sort $(wildcard src/engine/*.c))
# The firmware's C library layer (never in hosted builds: glibc is there).
LIBC_SRCS := $(sort $(wildcard src/libc/*.c))
LIBC_S_SRCS := $(sort $(wildcard src/libc/*.S))
SIM_PLAT_SRCS := $(sort $(wildcard src/plat/sim/*.c))
SIM_SRCS := $(sort $(wildcard sim/src/*.c))
LIB_SRCS := $(CORE_SRCS) $(SIM_PLAT_SRCS) $(SIM_SRCS) $(ENGINE_SRCS)

TEST_FW_SRCS := $(sort $(wildcard test/framework/*.c))
TEST_SRCS := $(sort $(wildcard test/unit/*.c test/sim/*.c))
FUZZ_SRCS := $(sort $(wildcard test/fuzz/*.c))
TOOL_SIM_SRCS := $(sort $(wildcard tools/sim/*.c))
BENCH_SRCS := bench/bench_core.c
BENCH_VTPM_SRCS := bench/bench_vtpm.c
