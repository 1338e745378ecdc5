# Compilers and flags. Warnings are errors everywhere.

CC := gcc
FUZZ_CC := clang

WARNINGS := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wvla -Wpointer-arith -Wundef \
	-Wimplicit-fallthrough -Wformat=2 -Wno-format-nonliteral
# Hosted builds are harnesses (sim, tests, tools, fuzzers): they see the
# models' headers too (model/include); the firmware's flags do not
# (mk/firmware.mk).
INCLUDES := -Iinclude -Isim/include -Imodel/include
COMMON_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -g $(WARNINGS) $(INCLUDES) \
	-fno-strict-aliasing

HOST_CFLAGS := $(COMMON_CFLAGS) -O2 -ftrivial-auto-var-init=zero
ASAN_CFLAGS := $(COMMON_CFLAGS) -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := $(COMMON_CFLAGS) -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all

# The vTPM engine's libraries (hosted builds link Debian's shared ones);
# zlib, whose crc32() the unit tests compare the IGVM reader's with;
# zlib and libzstd decompress a bzImage's kernel for csvsm-igvm
# --linux-entry startup_64 (tools/igvm/vmlinux.c).
HOST_LDLIBS := -ltpms -lcrypto -lz -lzstd
# Where Debian keeps the static archives the firmware links.
LIBDIR := /usr/lib/$(shell $(CC) -print-multiarch)

BUILD := build
BIN := $(BUILD)/bin
