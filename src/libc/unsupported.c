/* SPDX-License-Identifier: MIT */
/*
 * What the SVSM has no use for: files, directories, sockets, name
 * resolution, dynamic loading, signals, memory mapping, shared memory,
 * terminals, contexts, sleeping. The archives reference these from code
 * the SVSM never runs (OpenSSL's BIO sockets, engines, async jobs, secure
 * heap; libtpms' socket front end). Each fails the way POSIX lets it fail,
 * -1 with errno, NULL or an error code, so that a path reached anyway
 * returns an error to its caller; each call is counted (the tests check
 * that normal operation reaches none of them).
 */
#include <stddef.h>
#include <stdint.h>

#include "libc_internal.h"

#define EAI_FAIL (-4)

/* -1 with @err: the POSIX failure of most calls here. */
static long fail(const char *name, int err)
{
	libc_note_unsupported(name);
	libc_set_errno(err);
	return -1;
}

/* Files and descriptors: no file system, no descriptor is open. */
int open(const char *path, int flags, ...);
int close(int fd);
long read(int fd, void *buf, size_t n);
long write(int fd, const void *buf, size_t n);
int fcntl(int fd, int cmd, ...);
int ioctl(int fd, unsigned long req, ...);
int stat(const char *path, void *st);
int fstat(int fd, void *st);
void *opendir(const char *path);
void *readdir(void *dir);
int closedir(void *dir);
int tcgetattr(int fd, void *t);
int tcsetattr(int fd, int act, const void *t);
int select(int n, void *r, void *w, void *e, void *timeout);

int open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	return (int)fail("open", LIBC_ENOENT);
}

int close(int fd)
{
	(void)fd;
	return (int)fail("close", LIBC_EBADF);
}

long read(int fd, void *buf, size_t n)
{
	(void)fd;
	(void)buf;
	(void)n;
	return fail("read", LIBC_EBADF);
}

long write(int fd, const void *buf, size_t n)
{
	(void)fd;
	(void)buf;
	(void)n;
	return fail("write", LIBC_EBADF);
}

int fcntl(int fd, int cmd, ...)
{
	(void)fd;
	(void)cmd;
	return (int)fail("fcntl", LIBC_EBADF);
}

int ioctl(int fd, unsigned long req, ...)
{
	(void)fd;
	(void)req;
	return (int)fail("ioctl", LIBC_EBADF);
}

int stat(const char *path, void *st)
{
	(void)path;
	(void)st;
	return (int)fail("stat", LIBC_ENOENT);
}

int fstat(int fd, void *st)
{
	(void)fd;
	(void)st;
	return (int)fail("fstat", LIBC_EBADF);
}

void *opendir(const char *path)
{
	(void)path;
	fail("opendir", LIBC_ENOENT);
	return NULL;
}

void *readdir(void *dir)
{
	(void)dir;
	fail("readdir", LIBC_EBADF);
	return NULL;
}

int closedir(void *dir)
{
	(void)dir;
	return (int)fail("closedir", LIBC_EBADF);
}

int tcgetattr(int fd, void *t)
{
	(void)fd;
	(void)t;
	return (int)fail("tcgetattr", LIBC_EBADF);
}

int tcsetattr(int fd, int act, const void *t)
{
	(void)fd;
	(void)act;
	(void)t;
	return (int)fail("tcsetattr", LIBC_EBADF);
}

int select(int n, void *r, void *w, void *e, void *timeout)
{
	(void)n;
	(void)r;
	(void)w;
	(void)e;
	(void)timeout;
	return (int)fail("select", LIBC_EBADF);
}

/* Sockets and name resolution: no network stack. */
int socket(int domain, int type, int proto);
int bind(int fd, const void *addr, unsigned len);
int listen(int fd, int backlog);
int accept(int fd, void *addr, unsigned *len);
int connect(int fd, const void *addr, unsigned len);
int shutdown(int fd, int how);
long sendmsg(int fd, const void *msg, int flags);
long recvmsg(int fd, void *msg, int flags);
int getsockname(int fd, void *addr, unsigned *len);
int getsockopt(int fd, int level, int opt, void *val, unsigned *len);
int setsockopt(int fd, int level, int opt, const void *val, unsigned len);
int getaddrinfo(const char *node, const char *service, const void *hints,
		void **res);
void freeaddrinfo(void *res);
const char *gai_strerror(int code);
int getnameinfo(const void *sa, unsigned salen, char *host, unsigned hostlen,
		char *serv, unsigned servlen, int flags);
void *gethostbyname(const char *name);

int socket(int domain, int type, int proto)
{
	(void)domain;
	(void)type;
	(void)proto;
	return (int)fail("socket", LIBC_EAFNOSUPPORT);
}

int bind(int fd, const void *addr, unsigned len)
{
	(void)fd;
	(void)addr;
	(void)len;
	return (int)fail("bind", LIBC_EBADF);
}

int listen(int fd, int backlog)
{
	(void)fd;
	(void)backlog;
	return (int)fail("listen", LIBC_EBADF);
}

int accept(int fd, void *addr, unsigned *len)
{
	(void)fd;
	(void)addr;
	(void)len;
	return (int)fail("accept", LIBC_EBADF);
}

int connect(int fd, const void *addr, unsigned len)
{
	(void)fd;
	(void)addr;
	(void)len;
	return (int)fail("connect", LIBC_EBADF);
}

int shutdown(int fd, int how)
{
	(void)fd;
	(void)how;
	return (int)fail("shutdown", LIBC_EBADF);
}

long sendmsg(int fd, const void *msg, int flags)
{
	(void)fd;
	(void)msg;
	(void)flags;
	return fail("sendmsg", LIBC_EBADF);
}

long recvmsg(int fd, void *msg, int flags)
{
	(void)fd;
	(void)msg;
	(void)flags;
	return fail("recvmsg", LIBC_EBADF);
}

int getsockname(int fd, void *addr, unsigned *len)
{
	(void)fd;
	(void)addr;
	(void)len;
	return (int)fail("getsockname", LIBC_EBADF);
}

int getsockopt(int fd, int level, int opt, void *val, unsigned *len)
{
	(void)fd;
	(void)level;
	(void)opt;
	(void)val;
	(void)len;
	return (int)fail("getsockopt", LIBC_EBADF);
}

int setsockopt(int fd, int level, int opt, const void *val, unsigned len)
{
	(void)fd;
	(void)level;
	(void)opt;
	(void)val;
	(void)len;
	return (int)fail("setsockopt", LIBC_EBADF);
}

int getaddrinfo(const char *node, const char *service, const void *hints,
		void **res)
{
	(void)node;
	(void)service;
	(void)hints;
	*res = NULL;
	libc_note_unsupported("getaddrinfo");
	return EAI_FAIL;
}

void freeaddrinfo(void *res)
{
	(void)res; /* getaddrinfo never returns a list */
}

const char *gai_strerror(int code)
{
	(void)code;
	return "name resolution is not available in the SVSM";
}

int getnameinfo(const void *sa, unsigned salen, char *host, unsigned hostlen,
		char *serv, unsigned servlen, int flags)
{
	(void)sa;
	(void)salen;
	(void)host;
	(void)hostlen;
	(void)serv;
	(void)servlen;
	(void)flags;
	libc_note_unsupported("getnameinfo");
	return EAI_FAIL;
}

void *gethostbyname(const char *name)
{
	(void)name;
	libc_note_unsupported("gethostbyname");
	return NULL;
}

/* Dynamic loading: everything is linked in. */
void *dlopen(const char *file, int mode);
void *dlsym(void *handle, const char *name);
int dlclose(void *handle);
char *dlerror(void);
int dladdr(const void *addr, void *info);

void *dlopen(const char *file, int mode)
{
	(void)file;
	(void)mode;
	libc_note_unsupported("dlopen");
	return NULL;
}

void *dlsym(void *handle, const char *name)
{
	(void)handle;
	(void)name;
	libc_note_unsupported("dlsym");
	return NULL;
}

int dlclose(void *handle)
{
	(void)handle;
	libc_note_unsupported("dlclose");
	return -1;
}

char *dlerror(void)
{
	return (char *)"dynamic loading is not available in the SVSM";
}

int dladdr(const void *addr, void *info)
{
	(void)addr;
	(void)info;
	libc_note_unsupported("dladdr");
	return 0; /* 0: no symbol information */
}

/* Signals, memory mapping, shared memory, contexts, processes, sleep. */
typedef void (*libc_sighandler)(int);
libc_sighandler signal(int sig, libc_sighandler handler);
int sigaction(int sig, const void *act, void *old);
void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
int munmap(void *addr, size_t len);
int mprotect(void *addr, size_t len, int prot);
int madvise(void *addr, size_t len, int advice);
int mlock(const void *addr, size_t len);
void *shmat(int id, const void *addr, int flags);
int shmdt(const void *addr);
int shmget(int key, size_t size, int flags);
int getcontext(void *ucp);
int setcontext(const void *ucp);
void makecontext(void *ucp, void (*fn)(void), int argc, ...);
int uname(void *buf);
unsigned sleep(unsigned seconds);
int usleep(unsigned usec);

libc_sighandler signal(int sig, libc_sighandler handler)
{
	(void)sig;
	(void)handler;
	fail("signal", LIBC_EINVAL);
	return (libc_sighandler)-1; /* SIG_ERR */
}

int sigaction(int sig, const void *act, void *old)
{
	(void)sig;
	(void)act;
	(void)old;
	return (int)fail("sigaction", LIBC_EINVAL);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off)
{
	(void)addr;
	(void)len;
	(void)prot;
	(void)flags;
	(void)fd;
	(void)off;
	fail("mmap", LIBC_ENOMEM);
	return (void *)-1; /* MAP_FAILED */
}

int munmap(void *addr, size_t len)
{
	(void)addr;
	(void)len;
	return (int)fail("munmap", LIBC_EINVAL);
}

int mprotect(void *addr, size_t len, int prot)
{
	(void)addr;
	(void)len;
	(void)prot;
	return (int)fail("mprotect", LIBC_EACCES);
}

int madvise(void *addr, size_t len, int advice)
{
	(void)addr;
	(void)len;
	(void)advice;
	return (int)fail("madvise", LIBC_EINVAL);
}

int mlock(const void *addr, size_t len)
{
	(void)addr;
	(void)len;
	return (int)fail("mlock", LIBC_ENOMEM);
}

void *shmat(int id, const void *addr, int flags)
{
	(void)id;
	(void)addr;
	(void)flags;
	fail("shmat", LIBC_EINVAL);
	return (void *)-1;
}

int shmdt(const void *addr)
{
	(void)addr;
	return (int)fail("shmdt", LIBC_EINVAL);
}

int shmget(int key, size_t size, int flags)
{
	(void)key;
	(void)size;
	(void)flags;
	return (int)fail("shmget", LIBC_ENOSYS);
}

int getcontext(void *ucp)
{
	(void)ucp;
	return (int)fail("getcontext", LIBC_ENOSYS);
}

int setcontext(const void *ucp)
{
	(void)ucp;
	return (int)fail("setcontext", LIBC_ENOSYS);
}

/* Only reachable after getcontext() succeeded, which it never does. */
void makecontext(void *ucp, void (*fn)(void), int argc, ...)
{
	(void)ucp;
	(void)fn;
	(void)argc;
	libc_note_unsupported("makecontext");
}

int uname(void *buf)
{
	(void)buf;
	return (int)fail("uname", LIBC_ENOSYS);
}

/* Nothing to wait for: return at once (sleep reports no time left). */
unsigned sleep(unsigned seconds)
{
	(void)seconds;
	libc_note_unsupported("sleep");
	return 0;
}

int usleep(unsigned usec)
{
	(void)usec;
	libc_note_unsupported("usleep");
	return 0;
}
