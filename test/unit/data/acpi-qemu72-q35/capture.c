/* SPDX-License-Identifier: MIT */
/*
 * A multiboot guest for capture.sh: writes the fw_cfg files the ACPI
 * loader test needs to debugcon (port 0xE9), each as its size (u32 LE)
 * and its bytes, through the fw_cfg port interface; then exits QEMU.
 */
typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned char u8;

__attribute__((section(".text.mb"), used)) static const u32 mb_header[3] = {
	0x1BADB002u, 0, -0x1BADB002u};

static void outb(u16 port, u8 v)
{
	__asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port));
}

static void outw(u16 port, u16 v)
{
	__asm__ volatile("outw %0, %1" ::"a"(v), "Nd"(port));
}

static u8 inb(u16 port)
{
	u8 v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static int name_is(const u8 *a, const char *b)
{
	while (*a != 0 && *a == (u8)*b) {
		a++;
		b++;
	}
	return *a == (u8)*b;
}

static void dump(const char *want)
{
	static u8 e[64];
	u32 count = 0, i, j;

	outw(0x510, 0x19); /* FW_CFG_FILE_DIR */
	for (i = 0; i < 4; i++) {
		count = (count << 8) | inb(0x511);
	}
	for (i = 0; i < count; i++) {
		for (j = 0; j < 64; j++) {
			e[j] = inb(0x511);
		}
		if (name_is(e + 8, want)) {
			u32 size = ((u32)e[0] << 24) | ((u32)e[1] << 16) |
				   ((u32)e[2] << 8) | e[3];

			for (j = 0; j < 4; j++) {
				outb(0xE9, (u8)(size >> (8 * j)));
			}
			outw(0x510, (u16)((e[4] << 8) | e[5]));
			for (j = 0; j < size; j++) {
				outb(0xE9, inb(0x511));
			}
			return;
		}
	}
}

void _start(void)
{
	dump("etc/table-loader");
	dump("etc/acpi/tables");
	dump("etc/acpi/rsdp");
	outb(0xF4, 0); /* isa-debug-exit */
	for (;;) {
		__asm__ volatile("hlt");
	}
}
