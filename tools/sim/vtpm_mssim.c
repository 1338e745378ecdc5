/* SPDX-License-Identifier: MIT */
/*
 * csvsm-sim vtpm --mssim PORT: a simulated machine whose SVSM serves its
 * vTPM to TPM tools over the TCG simulator ("mssim") TCP protocol on
 * 127.0.0.1:PORT (commands) and PORT+1 (platform). Every TPM command
 * travels the whole SVSM path: the guest's request block, an SVSM call
 * through the Calling Area, protocol 2, the engine, the response block.
 * A test server: loopback only, at most MAX_CLIENTS connections at once,
 * a lifetime (--max-seconds) and a per-message read timeout.
 * Wire facts (big-endian u32s, the trailing 0 ack, TCP_QUICKACK against
 * the TCTI's delayed-ACK stall) were measured on captured TCTI traffic.
 * With --vtpm-disk FILE the vTPM keeps its state in FILE across runs
 * (tools/sim/file_disk.h; docs/vtpm.md, "Persistent state").
 */
#define _GNU_SOURCE
#include "vtpm_mssim.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "abi/svsm_call.h"
#include "abi/svsm_vtpm.h"

#include "csvsm_sim.h"
#include "file_disk.h"

#define MAX_CLIENTS 8
#define READ_TIMEOUT_S 10
#define BLOCK_GPA 0x2000000ull
/* mssim command port commands (TpmTcpProtocol.h). */
#define MS_HASH_START 5u
#define MS_HASH_DATA 6u
#define MS_HASH_END 7u
#define MS_SEND_COMMAND 8u
#define MS_REMOTE_HANDSHAKE 15u
#define MS_SESSION_END 20u
#define MS_STOP 21u
#define MS_ACT_GET_SIGNALED 26u
#define MS_SET_FW_HASH 35u
#define MS_SET_FW_SVN 36u

struct client {
	int fd;
	bool platform;
};

static struct sim_machine *machine;
static unsigned long commands_served;

static bool read_all(int fd, void *buf, size_t n)
{
	uint8_t *p = buf;
	int one = 1;

	while (n > 0) {
		ssize_t r = recv(fd, p, n, 0);

		if (r <= 0) {
			if (r < 0 && errno == EINTR) {
				continue;
			}
			return false;
		}
		/* Re-arm quick ACKs: the TCTI sends the envelope and the
		 * command in two writes without TCP_NODELAY. */
		(void)setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one,
				 sizeof(one));
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static bool write_all(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;

	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w <= 0) {
			if (w < 0 && errno == EINTR) {
				continue;
			}
			return false;
		}
		p += w;
		n -= (size_t)w;
	}
	return true;
}

static bool read_u32(int fd, uint32_t *v)
{
	uint8_t b[4];

	if (!read_all(fd, b, 4)) {
		return false;
	}
	*v = ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) |
	     ((uint32_t)b[2] << 8) | b[3];
	return true;
}

static bool write_u32(int fd, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16),
			(uint8_t)(v >> 8), (uint8_t)v};

	return write_all(fd, b, 4);
}

/* One TPM command through the guest and the SVSM. */
static uint32_t run_command(const uint8_t *cmd, uint32_t len, uint8_t *rsp)
{
	static const uint8_t failure[10] = {0x80, 0x01, 0, 0, 0,
					    10,	  0,	0, 1, 0x01};
	uint32_t rsp_len = 0;
	uint32_t result = 0;

	if (sim_vtpm_command(machine, 0, BLOCK_GPA, cmd, len, rsp,
			     SVSM_VTPM_MAX_RESPONSE, &rsp_len,
			     &result) != SIM_OK ||
	    result != SVSM_SUCCESS) {
		/* The SVSM refused the block (a size the protocol cannot
		 * carry): the TPM's own answer for a failed command. */
		fprintf(stderr, "vtpm: SVSM call result 0x%x\n", result);
		memcpy(rsp, failure, sizeof(failure));
		return sizeof(failure);
	}
	commands_served++;
	return rsp_len;
}

static bool serve_send_command(int fd)
{
	static uint8_t cmd[SVSM_VTPM_MAX_COMMAND];
	static uint8_t rsp[SVSM_VTPM_MAX_RESPONSE];
	uint8_t locality;
	uint32_t len;
	uint32_t n;

	if (!read_all(fd, &locality, 1) || !read_u32(fd, &len) ||
	    len > sizeof(cmd) || !read_all(fd, cmd, len)) {
		return false;
	}
	(void)locality; /* the SVSM protocol carries locality 0 only */
	n = run_command(cmd, len, rsp);
	return write_u32(fd, n) && write_all(fd, rsp, n) && write_u32(fd, 0);
}

/* Returns false to close the connection. */
static bool serve_command_port(int fd)
{
	uint32_t cmd;
	uint32_t v;

	if (!read_u32(fd, &cmd)) {
		return false;
	}
	switch (cmd) {
	case MS_SEND_COMMAND:
		return serve_send_command(fd);
	case MS_REMOTE_HANDSHAKE:
		/* version 1; PlatformAvailable | RawMode | SupportsPP */
		return read_u32(fd, &v) && write_u32(fd, 1) &&
		       write_u32(fd, 1 | 4 | 8) && write_u32(fd, 0);
	case MS_HASH_START:
	case MS_HASH_END:
		return write_u32(fd, 0);
	case MS_HASH_DATA: {
		static uint8_t skip[4096];

		return read_u32(fd, &v) && v <= sizeof(skip) &&
		       read_all(fd, skip, v) && write_u32(fd, 0);
	}
	case MS_SESSION_END:
	case MS_STOP:
	default:
		return false;
	}
}

/* Power, NV, physical presence, cancel, locality signals: the SVSM's TPM
 * is always on and a guest cannot reset it, so they are acknowledged. */
static bool serve_platform_port(int fd)
{
	uint32_t cmd;
	uint32_t v;

	if (!read_u32(fd, &cmd)) {
		return false;
	}
	switch (cmd) {
	case 1:
	case 2:
	case 3:
	case 4:
	case 9:
	case 10:
	case 11:
	case 12:
	case 13:
	case 14:
	case 17:
	case 18:
	case 30:
		return write_u32(fd, 0);
	case MS_ACT_GET_SIGNALED:
	case MS_SET_FW_HASH:
	case MS_SET_FW_SVN:
		return read_u32(fd, &v) && write_u32(fd, 0);
	case MS_SESSION_END:
	case MS_STOP:
		return false;
	default:
		return write_u32(fd, 1);
	}
}

static int listen_on(uint16_t port)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons(port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;

	if (fd < 0) {
		return -1;
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    listen(fd, MAX_CLIENTS) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static bool validate_block(void)
{
	uint64_t caa = sim_current_caa_gpa(machine, 0);
	uint64_t hdr = 1;
	uint64_t entry = BLOCK_GPA | 4; /* validate, 4 KiB */
	struct sim_regs r = {
		.rax = SVSM_CALL(SVSM_PROTOCOL_CORE, SVSM_CORE_PVALIDATE),
		.rcx = caa + 8};

	return sim_mem_write(machine, caa + 8, &hdr, 8) == SIM_OK &&
	       sim_mem_write(machine, caa + 16, &entry, 8) == SIM_OK &&
	       sim_call(machine, 0, &r) == SIM_OK && r.rax == SVSM_SUCCESS;
}

static void accept_client(int lfd, bool platform, struct client *clients,
			  unsigned *n)
{
	struct timeval tv = {.tv_sec = READ_TIMEOUT_S};
	int fd = accept(lfd, NULL, NULL);
	int one = 1;

	if (fd < 0) {
		return;
	}
	if (*n >= MAX_CLIENTS) {
		close(fd); /* bounded: refuse */
		return;
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	clients[*n] = (struct client){.fd = fd, .platform = platform};
	(*n)++;
}

int vtpm_mssim_main(int argc, char **argv)
{
	struct client clients[MAX_CLIENTS];
	struct sim_config cfg;
	unsigned nclients = 0;
	long port = 0;
	long max_seconds = 600;
	const char *disk = NULL;
	int lfd[2];
	time_t end;
	int i;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--mssim") == 0 && i + 1 < argc) {
			port = strtol(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--max-seconds") == 0 &&
			   i + 1 < argc) {
			max_seconds = strtol(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--vtpm-disk") == 0 &&
			   i + 1 < argc) {
			disk = argv[++i];
		} else {
			fprintf(stderr, "usage: csvsm-sim vtpm --mssim PORT "
					"[--max-seconds N] [--vtpm-disk "
					"FILE]\n");
			return 2;
		}
	}
	if (port <= 0 || port > 65534 || max_seconds <= 0) {
		fprintf(stderr,
			"csvsm-sim vtpm: need --mssim PORT (1..65534)\n");
		return 2;
	}
	if (disk != NULL && !file_disk_open(disk)) {
		fprintf(stderr, "csvsm-sim vtpm: cannot open %s\n", disk);
		return 2;
	}
	sim_config_default(&cfg);
	cfg.vtpm = true;
	cfg.vtpm_disk = disk != NULL ? &file_disk : NULL;
	cfg.log_level = 3;
	cfg.log_stderr = true;
	machine = sim_create(&cfg);
	if (machine == NULL || !validate_block()) {
		fprintf(stderr, "csvsm-sim vtpm: the SVSM did not start\n");
		return 1;
	}
	lfd[0] = listen_on((uint16_t)port);
	lfd[1] = listen_on((uint16_t)(port + 1));
	if (lfd[0] < 0 || lfd[1] < 0) {
		perror("csvsm-sim vtpm: listen");
		return 1;
	}
	printf("csvsm-sim vtpm: mssim on 127.0.0.1:%ld (platform %ld)\n", port,
	       port + 1);
	fflush(stdout);
	end = time(NULL) + max_seconds;
	while (time(NULL) < end) {
		struct pollfd p[2 + MAX_CLIENTS];
		unsigned k;

		p[0] = (struct pollfd){.fd = lfd[0], .events = POLLIN};
		p[1] = (struct pollfd){.fd = lfd[1], .events = POLLIN};
		for (k = 0; k < nclients; k++) {
			p[2 + k] = (struct pollfd){.fd = clients[k].fd,
						   .events = POLLIN};
		}
		if (poll(p, 2 + nclients, 1000) <= 0) {
			continue;
		}
		for (k = nclients; k-- > 0;) {
			bool ok;

			if ((p[2 + k].revents & (POLLIN | POLLHUP | POLLERR)) ==
			    0) {
				continue;
			}
			ok = clients[k].platform
				     ? serve_platform_port(clients[k].fd)
				     : serve_command_port(clients[k].fd);
			if (!ok) {
				close(clients[k].fd);
				clients[k] = clients[--nclients];
			}
		}
		if (p[0].revents & POLLIN) {
			accept_client(lfd[0], false, clients, &nclients);
		}
		if (p[1].revents & POLLIN) {
			accept_client(lfd[1], true, clients, &nclients);
		}
	}
	fprintf(stderr, "csvsm-sim vtpm: %lu commands served, time is up\n",
		commands_served);
	sim_destroy(machine);
	return 0;
}
