/* SPDX-License-Identifier: MIT */
/*
 * The firmware's <pthread.h>: the types OpenSSL's <openssl/crypto.h>
 * names, with glibc's sizes (libcrypto.a was built against glibc; the
 * functions are src/libc/pthread.c).
 */
#ifndef CSVSM_LIBC_PTHREAD_H
#define CSVSM_LIBC_PTHREAD_H
typedef int pthread_once_t;
typedef unsigned int pthread_key_t;
typedef unsigned long pthread_t;
#endif
