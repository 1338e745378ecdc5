/* SPDX-License-Identifier: MIT */
/* A host file as the SVSM's block device (file_disk.h). */
#include "file_disk.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static int fd = -1;
static uint64_t sectors;

bool file_disk_open(const char *path)
{
	struct stat st;

	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0 || fstat(fd, &st) != 0) {
		file_disk_close();
		return false;
	}
	/* A new (empty) file is a new device of the store's size; any
	 * other size is the host's, and served as it is. */
	if (st.st_size == 0 &&
	    ftruncate(fd, (off_t)VTPM_STORE_SECTORS * VTPM_STORE_SECTOR) != 0) {
		file_disk_close();
		return false;
	}
	if (st.st_size == 0) {
		st.st_size = (off_t)VTPM_STORE_SECTORS * VTPM_STORE_SECTOR;
	}
	sectors = (uint64_t)st.st_size / VTPM_STORE_SECTOR;
	return true;
}

void file_disk_close(void)
{
	if (fd >= 0) {
		close(fd);
	}
	fd = -1;
	sectors = 0;
}

static bool fd_present(void)
{
	return fd >= 0;
}

static uint64_t fd_sectors(void)
{
	return sectors;
}

static bool in_range(uint64_t lba, size_t n)
{
	return fd >= 0 && lba <= sectors && n <= sectors - lba;
}

static enum svsm_err fd_read(uint64_t lba, void *buf, size_t n)
{
	size_t len = n * VTPM_STORE_SECTOR;

	if (!in_range(lba, n) ||
	    pread(fd, buf, len, (off_t)(lba * VTPM_STORE_SECTOR)) !=
		    (ssize_t)len) {
		return SVSM_E_STATE;
	}
	return SVSM_OK;
}

static enum svsm_err fd_write(uint64_t lba, const void *buf, size_t n)
{
	size_t len = n * VTPM_STORE_SECTOR;

	if (!in_range(lba, n) ||
	    pwrite(fd, buf, len, (off_t)(lba * VTPM_STORE_SECTOR)) !=
		    (ssize_t)len) {
		return SVSM_E_STATE;
	}
	return SVSM_OK;
}

static enum svsm_err fd_flush(void)
{
	return fd >= 0 && fsync(fd) == 0 ? SVSM_OK : SVSM_E_STATE;
}

const struct vtpm_disk file_disk = {
	.name = "host file (csvsm-sim)",
	.present = fd_present,
	.sectors = fd_sectors,
	.read = fd_read,
	.write = fd_write,
	.flush = fd_flush,
};
