/* SPDX-License-Identifier: MIT */
/*
 * csvsm-igvm pcrs (pcrs.h). The scheme (docs/vtpm.md): PCR 9 extended
 * with H(the kernel: the bytes an image carries at the load address,
 * which are the bzImage after its setup sectors, or with --linux-entry
 * startup_64 the kernel proper loaded from its payload, vmlinux.h), then
 * H(initrd) if any; PCR 8 with H(the command line's bytes, no NUL);
 * every bank starts at zero. From an image, the inputs are its own pages, found
 * through its boot parameter page (abi/csvsm_boot.h); from files, as `build
 * --linux` takes them. The image is untrusted input here: every range is
 * checked against the pages it holds.
 */
#include "pcrs.h"

#include <getopt.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/csvsm_boot.h"
#include "abi/igvm.h"
#include "abi/snp.h"

#include "model/igvm_reader.h"

#include "../common/file_io.h"
#include "../common/hex.h"
#include "linux_image.h"
#include "vmlinux.h"

#define MAX_FILE (512u << 20)
#define PAGE SNP_PAGE_SIZE
#define NBANKS 4u

static const char *const bank_names[NBANKS] = {"sha1", "sha256", "sha384",
					       "sha512"};

static const EVP_MD *bank_md(unsigned i)
{
	const EVP_MD *mds[NBANKS] = {EVP_sha1(), EVP_sha256(), EVP_sha384(),
				     EVP_sha512()};

	return mds[i];
}

struct pcrs {
	uint8_t pcr[2][NBANKS][EVP_MAX_MD_SIZE]; /* [0]: PCR 8, [1]: 9 */
};

/* One input as pieces (an image's pages, or one file). */
struct input {
	const uint8_t *const *pages; /* NULL entries are zero pages */
	const uint8_t *flat;
	size_t len;
};

static const uint8_t zero_page[PAGE];

static int extend(struct pcrs *s, unsigned which, const struct input *in)
{
	unsigned b;

	for (b = 0; b < NBANKS; b++) {
		const EVP_MD *md = bank_md(b);
		unsigned n = (unsigned)EVP_MD_get_size(md);
		uint8_t d[EVP_MAX_MD_SIZE];
		EVP_MD_CTX *c = EVP_MD_CTX_new();
		int ok = c != NULL && EVP_DigestInit_ex(c, md, NULL) == 1;
		size_t off;

		for (off = 0; ok && off < in->len; off += PAGE) {
			size_t k = in->len - off < PAGE ? in->len - off : PAGE;
			const uint8_t *p;

			if (in->flat != NULL) {
				p = in->flat + off;
			} else {
				p = in->pages[off / PAGE];
				p = p != NULL ? p : zero_page;
			}
			ok = EVP_DigestUpdate(c, p, k) == 1;
		}
		ok = ok && EVP_DigestFinal_ex(c, d, NULL) == 1;
		/* PCR := H(PCR || d) */
		ok = ok && EVP_DigestInit_ex(c, md, NULL) == 1 &&
		     EVP_DigestUpdate(c, s->pcr[which][b], n) == 1 &&
		     EVP_DigestUpdate(c, d, n) == 1 &&
		     EVP_DigestFinal_ex(c, s->pcr[which][b], NULL) == 1;
		EVP_MD_CTX_free(c);
		if (!ok) {
			fprintf(stderr, "csvsm-igvm: libcrypto failed\n");
			return 1;
		}
	}
	return 0;
}

static void print(const struct pcrs *s)
{
	unsigned b, w;

	for (b = 0; b < NBANKS; b++) {
		for (w = 0; w < 2; w++) {
			printf("%s %u ", bank_names[b], 8 + w);
			hex_print(stdout, s->pcr[w][b],
				  (size_t)EVP_MD_get_size(bank_md(b)));
			printf("\n");
		}
	}
}

/* The kernel's bytes as `build --linux` with @entry loads them: the
 * protected-mode part, or the kernel proper (*@img, to free). */
static int kernel_bytes(const char *bz_path, const uint8_t *bz, size_t bz_len,
			unsigned entry, struct vmlinux_image *img,
			struct input *in)
{
	struct bzimage_hdr h;
	const char *why;
	size_t setup;

	if (entry == CSVSM_LINUX_ENTRY_STARTUP_64) {
		why = bzimage_parse(bz, bz_len, &h);
		if (why == NULL) {
			why = vmlinux_load(bz, bz_len, &h, img);
		}
		if (why != NULL) {
			fprintf(stderr, "csvsm-igvm: %s: %s\n", bz_path, why);
			return 1;
		}
		*in = (struct input){.flat = img->bytes, .len = img->len};
		return 0;
	}
	/* boot.rst: setup_sects at 0x1F1, 0 meaning 4; the real-mode
	 * part is it plus the boot sector, in 512-byte sectors. */
	setup = bz_len > 0x1F1
			? (size_t)((bz[0x1F1] ? bz[0x1F1] : 4) + 1u) * 512u
			: bz_len;
	if (setup >= bz_len) {
		fprintf(stderr,
			"csvsm-igvm: %s: no kernel after its setup "
			"sectors\n",
			bz_path);
		return 1;
	}
	*in = (struct input){.flat = bz + setup, .len = bz_len - setup};
	return 0;
}

static int from_files(const char *bz_path, const char *initrd_path,
		      const char *cmdline, unsigned entry)
{
	static struct pcrs s;
	static struct vmlinux_image img;
	size_t bz_len = 0, initrd_len = 0;
	uint8_t *bz = tool_read_file(bz_path, MAX_FILE, &bz_len);
	uint8_t *initrd = NULL;
	struct input in = {0};
	int rc = 1;

	if (bz == NULL) {
		fprintf(stderr, "csvsm-igvm: cannot read %s\n", bz_path);
		return 2;
	}
	if (kernel_bytes(bz_path, bz, bz_len, entry, &img, &in) != 0 ||
	    extend(&s, 1, &in) != 0) {
		goto out;
	}
	if (initrd_path != NULL) {
		initrd = tool_read_file(initrd_path, MAX_FILE, &initrd_len);
		if (initrd == NULL) {
			fprintf(stderr, "csvsm-igvm: cannot read %s\n",
				initrd_path);
			rc = 2;
			goto out;
		}
		in = (struct input){.flat = initrd, .len = initrd_len};
		if (initrd_len != 0 && extend(&s, 1, &in) != 0) {
			goto out;
		}
	}
	in = (struct input){.flat = (const uint8_t *)(cmdline ? cmdline : ""),
			    .len = cmdline ? strlen(cmdline) : 0};
	if (extend(&s, 0, &in) != 0) {
		goto out;
	}
	print(&s);
	rc = 0;
out:
	vmlinux_image_free(&img);
	free(bz);
	free(initrd);
	return rc;
}

/* The image's pages: GPA and contents (NULL: a zero page). */
struct image_page {
	uint64_t gpa;
	const uint8_t *data;
};

static struct image_page *pages;
static size_t npages;

static const struct image_page *find_page(uint64_t gpa)
{
	size_t i;

	for (i = 0; i < npages; i++) {
		if (pages[i].gpa == gpa) {
			return &pages[i];
		}
	}
	return NULL;
}

static int collect(struct igvm_file *f)
{
	struct igvm_item it;
	uint32_t pos = 0;
	const char *why = NULL;
	size_t cap = 0;

	while (igvm_next(f, &pos, &it, &why)) {
		struct igvm_page_data p;
		unsigned k, n;

		if (it.type != IGVM_VHT_PAGE_DATA) {
			continue;
		}
		memcpy(&p, it.body, sizeof(p));
		n = (p.flags & IGVM_PAGE_FLAG_2MB) ? 512 : 1;
		for (k = 0; k < n; k++) {
			if (npages == cap) {
				cap = cap ? 2 * cap : 4096;
				pages = realloc(pages, cap * sizeof(*pages));
				if (pages == NULL) {
					return 1;
				}
			}
			/* igvm_next checked file_offset + n pages. */
			pages[npages].gpa = p.gpa + (uint64_t)k * PAGE;
			pages[npages].data = p.file_offset == 0
						     ? NULL
						     : f->data + p.file_offset +
							       (size_t)k * PAGE;
			npages++;
		}
	}
	if (why != NULL) {
		fprintf(stderr, "csvsm-igvm: %s\n", why);
		return 1;
	}
	return 0;
}

/* The image's bytes [@gpa, @gpa + @len) as pages, each launched. */
static int range(uint64_t gpa, uint64_t len, const uint8_t ***out)
{
	size_t n = (size_t)((len + PAGE - 1) / PAGE), i;
	const uint8_t **v;

	if (gpa % PAGE != 0 || len > MAX_FILE) {
		return 1;
	}
	v = calloc(n ? n : 1, sizeof(*v));
	if (v == NULL) {
		return 1;
	}
	for (i = 0; i < n; i++) {
		const struct image_page *p = find_page(gpa + i * PAGE);

		if (p == NULL) {
			free(v);
			return 1;
		}
		v[i] = p->data;
	}
	*out = v;
	return 0;
}

static int from_image(const char *path)
{
	static struct pcrs s;
	struct csvsm_boot_params bp;
	struct igvm_file f;
	const uint8_t **kernel = NULL, **initrd = NULL, **cmd = NULL;
	const uint8_t *cmdline;
	struct input in;
	size_t len = 0, i, cmd_len;
	uint8_t *buf = tool_read_file(path, MAX_FILE, &len);
	const char *why;
	int rc = 1;

	if (buf == NULL) {
		fprintf(stderr, "csvsm-igvm: cannot read %s\n", path);
		return 2;
	}
	why = igvm_open(&f, buf, len);
	if (why != NULL) {
		fprintf(stderr, "csvsm-igvm: %s: %s\n", path, why);
		goto out;
	}
	if (collect(&f) != 0) {
		goto out;
	}
	/* The boot parameter page: magic, version, Linux entry. */
	for (i = 0; i < npages; i++) {
		if (pages[i].data == NULL) {
			continue;
		}
		memcpy(&bp, pages[i].data, sizeof(bp));
		if (bp.magic == CSVSM_BOOT_MAGIC &&
		    bp.version == CSVSM_BOOT_VERSION) {
			break;
		}
	}
	if (i == npages || bp.guest_entry_mode != CSVSM_GUEST_ENTRY_LINUX) {
		fprintf(stderr, "csvsm-igvm: %s: not a Linux image\n", path);
		goto out;
	}
	if (bp.linux_cmdline_size == 0 || bp.linux_cmdline_size > PAGE ||
	    range(bp.linux_kernel_gpa, bp.linux_kernel_size, &kernel) != 0 ||
	    range(bp.linux_initrd_gpa, bp.linux_initrd_size, &initrd) != 0 ||
	    range(bp.linux_cmdline_gpa, PAGE, &cmd) != 0) {
		fprintf(stderr,
			"csvsm-igvm: %s: the Linux inputs are not "
			"the image's pages\n",
			path);
		goto out;
	}
	in = (struct input){.pages = kernel, .len = bp.linux_kernel_size};
	if (extend(&s, 1, &in) != 0) {
		goto out;
	}
	in = (struct input){.pages = initrd, .len = bp.linux_initrd_size};
	if (bp.linux_initrd_size != 0 && extend(&s, 1, &in) != 0) {
		goto out;
	}
	/* Linux reads the line to its NUL, within cmdline_size. */
	cmdline = cmd[0] != NULL ? cmd[0] : zero_page;
	cmd_len = strnlen((const char *)cmdline, bp.linux_cmdline_size);
	in = (struct input){.flat = cmdline, .len = cmd_len};
	if (extend(&s, 0, &in) != 0) {
		goto out;
	}
	print(&s);
	rc = 0;
out:
	free(kernel);
	free(initrd);
	free(cmd);
	free(pages);
	pages = NULL;
	npages = 0;
	free(buf);
	return rc;
}

int pcrs_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"linux", required_argument, NULL, 'l'},
		{"initrd", required_argument, NULL, 'i'},
		{"cmdline", required_argument, NULL, 'm'},
		{"linux-entry", required_argument, NULL, 'e'},
		{NULL, 0, NULL, 0},
	};
	const char *bz = NULL, *initrd = NULL, *cmdline = NULL, *e = NULL;
	unsigned entry = CSVSM_LINUX_ENTRY_DECOMPRESSOR;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			bz = optarg;
			break;
		case 'i':
			initrd = optarg;
			break;
		case 'm':
			cmdline = optarg;
			break;
		case 'e':
			e = optarg;
			break;
		default:
			return 2;
		}
	}
	if (bz != NULL && optind == argc &&
	    (e == NULL || linux_entry_parse(e, &entry))) {
		return from_files(bz, initrd, cmdline, entry);
	}
	if (bz == NULL && initrd == NULL && cmdline == NULL && e == NULL &&
	    optind + 1 == argc) {
		return from_image(argv[optind]);
	}
	fprintf(stderr, "usage: csvsm-igvm pcrs IMAGE | pcrs --linux BZIMAGE "
			"[--initrd FILE] [--cmdline STRING]\n"
			"                         [--linux-entry "
			"decompressor|startup_64]\n");
	return 2;
}
