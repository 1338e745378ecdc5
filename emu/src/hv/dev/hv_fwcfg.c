/* SPDX-License-Identifier: MIT */
/*
 * The guest's fw_cfg (hv_fwcfg.h): the hypervisor's device in front of
 * QEMU's. QEMU's fw_cfg is used by the machine's own client (fwcfg.c)
 * until the launch, then only here, under fw_lock: one selection and
 * offset for the guest, as QEMU keeps one for all vCPUs, and QEMU's own
 * selection as this file last left it, so that a guest reading a file
 * byte after byte costs one QEMU port read a byte.
 */
#include "hv_fwcfg.h"

#include "svsm/std.h"

#include "arch.h"
#include "hw/rmp.h"
#include "machine/layout.h"
#include "machine/machine.h"

#define KEY_SIGNATURE 0x0000u
#define KEY_ID 0x0001u
#define KEY_NB_CPUS 0x0005u
#define KEY_KERNEL_ADDR 0x0007u
#define KEY_KERNEL_SIZE 0x0008u
#define KEY_INITRD_ADDR 0x000Au
#define KEY_INITRD_SIZE 0x000Bu
#define KEY_KERNEL_DATA 0x0011u
#define KEY_INITRD_DATA 0x0012u
#define KEY_CMDLINE_ADDR 0x0013u
#define KEY_CMDLINE_SIZE 0x0014u
#define KEY_CMDLINE_DATA 0x0015u
#define KEY_SETUP_ADDR 0x0016u
#define KEY_SETUP_SIZE 0x0017u
#define KEY_SETUP_DATA 0x0018u
#define KEY_FILE_DIR 0x0019u
#define KEY_WRITE_CHANNEL 0x4000u
#define KEY_ARCH_LOCAL 0x8000u
#define KEY_INVALID 0xFFFFu
/* The synthetic etc/e820: past QEMU's file slots (0x20 + 32 by default),
 * below the write and arch bits. */
#define KEY_E820 0x3FF0u
#define ID_PORTS 0x1u
#define ID_DMA 0x2u
#define DMA_ERROR HV_FWCFG_DMA_ERROR
#define DMA_READ HV_FWCFG_DMA_READ
#define DMA_SKIP HV_FWCFG_DMA_SKIP
#define DIR_MAX 4096u /* QEMU offers a few dozen files */
#define E820_MAX 8u
#define CONST_MAX 12u
#define DMA_REFUSALS_LOGGED 8u
#define QEMU_DMA_MIN 64u

struct fw_cfg_dma {
	uint32_t control, length;
	uint64_t address;
} __attribute__((packed, aligned(16)));

/* What a key reads as: the hypervisor's bytes, or a window of QEMU's item
 * @qkey, [@qbase, @qbase + @qlen); bytes past the window up to @len read
 * as zeros (the command line's NUL). */
struct item {
	const uint8_t *bytes;
	uint16_t qkey;
	uint32_t qbase, qlen, len;
};

/* A small item of the hypervisor's: the signature, the ID, the CPU count,
 * the Linux loader's sizes and addresses. */
struct const_item {
	uint16_t key;
	uint8_t len;
	uint8_t v[4];
};

/* A file of QEMU's the hypervisor reads (the guest's kernel and so on). */
struct qfile {
	uint16_t key;
	uint32_t size;
	bool present;
};

static struct spinlock fw_lock;
static bool ready;

/* Set up once by hv_fwcfg_init (the directory's etc/e820 size at the
 * first access), read-only after. */
static uint8_t *dir_bytes; /* u32 count (BE), then the entries: */
static struct hv_fwcfg_file *dir;
static uint32_t dir_len;
static struct const_item consts[CONST_MAX];
static unsigned n_consts;
static struct qfile kernel, initrd, cmdline;
static struct hv_fwcfg_linux lin;
static bool have_kernel;
static uint32_t cmdline_len; /* QEMU's string, without a NUL */
static uint8_t kernel_hdr[HV_FWCFG_LINUX_HDR];
static uint32_t kernel_hdr_len;
static uint8_t e820[E820_MAX * HV_FWCFG_E820_ENTRY];
static uint32_t e820_len;
static bool qemu_has_dma;

/* Under fw_lock: the guest's side. */
static struct item cur;
static bool cur_valid;
static uint32_t cur_off;
static uint64_t dma_addr;
static unsigned dma_refusals;
/* Under fw_lock: QEMU's selection as this file left it. */
static uint16_t qemu_key = KEY_INVALID;
static uint32_t qemu_off;
static struct fw_cfg_dma qemu_dma;

static uint32_t be32(uint32_t v)
{
	return __builtin_bswap32(v);
}

static void outl_port(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" ::"a"(v), "Nd"(port) : "memory");
}

/* The machine's memory and guest RAM are identity-mapped: a pointer is
 * the host physical address QEMU's DMA takes. */
static uint64_t host_pa(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* ---- QEMU's fw_cfg, under fw_lock (or before any vCPU runs) ---- */

static void qemu_select(uint16_t key)
{
	outw(HV_FWCFG_PORT_SEL, key);
	qemu_key = key;
	qemu_off = 0;
}

static void qemu_bytes(void *buf, uint32_t len)
{
	uint8_t *p = buf;
	uint32_t i;

	for (i = 0; i < len; i++) {
		p[i] = inb(HV_FWCFG_PORT_DATA);
	}
	qemu_off += len;
}

/* One DMA operation on QEMU's current item; on an error QEMU's offset is
 * no longer known. */
static bool qemu_dma_op(uint32_t control, uint32_t len, uint64_t pa)
{
	uint64_t desc = host_pa(&qemu_dma);
	uint32_t done;

	qemu_dma.control = be32(control);
	qemu_dma.length = be32(len);
	qemu_dma.address = __builtin_bswap64(pa);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	outl_port(HV_FWCFG_PORT_DMA_HI, be32((uint32_t)(desc >> 32)));
	outl_port(HV_FWCFG_PORT_DMA_LO, be32((uint32_t)desc));
	while (((done = be32(__atomic_load_n(&qemu_dma.control,
					     __ATOMIC_ACQUIRE))) &
		~DMA_ERROR) != 0) {
		cpu_relax();
	}
	if ((done & DMA_ERROR) != 0) {
		qemu_key = KEY_INVALID;
		return false;
	}
	qemu_off += len;
	return true;
}

/* QEMU's item @key at offset @off (inside the item). */
static bool qemu_seek(uint16_t key, uint32_t off)
{
	if (qemu_key != key || qemu_off > off) {
		qemu_select(key);
	}
	if (qemu_off == off) {
		return true;
	}
	if (qemu_has_dma) {
		return qemu_dma_op(DMA_SKIP, off - qemu_off, 0);
	}
	while (qemu_off < off) {
		(void)inb(HV_FWCFG_PORT_DATA);
		qemu_off++;
	}
	return true;
}

/* @len bytes of QEMU's item @key from @off into host memory @dst. */
static bool qemu_read(uint16_t key, uint32_t off, uint8_t *dst, uint32_t len)
{
	if (!qemu_seek(key, off)) {
		return false;
	}
	/* A few bytes (a guest's port read) by port: DMA only into the
	 * guest's pages, never the machine's stacks. */
	if (qemu_has_dma && len >= QEMU_DMA_MIN) {
		return qemu_dma_op(DMA_READ, len, host_pa(dst));
	}
	qemu_bytes(dst, len);
	return true;
}

/* ---- The guest's items ---- */

static void add_const(uint16_t key, uint32_t v, uint8_t len)
{
	struct const_item *c = &consts[n_consts++];
	unsigned i;

	c->key = key;
	c->len = len;
	for (i = 0; i < 4; i++) {
		c->v[i] = (uint8_t)(v >> (8 * i));
	}
}

static struct item qemu_window(const struct qfile *f, uint32_t base,
			       uint32_t qlen, uint32_t len)
{
	return (struct item){
		.qkey = f->key, .qbase = base, .qlen = qlen, .len = len};
}

/* What key @key (the write channel bit dropped) reads as. */
static bool item_of(uint16_t key, struct item *it)
{
	uint32_t i;

	*it = (struct item){0};
	for (i = 0; i < n_consts; i++) {
		if (consts[i].key == key) {
			*it = (struct item){.bytes = consts[i].v,
					    .len = consts[i].len};
			return true;
		}
	}
	switch (key) {
	case KEY_FILE_DIR:
		*it = (struct item){.bytes = dir_bytes, .len = dir_len};
		return true;
	case KEY_E820:
		*it = (struct item){.bytes = e820, .len = e820_len};
		return true;
	case KEY_SETUP_DATA:
		*it = qemu_window(&kernel, 0, lin.setup_size, lin.setup_size);
		return have_kernel;
	case KEY_KERNEL_DATA:
		*it = qemu_window(&kernel, lin.setup_size, lin.kernel_size,
				  lin.kernel_size);
		return have_kernel;
	case KEY_INITRD_DATA:
		*it = qemu_window(&initrd, 0, lin.initrd_size, lin.initrd_size);
		return have_kernel && lin.initrd_size != 0;
	case KEY_CMDLINE_DATA:
		*it = qemu_window(&cmdline, 0, cmdline_len, lin.cmdline_size);
		return have_kernel;
	default:
		break;
	}
	/* A file the guest's directory lists: QEMU's item, all of it. */
	for (i = 0; dir_len >= 4 && i < (dir_len - 4) / sizeof(*dir); i++) {
		if (__builtin_bswap16(dir[i].key_be) == key) {
			*it = (struct item){.qkey = key,
					    .qlen = be32(dir[i].size_be),
					    .len = be32(dir[i].size_be)};
			return true;
		}
	}
	return false;
}

static void guest_select(uint16_t key)
{
	cur_off = 0;
	cur_valid = (key & KEY_ARCH_LOCAL) == 0 &&
		    item_of((uint16_t)(key & ~KEY_WRITE_CHANNEL), &cur);
}

/* @avail bytes of the current item at @off into host memory @dst (a
 * machine buffer or a checked guest page). */
static bool item_copy(uint32_t off, uint8_t *dst, uint32_t avail)
{
	uint32_t q = 0;

	if (cur.bytes != NULL) {
		memcpy(dst, cur.bytes + off, avail);
		return true;
	}
	if (off < cur.qlen) {
		q = avail < cur.qlen - off ? avail : cur.qlen - off;
		if (!qemu_read(cur.qkey, cur.qbase + off, dst, q)) {
			return false;
		}
	}
	memset(dst + q, 0, avail - q);
	return true;
}

static uint8_t data_byte(void)
{
	uint32_t avail;
	uint32_t next;
	uint8_t b = 0;

	if (!cur_valid) {
		return 0;
	}
	next = hv_fwcfg_advance(cur.len, cur_off, 1, &avail);
	if (avail != 0 && !item_copy(cur_off, &b, 1)) {
		b = 0;
	}
	cur_off = next;
	return b;
}

/* ---- DMA ---- */

/* Under the RMP lock: host memory for [@gpa, @gpa + @len) if every page
 * is guest memory the hypervisor may touch (shared) and the pages are
 * consecutive in host memory (one QEMU DMA fills them), else NULL. */
static uint8_t *shared_range(uint64_t gpa, uint64_t len)
{
	uint64_t first = 0, count = 0, i;
	uint8_t *host;

	if (!hv_fwcfg_dma_pages(gpa, len, MACHINE_C_MASK, &first, &count)) {
		return NULL;
	}
	host = guest_ptr(first, PAGE);
	for (i = 0; i < count; i++) {
		uint64_t page = first + i * PAGE;

		if (host == NULL ||
		    (uint8_t *)guest_ptr(page, PAGE) != host + i * PAGE ||
		    rmp_check_shared_access(&machine_rmp, page) !=
			    RMP_ACCESS_OK) {
			return NULL;
		}
	}
	return host + (gpa - first);
}

static void dma_refused(uint64_t gpa, const char *why)
{
	if (dma_refusals < DMA_REFUSALS_LOGGED) {
		dma_refusals++;
		mlog("hypervisor: fw_cfg DMA at 0x%llx refused: %s",
		     (unsigned long long)gpa, why);
	}
}

/* One FW_CFG_DMA_ACCESS, as QEMU's fw_cfg_dma_transfer (what it does:
 * hv_fwcfg_dma_plan): the new control (0 or ERROR). Under fw_lock and the
 * RMP lock. */
static uint32_t dma_transfer(const struct hv_fwcfg_dma *a)
{
	struct hv_fwcfg_dma_plan plan;
	uint8_t *dst;

	if ((a->control & HV_FWCFG_DMA_SELECT) != 0) {
		guest_select((uint16_t)(a->control >> 16));
	}
	plan = hv_fwcfg_dma_plan(a, cur_valid, cur.len, cur_off);
	if (plan.op != HV_FWCFG_DMA_OP_FILL) {
		cur_off = plan.next_off;
		return plan.op == HV_FWCFG_DMA_OP_FAIL ? DMA_ERROR : 0;
	}
	dst = shared_range(a->address, a->length);
	if (dst == NULL) {
		dma_refused(a->address,
			    "the buffer is not all shared guest RAM");
		return DMA_ERROR;
	}
	if (cur_valid && !item_copy(cur_off, dst, plan.avail)) {
		return DMA_ERROR;
	}
	memset(dst + plan.avail, 0, a->length - plan.avail);
	cur_off = plan.next_off;
	return 0;
}

static void dma_start(uint64_t gpa)
{
	struct hv_fwcfg_dma a;
	uint8_t raw[HV_FWCFG_DMA_SIZE];
	uint8_t *p;
	uint32_t control;

	rmp_lock();
	p = shared_range(gpa, HV_FWCFG_DMA_SIZE);
	if (p == NULL) {
		/* Nowhere to say ERROR: QEMU could not write it either. */
		rmp_unlock();
		dma_refused(gpa, "the access structure is not in shared RAM");
		return;
	}
	memcpy(raw, p, sizeof(raw)); /* the one read of it */
	a = hv_fwcfg_dma_decode(raw);
	control = be32(dma_transfer(&a));
	memcpy(p, &control, sizeof(control));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	rmp_unlock();
}

/* ---- Set-up ---- */

static void find_guest_files(const struct hv_fwcfg_file *f, uint32_t n)
{
	static const char *const names[] = {
		"opt/csvsm/guest/kernel",
		"opt/csvsm/guest/initrd",
		"opt/csvsm/guest/cmdline",
	};
	struct qfile *const files[] = {&kernel, &initrd, &cmdline};
	uint32_t i, j;

	for (i = 0; i < n; i++) {
		char name[HV_FWCFG_NAME_MAX + 1];

		memcpy(name, f[i].name, HV_FWCFG_NAME_MAX);
		name[HV_FWCFG_NAME_MAX] = '\0';
		for (j = 0; j < ARRAY_SIZE(names); j++) {
			if (str_eq(name, names[j])) {
				files[j]->key = __builtin_bswap16(f[i].key_be);
				files[j]->size = be32(f[i].size_be);
				files[j]->present = true;
			}
		}
	}
}

/* The guest kernel's setup header and whether its command line ends in
 * a NUL: QEMU's string= files have none, a file= one may. */
static void read_guest_files(void)
{
	if (!kernel.present) {
		return;
	}
	kernel_hdr_len = kernel.size < sizeof(kernel_hdr)
				 ? kernel.size
				 : (uint32_t)sizeof(kernel_hdr);
	qemu_select(kernel.key);
	qemu_bytes(kernel_hdr, kernel_hdr_len);
	if (cmdline.present && cmdline.size > 0) {
		uint8_t last = 0;

		(void)qemu_read(cmdline.key, cmdline.size - 1, &last, 1);
		cmdline_len = cmdline.size - (last == '\0' ? 1u : 0u);
	}
}

/* The Linux loader's keys from the guest's kernel, initrd and command
 * line as the host gave them (none if the kernel is absent or not a
 * bzImage: OVMF then boots as without -kernel). */
static void linux_keys(void)
{
	const char *why;

	if (!kernel.present) {
		mlog("hypervisor: guest fw_cfg: no kernel "
		     "(opt/csvsm/guest/kernel)");
		return;
	}
	why = hv_fwcfg_linux(kernel_hdr, kernel_hdr_len, kernel.size,
			     initrd.present ? initrd.size : 0, cmdline_len,
			     guest_ram_size, &lin);
	if (why != NULL) {
		mlog("hypervisor: guest fw_cfg: kernel of %u bytes not "
		     "presented: %s",
		     kernel.size, why);
		return;
	}
	have_kernel = true;
	add_const(KEY_SETUP_ADDR, lin.setup_addr, 4);
	add_const(KEY_SETUP_SIZE, lin.setup_size, 4);
	add_const(KEY_KERNEL_ADDR, lin.kernel_addr, 4);
	add_const(KEY_KERNEL_SIZE, lin.kernel_size, 4);
	add_const(KEY_CMDLINE_ADDR, lin.cmdline_addr, 4);
	add_const(KEY_CMDLINE_SIZE, lin.cmdline_size, 4);
	if (lin.initrd_size != 0) {
		add_const(KEY_INITRD_ADDR, lin.initrd_addr, 4);
		add_const(KEY_INITRD_SIZE, lin.initrd_size, 4);
	}
	mlog("hypervisor: guest fw_cfg: kernel %u+%u bytes (setup+kernel), "
	     "initrd %u bytes, command line %u bytes",
	     lin.setup_size, lin.kernel_size, lin.initrd_size,
	     lin.cmdline_size);
}

void hv_fwcfg_init(void)
{
	struct hv_fwcfg_file *in;
	struct hv_fwcfg_file extra = {.key_be = __builtin_bswap16(KEY_E820),
				      .name = "etc/e820"};
	uint32_t count = 0, id = 0, n;
	uint16_t cpus = 0;

	qemu_select(KEY_ID);
	qemu_bytes(&id, sizeof(id));
	qemu_has_dma = (id & ID_DMA) != 0;
	qemu_select(KEY_NB_CPUS);
	qemu_bytes(&cpus, sizeof(cpus));
	add_const(KEY_SIGNATURE, 0x554D4551u, 4); /* "QEMU" */
	add_const(KEY_ID, ID_PORTS | ID_DMA, 4);
	add_const(KEY_NB_CPUS, cpus, 2);

	qemu_select(KEY_FILE_DIR);
	qemu_bytes(&count, sizeof(count));
	count = be32(count);
	if (count > DIR_MAX) {
		count = DIR_MAX;
	}
	in = mm_alloc_pages(((uint64_t)count * sizeof(*in) + PAGE) / PAGE);
	qemu_bytes(in, count * (uint32_t)sizeof(*in));
	find_guest_files(in, count);
	/* The directory as the guest reads it: the count, then entries. */
	dir_bytes = mm_alloc_pages(
		((uint64_t)(count + 1) * sizeof(*in) + 4 + PAGE - 1) / PAGE);
	dir = (struct hv_fwcfg_file *)(dir_bytes + 4);
	n = hv_fwcfg_dir(in, count, &extra, 1, dir, count + 1);
	dir_len = 4 + n * (uint32_t)sizeof(*dir);
	n = be32(n);
	memcpy(dir_bytes, &n, 4);
	read_guest_files();
}

/* At the first guest access: the guest's RAM is known (etc/e820, the
 * initrd's address), and QEMU's selection is wherever the machine's own
 * reads left it. */
static void make_ready(void)
{
	uint32_t i, n = dir_len >= 4 ? (dir_len - 4) / sizeof(*dir) : 0;

	e820_len = (uint32_t)hv_fwcfg_e820(guest_ram_size, guest_ram_high, e820,
					   sizeof(e820));
	for (i = 0; i < n; i++) {
		if (__builtin_bswap16(dir[i].key_be) == KEY_E820) {
			dir[i].size_be = be32(e820_len);
		}
	}
	linux_keys();
	qemu_key = KEY_INVALID;
	guest_select(KEY_SIGNATURE);
	ready = true;
}

bool hv_fwcfg_port(uint16_t port)
{
	return port == HV_FWCFG_PORT_SEL || port == HV_FWCFG_PORT_DATA ||
	       (port >= HV_FWCFG_PORT_DMA_HI && port <= HV_FWCFG_PORT_LAST);
}

/* The DMA registers read as "QEMU CFG", byte k of it at port 0x514 + k. */
static uint32_t dma_signature(uint16_t port, unsigned size)
{
	static const char sig[8] = {'Q', 'E', 'M', 'U', ' ', 'C', 'F', 'G'};
	unsigned k = port - HV_FWCFG_PORT_DMA_HI, i;
	uint32_t v = 0;

	for (i = 0; i < size; i++) {
		if (k + i < sizeof(sig)) {
			v |= (uint32_t)(uint8_t)sig[k + i] << (8 * i);
		}
	}
	return v;
}

void hv_fwcfg_io(uint16_t port, unsigned size, bool in, uint32_t *val)
{
	uint64_t start = 0;

	spin_lock(&fw_lock);
	if (!ready) {
		make_ready();
	}
	if (port >= HV_FWCFG_PORT_DMA_HI) {
		if (in) {
			*val = dma_signature(port, size);
		} else if (port == HV_FWCFG_PORT_DMA_HI && size == 4) {
			dma_addr = (uint64_t)be32(*val) << 32;
		} else if (port == HV_FWCFG_PORT_DMA_LO && size == 4) {
			start = dma_addr | be32(*val);
			dma_addr = 0;
			dma_start(start);
		}
	} else if (in) {
		/* Byte reads at either port are the data; QEMU refuses the
		 * wider ones (they read 0). */
		*val = size == 1 ? data_byte() : 0;
	} else if (port == HV_FWCFG_PORT_SEL && size == 2) {
		guest_select((uint16_t)*val);
	}
	/* Data writes: nothing, as QEMU since 2.4. */
	spin_unlock(&fw_lock);
}
