/* SPDX-License-Identifier: MIT */
#include "hv_pci.h"

#include "svsm/spinlock.h"
#include "svsm/std.h"

#define CFG_SIZE 256u
#define ECAM_FN_SIZE 0x1000u
#define BDF_MCH 0x00u		  /* 00:00.0 */
#define BDF_LPC ((31u << 3) | 0u) /* 00:1f.0 */
#define CONF_ENABLE (1u << 31)

#define REG_VENDOR 0x00u
#define REG_DEVICE 0x02u
#define REG_COMMAND 0x04u
#define REG_REVISION 0x08u
#define REG_CLASS 0x09u /* prog-if, subclass, class */
#define REG_HEADER_TYPE 0x0Eu
#define REG_SUBSYS_VENDOR 0x2Cu
#define REG_SUBSYS 0x2Eu
#define REG_INT_LINE 0x3Cu
#define HEADER_MULTIFUNCTION 0x80u

#define MCH_PCIEXBAR 0x60u
#define MCH_PCIEXBAR_EN 0x1ull
#define MCH_PCIEXBAR_LEN_SHIFT 1u
#define MCH_PCIEXBAR_LEN_MASK 0x3ull
#define MCH_PCIEXBAR_BASE_MASK 0xFF0000000ull /* bits 35:28 */
#define MCH_PAM0 0x90u
#define MCH_PAM_COUNT 7u
#define ECAM_MAX_SIZE 0x10000000ull /* 256 MiB: 256 buses */

#define LPC_PMBASE 0x40u
#define LPC_PMBASE_IO 0x1u
#define LPC_PMBASE_MASK 0xFF80u
#define LPC_ACPI_CNTL 0x44u
#define LPC_ACPI_EN 0x80u
#define LPC_SCI_IRQ_MASK 0x07u
#define LPC_PIRQA 0x60u
#define LPC_PIRQ_END 0x6Cu /* 0x60-0x63 PIRQA-D, 0x64 SIRQ, 0x68-0x6B E-H */
#define LPC_SIRQ_CNTL 0x64u
#define LPC_PIRQ_DISABLED 0x80u
#define LPC_SIRQ_DEFAULT 0x10u
#define LPC_RCBA 0xF0u

struct fn {
	uint8_t cfg[CFG_SIZE];
	uint8_t wmask[CFG_SIZE];
};

static struct fn mch, lpc;
static uint32_t conf_addr; /* 0xCF8, one for all vCPUs as in QEMU */
static uint16_t pm_real;   /* QEMU's PM block, 0: none */
/* The guest's PM window to translate, 0: none (read without the lock). */
static uint16_t pm_guest;
static struct spinlock pci_lock; /* the state above */

static void put(struct fn *f, unsigned reg, uint32_t v, unsigned bytes,
		uint32_t wmask)
{
	unsigned i;

	for (i = 0; i < bytes; i++) {
		f->cfg[reg + i] = (uint8_t)(v >> (8 * i));
		f->wmask[reg + i] = (uint8_t)(wmask >> (8 * i));
	}
}

static void header(struct fn *f, uint16_t device, uint8_t revision,
		   uint32_t class_code, uint8_t header_type, uint16_t command)
{
	memset(f, 0, sizeof(*f));
	put(f, REG_VENDOR, 0x8086u, 2, 0);
	put(f, REG_DEVICE, device, 2, 0);
	/* I/O, memory, bus master, parity, SERR, INTx disable. */
	put(f, REG_COMMAND, command, 2, 0x0547u);
	put(f, REG_REVISION, revision, 1, 0);
	put(f, REG_CLASS, class_code, 3, 0);
	put(f, REG_HEADER_TYPE, header_type, 1, 0);
	put(f, REG_SUBSYS_VENDOR, 0x1AF4u, 2, 0);
	put(f, REG_SUBSYS, 0x1100u, 2, 0);
	put(f, REG_INT_LINE, 0, 1, 0xFFu);
}

static uint32_t get(const struct fn *f, unsigned reg, unsigned bytes)
{
	uint32_t v = 0;
	unsigned i;

	for (i = 0; i < bytes; i++) {
		v |= (uint32_t)f->cfg[reg + i] << (8 * i);
	}
	return v;
}

/* What the guest's PMBASE and ACPI_CNTL ask for: the window to move onto
 * the real block, 0 when there is nothing to translate. */
static void pm_update(void)
{
	uint16_t base = (uint16_t)(get(&lpc, LPC_PMBASE, 2) & LPC_PMBASE_MASK);
	uint16_t w = 0;

	if (pm_real != 0 && (lpc.cfg[LPC_ACPI_CNTL] & LPC_ACPI_EN) != 0 &&
	    base != 0 && base != pm_real) {
		w = base;
	}
	__atomic_store_n(&pm_guest, w, __ATOMIC_RELEASE);
}

void hv_pci_init(uint16_t pm_base)
{
	unsigned i;

	spin_lock(&pci_lock);
	pm_real = (uint16_t)(pm_base & LPC_PMBASE_MASK);
	conf_addr = 0;
	header(&mch, 0x29C0u, 0, 0x060000u, 0, 0x0006u);
	/* PCIEXBAR: enable, length (bits 2:1), base bits 35:26. */
	put(&mch, MCH_PCIEXBAR, 0, 4, 0xFC000007u);
	put(&mch, MCH_PCIEXBAR + 4, 0, 4, 0x0000000Fu);
	for (i = 0; i < MCH_PAM_COUNT; i++) {
		put(&mch, MCH_PAM0 + i, 0, 1, i == 0 ? 0x30u : 0x33u);
	}

	header(&lpc, 0x2918u, 0x02u, 0x060100u, HEADER_MULTIFUNCTION, 0x0007u);
	put(&lpc, LPC_PMBASE, pm_real | LPC_PMBASE_IO, 4, LPC_PMBASE_MASK);
	put(&lpc, LPC_ACPI_CNTL, pm_real != 0 ? LPC_ACPI_EN : 0, 1,
	    LPC_ACPI_EN | LPC_SCI_IRQ_MASK);
	for (i = LPC_PIRQA; i < LPC_PIRQ_END; i++) {
		bool pirq = i < LPC_SIRQ_CNTL || i >= LPC_SIRQ_CNTL + 4;

		put(&lpc, i,
		    pirq		 ? LPC_PIRQ_DISABLED
		    : i == LPC_SIRQ_CNTL ? LPC_SIRQ_DEFAULT
					 : 0,
		    1, 0xFFu);
	}
	put(&lpc, LPC_RCBA, 0, 4, 0xFFFFC001u);
	pm_update();
	spin_unlock(&pci_lock);
}

static struct fn *fn_of(uint32_t bdf)
{
	if (bdf == BDF_MCH) {
		return &mch;
	}
	if (bdf == BDF_LPC) {
		return &lpc;
	}
	return NULL;
}

static uint8_t read_byte(uint32_t bdf, uint32_t reg)
{
	const struct fn *f = fn_of(bdf);

	return f != NULL && reg < CFG_SIZE ? f->cfg[reg] : 0xFFu;
}

static void write_byte(uint32_t bdf, uint32_t reg, uint8_t v)
{
	struct fn *f = fn_of(bdf);

	if (f != NULL && reg < CFG_SIZE) {
		f->cfg[reg] = (uint8_t)((f->cfg[reg] & ~f->wmask[reg]) |
					(v & f->wmask[reg]));
	}
}

/* Under the lock: @size bytes from @reg of @bdf, little-endian. */
static uint32_t cfg_read(uint32_t bdf, uint32_t reg, unsigned size)
{
	uint32_t v = 0;
	unsigned i;

	for (i = 0; i < size; i++) {
		v |= (uint32_t)read_byte(bdf, reg + i) << (8 * i);
	}
	return v;
}

static void cfg_write(uint32_t bdf, uint32_t reg, unsigned size, uint32_t v)
{
	unsigned i;

	for (i = 0; i < size; i++) {
		write_byte(bdf, reg + i, (uint8_t)(v >> (8 * i)));
	}
	if (bdf == BDF_LPC) {
		pm_update();
	}
}

uint32_t hv_pci_cfg_read(uint32_t bdf, uint32_t reg, unsigned size)
{
	uint32_t v;

	spin_lock(&pci_lock);
	v = cfg_read(bdf, reg, size);
	spin_unlock(&pci_lock);
	return v;
}

void hv_pci_cfg_write(uint32_t bdf, uint32_t reg, unsigned size, uint32_t v)
{
	spin_lock(&pci_lock);
	cfg_write(bdf, reg, size, v);
	spin_unlock(&pci_lock);
}

bool hv_pci_port(uint16_t port, unsigned size)
{
	uint32_t last = (uint32_t)port + size - 1;

	return last >= HV_PCI_CONF_ADDR && port <= HV_PCI_CONF_DATA + 3 &&
	       !(port == HV_PCI_CONF_ADDR + 1 && size == 1);
}

void hv_pci_io(uint16_t port, unsigned size, bool in, uint32_t *val)
{
	uint32_t off = (uint32_t)port - HV_PCI_CONF_DATA;
	uint32_t addr;

	spin_lock(&pci_lock);
	addr = conf_addr;
	if (port == HV_PCI_CONF_ADDR && size == 4) {
		if (in) {
			*val = addr;
		} else {
			conf_addr = *val;
		}
	} else if (port < HV_PCI_CONF_DATA || off + size > 4 ||
		   (addr & CONF_ENABLE) == 0) {
		/* Not the address register nor data inside the dword, or
		 * configuration cycles off: no device. */
		if (in) {
			*val = 0xFFFFFFFFu;
		}
	} else {
		/* Bits 23:8 bus/device/function, 7:2 the register (the AMD
		 * extended bits 27:24 are ignored, as QEMU's q35 does). */
		uint32_t bdf = (addr >> 8) & 0xFFFFu;
		uint32_t reg = (addr & 0xFCu) + off;

		if (in) {
			*val = cfg_read(bdf, reg, size);
		} else {
			cfg_write(bdf, reg, size, *val);
		}
	}
	spin_unlock(&pci_lock);
}

/* Under the lock: the ECAM window PCIEXBAR enables ([*base, +*size)). */
static bool ecam_window(uint64_t *base, uint64_t *size)
{
	uint64_t bar = (uint64_t)get(&mch, MCH_PCIEXBAR, 4) |
		       (uint64_t)get(&mch, MCH_PCIEXBAR + 4, 4) << 32;
	uint64_t len = (bar >> MCH_PCIEXBAR_LEN_SHIFT) & MCH_PCIEXBAR_LEN_MASK;

	if ((bar & MCH_PCIEXBAR_EN) == 0 || len == MCH_PCIEXBAR_LEN_MASK) {
		return false; /* off, or the reserved length */
	}
	*size = ECAM_MAX_SIZE >> len;
	*base = bar & (MCH_PCIEXBAR_BASE_MASK | (ECAM_MAX_SIZE - *size));
	return true;
}

bool hv_pci_ecam(uint64_t gpa, unsigned len, bool write, uint8_t *data)
{
	uint64_t base = 0, size = 0, off;
	unsigned i;

	spin_lock(&pci_lock);
	if (!ecam_window(&base, &size) || gpa < base || gpa - base >= size ||
	    len > size - (gpa - base)) {
		spin_unlock(&pci_lock);
		return false;
	}
	off = gpa - base;
	for (i = 0; i < len; i++) {
		/* Bus 27:20, device and function 19:12, register 11:0. */
		uint32_t bdf = (uint32_t)((off + i) >> 12);
		uint32_t reg = (uint32_t)((off + i) & (ECAM_FN_SIZE - 1));

		if (write) {
			write_byte(bdf, reg, data[i]);
		} else {
			data[i] = read_byte(bdf, reg);
		}
	}
	if (write) {
		pm_update();
	}
	spin_unlock(&pci_lock);
	return true;
}

uint16_t hv_pci_pm_port(uint16_t port)
{
	uint16_t w = __atomic_load_n(&pm_guest, __ATOMIC_ACQUIRE);

	if (w != 0 && port >= w && (unsigned)(port - w) < HV_PCI_PM_SIZE) {
		return (uint16_t)(pm_real + (port - w));
	}
	return port;
}
