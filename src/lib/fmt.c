/* SPDX-License-Identifier: MIT */
/*
 * A bounded formatter: always NUL-terminates within @size and returns the
 * length it would have written. Supports %% %c %s %d %i %u %x %X %p with the
 * flags '-' and '0', a decimal width, and the length modifiers l, ll, z.
 */
#include "svsm/std.h"

struct fmt_out {
	char *buf;
	size_t size;
	size_t len;
};

static void out_char(struct fmt_out *o, char c)
{
	if (o->len + 1 < o->size) {
		o->buf[o->len] = c;
	}
	o->len++;
}

static void out_padded(struct fmt_out *o, const char *s, size_t n,
		       unsigned width, bool left, char pad)
{
	size_t i;

	for (i = n; !left && i < width; i++) {
		out_char(o, pad);
	}
	for (i = 0; i < n; i++) {
		out_char(o, s[i]);
	}
	for (i = n; left && i < width; i++) {
		out_char(o, ' ');
	}
}

static size_t utoa(uint64_t v, unsigned base, bool upper, char *tmp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24];
	size_t n = 0;
	size_t i;

	do {
		rev[n++] = digits[v % base];
		v /= base;
	} while (v != 0);
	for (i = 0; i < n; i++) {
		tmp[i] = rev[n - 1 - i];
	}
	return n;
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_out o = {.buf = buf, .size = size, .len = 0};
	const char *p;

	for (p = fmt; *p != '\0'; p++) {
		char tmp[24];
		unsigned width = 0;
		unsigned longs = 0;
		bool left = false;
		char pad = ' ';
		uint64_t u = 0;
		size_t n;

		if (*p != '%') {
			out_char(&o, *p);
			continue;
		}
		p++;
		for (; *p == '-' || *p == '0'; p++) {
			if (*p == '-') {
				left = true;
			} else {
				pad = '0';
			}
		}
		for (; *p >= '0' && *p <= '9'; p++) {
			width = width * 10u + (unsigned)(*p - '0');
		}
		for (; *p == 'l' || *p == 'z'; p++) {
			longs = *p == 'z' ? 2 : longs + 1;
		}
		switch (*p) {
		case '%':
			out_char(&o, '%');
			break;
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			out_padded(&o, tmp, 1, width, left, ' ');
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (s == NULL) {
				s = "(null)";
			}
			for (n = 0; s[n] != '\0'; n++) {
			}
			out_padded(&o, s, n, width, left, ' ');
			break;
		}
		case 'd':
		case 'i': {
			int64_t v = longs >= 1 ? (int64_t)va_arg(ap, long long)
					       : (int64_t)va_arg(ap, int);
			bool neg = v < 0;

			u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			n = 0;
			if (neg) {
				tmp[n++] = '-';
			}
			n += utoa(u, 10, false, tmp + n);
			out_padded(&o, tmp, n, width, left, pad);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
			u = longs >= 1
				    ? (uint64_t)va_arg(ap, unsigned long long)
				    : (uint64_t)va_arg(ap, unsigned int);
			n = utoa(u, *p == 'u' ? 10 : 16, *p == 'X', tmp);
			out_padded(&o, tmp, n, width, left, pad);
			break;
		case 'p':
			u = (uint64_t)(uintptr_t)va_arg(ap, void *);
			tmp[0] = '0';
			tmp[1] = 'x';
			n = 2 + utoa(u, 16, false, tmp + 2);
			out_padded(&o, tmp, n, width, left, ' ');
			break;
		default:
			/* Unknown conversion: print it literally, consume none.
			 */
			out_char(&o, '%');
			if (*p == '\0') {
				p--;
			} else {
				out_char(&o, *p);
			}
			break;
		}
	}
	if (size > 0) {
		buf[o.len < size ? o.len : size - 1] = '\0';
	}
	return (int)o.len;
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
